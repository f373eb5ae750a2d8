import { verifactuCertificate, verifactuSettings } from './settings';

describe('VeriFactu settings', () => {
  it('sandbox by default, with the test QR host', () => {
    expect(verifactuSettings({})).toMatchObject({ mode: 'sandbox', qrEnvironment: 'sandbox', sandboxWaitSeconds: 60 });
  });

  it('live against the AEAT\'s production endpoint uses the production QR host; against its pre-production, the test host', () => {
    expect(verifactuSettings({ VERIFACTU_MODE: 'live' })).toMatchObject({ mode: 'live', qrEnvironment: 'live', aeatUrl: expect.stringContaining('www1.agenciatributaria.gob.es') });
    expect(verifactuSettings({ VERIFACTU_MODE: 'live', VERIFACTU_AEAT_URL: 'https://prewww1.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP' })).toMatchObject({ qrEnvironment: 'sandbox' });
  });

  it('live mode without its certificate files stops the start', () => {
    expect(() => verifactuCertificate({ VERIFACTU_MODE: 'live' })).toThrow(/VERIFACTU_CERT_FILE/);
  });
});
