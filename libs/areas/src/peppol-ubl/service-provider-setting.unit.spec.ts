import type { Logger } from '@einvoice/domain';
import { announceServiceProviderId, serviceProviderIdSetting } from './service-provider-setting';

describe('#46 one setting names this access point\'s service provider id (PEPPOL_SERVICE_PROVIDER_ID; UAE_AP_SPID deprecated)', () => {
  it('reads PEPPOL_SERVICE_PROVIDER_ID; neither set is no id', () => {
    expect(serviceProviderIdSetting({ PEPPOL_SERVICE_PROVIDER_ID: ' 0242:000111 ' })).toEqual({ id: '0242:000111' });
    expect(serviceProviderIdSetting({})).toEqual({ id: undefined });
    expect(serviceProviderIdSetting({ UAE_AP_SPID: '' })).toEqual({ id: undefined });
  });

  it('still reads UAE_AP_SPID while PEPPOL_SERVICE_PROVIDER_ID is unset, with a warning line at start', () => {
    const lines: Array<[string, string]> = [];
    const log = ((level: string, message: string) => lines.push([level, message])) as Logger;
    expect(announceServiceProviderId(log, { UAE_AP_SPID: '0242:000111' })).toMatchObject({ id: '0242:000111' });
    expect(lines).toEqual([['warn', "UAE_AP_SPID is deprecated: this access point's service provider id (0242:000111) is read from it because PEPPOL_SERVICE_PROVIDER_ID is unset; set PEPPOL_SERVICE_PROVIDER_ID instead."]]);
    lines.length = 0;
    expect(announceServiceProviderId(log, { UAE_AP_SPID: '0242:000111', PEPPOL_SERVICE_PROVIDER_ID: '0242:000111' })).toMatchObject({ id: '0242:000111' });
    expect(lines).toEqual([['warn', 'UAE_AP_SPID is deprecated and repeats PEPPOL_SERVICE_PROVIDER_ID: remove it.']]);
    lines.length = 0;
    announceServiceProviderId(log, { PEPPOL_SERVICE_PROVIDER_ID: '0242:000111' });
    expect(lines).toEqual([]);
  });

  it('refuses two that differ, naming both (the UAE FTA connector too: uae/reporting/connector.unit.spec.ts)', () => {
    const env = { PEPPOL_SERVICE_PROVIDER_ID: '0242:000111', UAE_AP_SPID: '0242:000999' };
    const refusal = 'PEPPOL_SERVICE_PROVIDER_ID (0242:000111) and UAE_AP_SPID (0242:000999) name two service provider ids for this access point: set PEPPOL_SERVICE_PROVIDER_ID only (UAE_AP_SPID is its deprecated name).';
    expect(() => serviceProviderIdSetting(env)).toThrow(refusal);
  });
});
