/**
 * A throwaway Peppol PKI for the tests of #46, written as the files the settings name: a CA, an AP and an
 * SMP certificate (PKCS#12 as OpenSSL 3 writes them by default: AES-256, PBKDF2, a SHA-256 MAC; and PEM),
 * a server certificate for 127.0.0.1 (the fake SML), and the broken keystores the service must refuse: an
 * expired certificate, a certificate with another certificate's key.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import forge from 'node-forge';

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

/** A key and its certificate, PEM. */
export interface TestCertificate {
  readonly cert: string;
  readonly key: string;
}

/**
 * The one maker of the tests' certificates, with the machine's `openssl`, as files in `dir`
 * (`<name>.key`, `<name>.crt`, `<name>.p12`): this file's PKI (the gateway's SMP and SML keystores) and
 * peppol-pki.ts's (the AS4 engine's) are both made with it, so how a test CA, certificate or keystore is
 * made (key size, digest, serial, CA extensions) is written once. RSA 2048 and SHA-256, as Peppol's PKI
 * issues; CAs valid 3 days, what they issue 2.
 */
export function opensslCertificates(dir: string) {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const pem = (name: string): TestCertificate => ({
    cert: readFileSync(path.join(dir, `${name}.crt`), 'utf8'),
    key: readFileSync(path.join(dir, `${name}.key`), 'utf8'),
  });
  return {
    /** A self-signed certificate: a CA's (`ca`: CA:TRUE, signs certificates and CRLs), or one no CA issued. */
    selfSigned(name: string, subject: string, options: { readonly ca?: boolean } = {}): TestCertificate {
      const caExtensions = options.ca ? ['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'] : [];
      openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', options.ca ? '3' : '2', '-subj', subject, '-keyout', `${name}.key`, '-out', `${name}.crt`, ...caExtensions);
      return pem(name);
    },
    /**
     * A key and a certificate the CA `by` (made here) issued, with a random serial (no serial file: PKIs
     * made side by side never share one) and `extensions` (lines of an OpenSSL extension file), if any.
     */
    issue(name: string, by: string, subject: string, extensions?: string): TestCertificate {
      openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', subject, '-keyout', `${name}.key`, '-out', `${name}.csr`);
      if (extensions) writeFileSync(path.join(dir, `${name}.ext`), extensions);
      openssl('x509', '-req', '-sha256', '-in', `${name}.csr`, '-CA', `${by}.crt`, '-CAkey', `${by}.key`, '-set_serial', `0x${randomBytes(8).toString('hex')}`,
        '-days', '2', '-out', `${name}.crt`, ...(extensions ? ['-extfile', `${name}.ext`] : []));
      return pem(name);
    },
    /** `<name>.p12`, its path: the key and certificate under the alias `name`, with the CA `chainOf`'s certificate as chain when it has one. */
    pkcs12(name: string, password: string, chainOf?: string): string {
      const chain = chainOf ? ['-certfile', `${chainOf}.crt`] : [];
      openssl('pkcs12', '-export', '-inkey', `${name}.key`, '-in', `${name}.crt`, ...chain, '-name', name, '-out', `${name}.p12`, '-passout', `pass:${password}`);
      return path.join(dir, `${name}.p12`);
    },
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
