// #46 what the SMP publishes, checked before the gateway serves: live mode needs the AS4 endpoint and
// both keystores; sandbox mode runs with none and checks each one given; a bad one is refused by name.
import { type TestKeystores, TEST_KEYSTORE_PASSWORD, makeTestKeystores } from '../../../../test/support/peppol-keystores';
import { PLACEHOLDER_AP_CERTIFICATE, PLACEHOLDER_ENDPOINT_URL, loadSmpSettings } from './smp-settings';

describe('#46 SMP settings', () => {
  let pki: TestKeystores;

  beforeAll(() => {
    pki = makeTestKeystores();
  });

  afterAll(() => pki?.remove());

  const keystores = () => ({
    PEPPOL_AP_KEYSTORE: pki.ap.p12,
    PEPPOL_AP_KEYSTORE_PASSWORD: TEST_KEYSTORE_PASSWORD,
    PEPPOL_SMP_KEYSTORE: pki.smp.p12,
    PEPPOL_SMP_KEYSTORE_PASSWORD: TEST_KEYSTORE_PASSWORD,
  });

  it('sandbox with no settings: the placeholders, unsigned, as before', () => {
    const settings = loadSmpSettings({});
    expect(settings).toMatchObject({ mode: 'sandbox', endpointUrl: PLACEHOLDER_ENDPOINT_URL, apCertificate: PLACEHOLDER_AP_CERTIFICATE, signingKey: undefined, warnings: [] });
  });

  it('live with the endpoint and both keystores: the AP certificate published, the SMP key to sign with; nothing secret in the start-up line', () => {
    const settings = loadSmpSettings({ PEPPOL_MODE: 'live', AS4_PUBLIC_URL: 'https://ap.example.test/as4', ...keystores() });
    expect(settings.endpointUrl).toBe('https://ap.example.test/as4');
    expect(Buffer.from(settings.apCertificate, 'base64').toString('base64')).toBe(settings.apCertificate);
    expect(settings.signingKey?.certificatePem).toContain('-----BEGIN CERTIFICATE-----');
    const line = JSON.stringify(settings.summary);
    expect(line).toContain('CN=PBE000001');
    expect(line).toContain('CN=PSG000001');
    expect(line).not.toContain(TEST_KEYSTORE_PASSWORD);
    expect(line).not.toMatch(/PRIVATE KEY|BEGIN/);
    // The test certificates live two days: both are announced as ending soon.
    expect(settings.warnings).toEqual([
      expect.stringMatching(/^PEPPOL_AP_KEYSTORE: the certificate .*CN=PBE000001 expires on .*: renew it before then\.$/),
      expect.stringMatching(/^PEPPOL_SMP_KEYSTORE: the certificate .*CN=PSG000001 expires on /),
    ]);
  });

  it('live refuses to start without the endpoint or a keystore, naming what is missing', () => {
    expect(() => loadSmpSettings({ PEPPOL_MODE: 'live' })).toThrow('PEPPOL_MODE=live needs AS4_PUBLIC_URL, PEPPOL_AP_KEYSTORE, PEPPOL_SMP_KEYSTORE: ');
    expect(() => loadSmpSettings({ PEPPOL_MODE: 'live', AS4_PUBLIC_URL: 'https://ap.example.test/as4', PEPPOL_AP_KEYSTORE: pki.ap.p12 })).toThrow('PEPPOL_MODE=live needs PEPPOL_SMP_KEYSTORE: ');
    expect(() => loadSmpSettings({ PEPPOL_MODE: 'live', AS4_PUBLIC_URL: 'http://ap.example.test/as4', ...keystores() })).toThrow('AS4_PUBLIC_URL "http://ap.example.test/as4" must be an https URL in PEPPOL_MODE=live (http only on a loopback host).');
    // Two installations on one machine reach each other over loopback, where no TLS protects anything anyway.
    expect(loadSmpSettings({ PEPPOL_MODE: 'live', AS4_PUBLIC_URL: 'http://127.0.0.1:8481/as4', ...keystores() }).endpointUrl).toBe('http://127.0.0.1:8481/as4');
    expect(() => loadSmpSettings({ PEPPOL_MODE: 'production' })).toThrow('PEPPOL_MODE is "production": sandbox or live.');
  });

  it('sandbox checks what it is given: an expired or mismatched keystore, a wrong password, a URL that is none', () => {
    expect(() => loadSmpSettings({ PEPPOL_AP_KEYSTORE: pki.expiredP12, PEPPOL_AP_KEYSTORE_PASSWORD: TEST_KEYSTORE_PASSWORD })).toThrow(/^PEPPOL_AP_KEYSTORE: the certificate CN=PSG000001-old expired on 2020-01-02T00:00:00.000Z\.$/);
    expect(() => loadSmpSettings({ PEPPOL_SMP_KEYSTORE: pki.mismatchedPem })).toThrow('(mismatched certificate and key)');
    expect(() => loadSmpSettings({ PEPPOL_SMP_KEYSTORE: pki.smp.p12, PEPPOL_SMP_KEYSTORE_PASSWORD: 'nope' })).toThrow('cannot be opened with PEPPOL_SMP_KEYSTORE_PASSWORD (wrong password?)');
    expect(() => loadSmpSettings({ AS4_PUBLIC_URL: 'ap.example.test/as4' })).toThrow('AS4_PUBLIC_URL "ap.example.test/as4" is not an absolute URL.');
    expect(loadSmpSettings({ AS4_PUBLIC_URL: 'http://127.0.0.1:8481/as4' }).endpointUrl).toBe('http://127.0.0.1:8481/as4');
  });
});
