/**
 * A throwaway Peppol PKI for the tests of #46, written as the files the settings name: a CA, an AP and an
 * SMP certificate (PKCS#12 as OpenSSL 3 writes them by default: AES-256, PBKDF2, a SHA-256 MAC; and PEM),
 * a server certificate for 127.0.0.1 (the fake SML), and the broken keystores the service must refuse: an
 * expired certificate, a certificate with another certificate's key.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import forge from 'node-forge';
import { opensslCertificates } from '../../libs/areas/src/shared/testing/certificates';

export const TEST_KEYSTORE_PASSWORD = 'test-keystore-password';

export interface TestPeer {
  readonly cert: string;
  readonly key: string;
  /** PKCS#12 file (password TEST_KEYSTORE_PASSWORD), with the CA certificate as its chain. */
  readonly p12: string;
  /** PEM file: the certificate and its unencrypted key. */
  readonly pem: string;
}

export interface TestKeystores {
  readonly dir: string;
  /** The CA's certificate, PEM, and its file. */
  readonly ca: string;
  readonly caFile: string;
  readonly ap: TestPeer;
  readonly smp: TestPeer;
  /** For 127.0.0.1: the fake SML's TLS server certificate. */
  readonly server: { readonly cert: string; readonly key: string };
  /** A client certificate of another CA: the fake SML must refuse it. */
  readonly stranger: TestPeer;
  /** PKCS#12 of a certificate that expired in 2020 (same password). */
  readonly expiredP12: string;
  /** PEM file: the AP certificate with the SMP's key. */
  readonly mismatchedPem: string;
  remove(): void;
}

export function makeTestKeystores(): TestKeystores {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'einvoice-peppol-pki-'));
  const file = (name: string) => path.join(dir, name);
  const certificates = opensslCertificates(dir);
  const peer = (name: string, by: string, subject: string): TestPeer => {
    const { cert, key } = certificates.issue(name, by, subject);
    writeFileSync(file(`${name}.pem`), `${cert}${key}`);
    return { cert, key, p12: certificates.pkcs12(name, TEST_KEYSTORE_PASSWORD, by), pem: file(`${name}.pem`) };
  };
  const ca = certificates.selfSigned('peppol-test-ca', '/CN=peppol-test-ca', { ca: true });
  certificates.selfSigned('other-ca', '/CN=other-ca', { ca: true });
  const ap = peer('ap', 'peppol-test-ca', '/C=BE/O=einvoice gateway test/OU=PEPPOL TEST AP/CN=PBE000001');
  const smp = peer('smp', 'peppol-test-ca', '/C=BE/O=einvoice gateway test/OU=PEPPOL TEST SMP/CN=PSG000001');
  const stranger = peer('stranger', 'other-ca', '/CN=stranger');
  const server = certificates.issue('server', 'peppol-test-ca', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1\n');
  writeFileSync(file('mismatched.pem'), `${ap.cert}${smp.key}`);
  writeFileSync(file('expired.p12'), expiredPkcs12(ca.cert, ca.key, smp.key));
  return {
    dir,
    ca: ca.cert,
    caFile: file('peppol-test-ca.crt'),
    ap,
    smp,
    server,
    stranger,
    expiredP12: file('expired.p12'),
    mismatchedPem: file('mismatched.pem'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** OpenSSL 3.0's `x509` sets no past dates: node-forge writes the certificate (valid 1–2 January 2020) and its PKCS#12. */
function expiredPkcs12(caCert: string, caKey: string, key: string): Buffer {
  const { pki } = forge;
  const privateKey = pki.privateKeyFromPem(key) as forge.pki.rsa.PrivateKey;
  const certificate = pki.createCertificate();
  certificate.publicKey = pki.setRsaPublicKey(privateKey.n, privateKey.e);
  certificate.serialNumber = '0a0b0c';
  certificate.validity.notBefore = new Date('2020-01-01T00:00:00Z');
  certificate.validity.notAfter = new Date('2020-01-02T00:00:00Z');
  certificate.setSubject([{ shortName: 'CN', value: 'PSG000001-old' }]);
  certificate.setIssuer(pki.certificateFromPem(caCert).subject.attributes);
  certificate.sign(pki.privateKeyFromPem(caKey), forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(privateKey, [certificate], TEST_KEYSTORE_PASSWORD, { algorithm: 'aes256' });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary');
}
