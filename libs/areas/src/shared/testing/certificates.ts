/**
 * The tests' certificates, made with the openssl command line (opensslCertificates), and a throwaway CA
 * with a server certificate for 127.0.0.1 and a client certificate for the live clients' tests against
 * their fakes (the AEAT's mutual TLS, AFIP's CMS-signed login). The client's subject is the AEAT's test
 * issuer unless given.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A key and its certificate, PEM. */
export interface TestCertificate {
  readonly cert: string;
  readonly key: string;
}

export interface TestCertificates {
  readonly ca: string;
  readonly server: TestCertificate;
  readonly client: TestCertificate;
  /** A client certificate from another CA: the server must refuse it. */
  readonly stranger: TestCertificate;
}

export function makeTestCertificates(clientSubject = '/CN=89890001K EMPRESA DE PRUEBAS/serialNumber=IDCES-89890001K'): TestCertificates {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'einvoice-certs-'));
  try {
    const certificates = opensslCertificates(dir);
    const ca = certificates.selfSigned('test-ca', '/CN=test-ca', { ca: true });
    certificates.selfSigned('other-ca', '/CN=other-ca', { ca: true });
    return {
      ca: ca.cert,
      server: certificates.issue('server', 'test-ca', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1\n'),
      client: certificates.issue('client', 'test-ca', clientSubject),
      stranger: certificates.issue('stranger', 'other-ca', '/CN=stranger'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The one maker of the tests' certificates, with the machine's `openssl`, as files in `dir`
 * (`<name>.key`, `<name>.crt`, `<name>.p12`): makeTestCertificates below (the authorities' TLS and
 * signatures), test/support/peppol-keystores.ts (the gateway's SMP and SML keystores) and
 * test/support/peppol-pki.ts (the AS4 engine's) are all made with it, so how a test CA, certificate or
 * keystore is made (key size, digest, serial, CA extensions) is written once. RSA 2048 and SHA-256, as
 * Peppol's PKI issues; CAs valid 3 days, what they issue 2.
 */
export function opensslCertificates(dir: string) {
  // 20 random bytes, the first with its top bit clear and not zero: a positive DER INTEGER of one length.
  const serial = () => {
    const bytes = randomBytes(20);
    bytes[0] = (bytes[0] & 0x7f) | 0x10;
    return bytes.toString('hex');
  };
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
     * made side by side never share one) of 20 bytes, as OpenSSL's own serial files start, and
     * `extensions` (lines of an OpenSSL extension file), if any.
     */
    issue(name: string, by: string, subject: string, extensions?: string): TestCertificate {
      openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', subject, '-keyout', `${name}.key`, '-out', `${name}.csr`);
      if (extensions) writeFileSync(path.join(dir, `${name}.ext`), extensions);
      openssl('x509', '-req', '-sha256', '-in', `${name}.csr`, '-CA', `${by}.crt`, '-CAkey', `${by}.key`, '-set_serial', `0x${serial()}`,
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
