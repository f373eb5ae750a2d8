// #46 the service's own keystores (PEPPOL_AP_KEYSTORE, PEPPOL_SMP_KEYSTORE): PKCS#12 as OpenSSL 3 writes
// it and PEM read alike; a wrong password, an expired certificate, a certificate with another's key and
// a missing file refused with a message that names the setting and holds nothing secret.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { KeystoreError, describeCertificate, loadKeystore, privateKeyPem } from './keystore';
import { TEST_KEYSTORE_PASSWORD, type TestKeystores, makeTestKeystores } from '../../../../test/support/peppol-keystores';

describe('#46 keystores from settings', () => {
  let pki: TestKeystores;

  beforeAll(() => {
    pki = makeTestKeystores();
  });

  afterAll(() => pki?.remove());

  const env = (file: string, password = TEST_KEYSTORE_PASSWORD) => ({ PEPPOL_SMP_KEYSTORE: file, PEPPOL_SMP_KEYSTORE_PASSWORD: password });

  it('reads a PKCS#12 keystore: the key, its certificate (not the CA of the chain), the chain', () => {
    const entry = loadKeystore('PEPPOL_SMP_KEYSTORE', env(pki.smp.p12))!;
    expect(describeCertificate(entry.certificate)).toMatchObject({ subject: expect.stringContaining('CN=PSG000001'), issuer: 'CN=peppol-test-ca' });
    expect(entry.chain).toHaveLength(1);
    expect(entry.certificate.checkPrivateKey(entry.privateKey)).toBe(true);
    expect(privateKeyPem(entry)).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    // A KeyObject: a log line that holds the entry holds no key.
    expect(JSON.stringify(entry.privateKey)).toBe('{}');
  });

  it('reads a PEM keystore the same way', () => {
    const entry = loadKeystore('PEPPOL_SMP_KEYSTORE', env(pki.smp.pem, ''))!;
    expect(entry.certificate.subject).toContain('CN=PSG000001');
    expect(entry.chain).toEqual([]);
  });

  it('is undefined when the setting is not given', () => {
    expect(loadKeystore('PEPPOL_SMP_KEYSTORE', {})).toBeUndefined();
  });

  const refusal = (file: string, password = TEST_KEYSTORE_PASSWORD, now?: number): KeystoreError => {
    try {
      loadKeystore('PEPPOL_SMP_KEYSTORE', env(file, password), now);
    } catch (error) {
      expect(error).toBeInstanceOf(KeystoreError);
      expect((error as Error).message).not.toContain(password || 'never-empty');
      expect((error as Error).message).not.toContain('PRIVATE KEY');
      return error as KeystoreError;
    }
    throw new Error('the keystore was accepted');
  };

  it('refuses a wrong password, an expired or not yet valid certificate, a certificate with another key, a missing file, a file of no format', () => {
    expect(refusal(pki.smp.p12, 'wrong-password').message).toBe(`PEPPOL_SMP_KEYSTORE: the keystore ${pki.smp.p12} cannot be opened with PEPPOL_SMP_KEYSTORE_PASSWORD (wrong password?).`);
    expect(refusal(pki.expiredP12).message).toBe('PEPPOL_SMP_KEYSTORE: the certificate CN=PSG000001-old expired on 2020-01-02T00:00:00.000Z.');
    expect(refusal(pki.smp.p12, TEST_KEYSTORE_PASSWORD, Date.parse('2001-01-01')).message).toMatch(/^PEPPOL_SMP_KEYSTORE: the certificate .*CN=PSG000001 is not valid before /);
    expect(refusal(pki.mismatchedPem).message).toBe(`PEPPOL_SMP_KEYSTORE: no certificate in ${pki.mismatchedPem} is the certificate of its private key (mismatched certificate and key).`);
    expect(refusal(path.join(pki.dir, 'none.p12')).message).toBe(`PEPPOL_SMP_KEYSTORE: the keystore ${path.join(pki.dir, 'none.p12')} cannot be read (ENOENT).`);
    const garbage = path.join(pki.dir, 'garbage.p12');
    writeFileSync(garbage, 'not a keystore at all');
    expect(refusal(garbage).message).toBe(`PEPPOL_SMP_KEYSTORE: the keystore ${garbage} is neither a PKCS#12 nor a PEM keystore.`);
    const certificateOnly = path.join(pki.dir, 'certificate-only.pem');
    writeFileSync(certificateOnly, pki.smp.cert);
    expect(refusal(certificateOnly, '').message).toBe(`PEPPOL_SMP_KEYSTORE: the keystore ${certificateOnly} holds 0 private keys; it must hold exactly one (the key of the certificate).`);
  });
});
