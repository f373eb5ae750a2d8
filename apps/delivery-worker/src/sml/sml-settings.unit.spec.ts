// #46 which SML the delivery worker registers at: the sandbox by default; Peppol's test SML or the
// production SML only with the SMP's ID and certificate, checked at the start.
import { SML_ENDPOINTS } from '@einvoice/areas';
import { type TestKeystores, TEST_KEYSTORE_PASSWORD, makeTestKeystores } from '../../../../test/support/peppol-keystores';
import { loadSmlSettings } from './sml-settings';

describe('#46 SML settings', () => {
  let pki: TestKeystores;

  beforeAll(() => {
    pki = makeTestKeystores();
  });

  afterAll(() => pki?.remove());

  it('sandbox by default, as before', () => {
    expect(loadSmlSettings({})).toEqual({ network: 'sandbox', smpId: 'einvoice-gateway-smp', latencyMs: 0 });
  });

  it('test and production: BDMSL at Peppol\'s SML with the SMP certificate; PEPPOL_SML_URL and PEPPOL_SML_CA name another', () => {
    const env = { PEPPOL_SMP_ID: 'EINVOICE-SMP', PEPPOL_SMP_KEYSTORE: pki.smp.p12, PEPPOL_SMP_KEYSTORE_PASSWORD: TEST_KEYSTORE_PASSWORD };
    const test = loadSmlSettings({ ...env, PEPPOL_SML: 'test' });
    expect(test).toMatchObject({ network: 'test', smpId: 'EINVOICE-SMP', url: 'https://api.sml.test.tech.peppol.org/edelivery-sml', tls: { cert: expect.stringContaining('-----BEGIN CERTIFICATE-----'), key: expect.stringContaining('-----BEGIN PRIVATE KEY-----') } });
    expect(JSON.stringify(test.network === 'sandbox' ? {} : test.summary)).not.toMatch(/PRIVATE KEY|test-keystore-password/);
    expect(loadSmlSettings({ ...env, PEPPOL_SML: 'production' })).toMatchObject({ url: SML_ENDPOINTS.production });
    expect(loadSmlSettings({ ...env, PEPPOL_SML: 'test', PEPPOL_SML_URL: 'https://127.0.0.1:9443/edelivery-sml', PEPPOL_SML_CA: pki.caFile })).toMatchObject({ url: 'https://127.0.0.1:9443/edelivery-sml', tls: { ca: pki.ca } });
  });

  it('refuses to start without the SMP ID or certificate, with an expired one, or an SML it does not know', () => {
    expect(() => loadSmlSettings({ PEPPOL_SML: 'test' })).toThrow('PEPPOL_SML=test needs PEPPOL_SMP_ID: ');
    expect(() => loadSmlSettings({ PEPPOL_SML: 'production', PEPPOL_SMP_ID: 'X' })).toThrow('PEPPOL_SML=production needs PEPPOL_SMP_KEYSTORE: ');
    expect(() => loadSmlSettings({ PEPPOL_SML: 'test', PEPPOL_SMP_ID: 'X', PEPPOL_SMP_KEYSTORE: pki.expiredP12, PEPPOL_SMP_KEYSTORE_PASSWORD: TEST_KEYSTORE_PASSWORD })).toThrow(/expired on 2020-01-02/);
    expect(() => loadSmlSettings({ PEPPOL_SML: 'smk' })).toThrow('PEPPOL_SML is "smk": sandbox, test or production.');
  });
});
