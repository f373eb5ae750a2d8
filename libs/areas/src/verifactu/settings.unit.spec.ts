import { representativeCertificate, verifactuSettings } from './settings';

describe('VeriFactu settings', () => {
  it('sandbox by default, with the test QR host', () => {
    expect(verifactuSettings({})).toMatchObject({ mode: 'sandbox', qrEnvironment: 'sandbox', sandboxWaitSeconds: 60 });
  });

  it('live against the AEAT\'s production endpoint uses the production QR host; against its pre-production, the test host', () => {
    expect(verifactuSettings({ VERIFACTU_MODE: 'live' })).toMatchObject({ mode: 'live', qrEnvironment: 'live', aeatUrl: expect.stringContaining('www1.agenciatributaria.gob.es') });
    expect(verifactuSettings({ VERIFACTU_MODE: 'live', VERIFACTU_AEAT_URL: 'https://prewww1.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP' })).toMatchObject({ qrEnvironment: 'sandbox' });
  });

  it('a representative certificate is optional, but its two files go together', () => {
    expect(representativeCertificate({})).toEqual({});
    expect(() => representativeCertificate({ VERIFACTU_CERT_FILE: '/tmp/x.pem' })).toThrow(/go together/);
  });
});
