/**
 * A Peppol-shaped test PKI made at test time (issue #46): an AP CA with two AP certificates, an SMP CA
 * with one SMP certificate, a rogue certificate no CA issued and an expired one, as PKCS#12 files the AS4
 * engine reads (PEPPOL_AP_KEYSTORE, PEPPOL_TRUSTSTORE, PEPPOL_SMP_TRUSTSTORE) plus PEM for the test's own
 * SMP. Made with the machine's `openssl` (keys, certificates, keystores: opensslCertificates of
 * libs/areas/src/shared/testing/certificates.ts, the one maker of the tests' certificates) and the JDK's
 * `keytool` (truststores: Java reads a PKCS#12 certificate as trusted only with the attribute keytool
 * writes, which OpenSSL 3.0 cannot).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { opensslCertificates } from '../../libs/areas/src/shared/testing/certificates';

const run = promisify(execFile);

/** A key and its certificate, as files and as PEM text. */
export interface TestCredential {
  /** PKCS#12 with the key and the certificate chain, protected by the PKI's password. */
  readonly keystore: string;
  readonly certificatePem: string;
  readonly privateKeyPem: string;
  /** The subject CN: a Peppol seat id for AP certificates. */
  readonly commonName: string;
}

export interface PeppolTestPki {
  readonly dir: string;
  /** The password of every keystore and truststore here. */
  readonly password: string;
  /** PKCS#12 truststore holding the AP CA (PEPPOL_TRUSTSTORE). */
  readonly apTruststore: string;
  /** PKCS#12 truststore holding the SMP CA (PEPPOL_SMP_TRUSTSTORE). */
  readonly smpTruststore: string;
  /** Two access points, seat ids PBE000001 and PDE000002. */
  readonly apA: TestCredential;
  readonly apB: TestCredential;
  readonly smp: TestCredential;
  /** Self-signed, seat-id shaped: trusted by nobody. */
  readonly rogue: TestCredential;
  /** An AP keystore whose certificate expired yesterday (keytool can back-date, OpenSSL 3.0 cannot). */
  readonly expired: Pick<TestCredential, 'keystore' | 'commonName'>;
  destroy(): Promise<void>;
}

export async function createPeppolTestPki(): Promise<PeppolTestPki> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'peppol-pki-'));
  const password = randomBytes(12).toString('hex');
  const certificates = opensslCertificates(dir);

  const truststore = async (name: string) => {
    const file = path.join(dir, `${name}-truststore.p12`);
    await run('keytool', ['-importcert', '-noprompt', '-storetype', 'PKCS12', '-keystore', file, '-storepass', password, '-alias', name, '-file', path.join(dir, `${name}.crt`)]);
    return file;
  };
  // Peppol AP and SMP certificates: signing and key encipherment (WS-Security encrypts the AS4 payload's
  // key to the receiver's certificate).
  const leafExtensions = 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment,dataEncipherment\n';
  const leaf = (name: string, cn: string, country: string, issuer: string | undefined): TestCredential => {
    const subject = `/CN=${cn}/O=einvoice test ${name}/C=${country}`;
    const { cert, key } = issuer ? certificates.issue(name, issuer, subject, leafExtensions) : certificates.selfSigned(name, subject);
    return { keystore: certificates.pkcs12(name, password, issuer), certificatePem: cert, privateKeyPem: key, commonName: cn };
  };

  certificates.selfSigned('ap-ca', '/CN=einvoice TEST Peppol AP CA/O=einvoice test PKI', { ca: true });
  certificates.selfSigned('smp-ca', '/CN=einvoice TEST Peppol SMP CA/O=einvoice test PKI', { ca: true });
  const apA = leaf('ap-a', 'PBE000001', 'BE', 'ap-ca');
  const apB = leaf('ap-b', 'PDE000002', 'DE', 'ap-ca');
  const smp = leaf('smp', 'SMP000003', 'BE', 'smp-ca');
  const rogue = leaf('rogue', 'PXX000009', 'BE', undefined);
  const expired = { keystore: path.join(dir, 'expired.p12'), commonName: 'PBE000008' };
  await run('keytool', ['-genkeypair', '-keyalg', 'RSA', '-keysize', '2048', '-alias', 'expired', '-dname', `CN=${expired.commonName}, O=einvoice test expired, C=BE`,
    '-startdate', '-3d', '-validity', '2', '-storetype', 'PKCS12', '-keystore', expired.keystore, '-storepass', password, '-keypass', password]);
  return {
    dir,
    password,
    apTruststore: await truststore('ap-ca'),
    smpTruststore: await truststore('smp-ca'),
    apA,
    apB,
    smp,
    rogue,
    expired,
    destroy: () => rm(dir, { recursive: true, force: true }),
  };
}
