/**
 * A Peppol-shaped test PKI made at test time (issue #46): an AP CA with two AP certificates, an SMP CA
 * with one SMP certificate, a rogue certificate no CA issued and an expired one, as PKCS#12 files the AS4
 * engine reads (PEPPOL_AP_KEYSTORE, PEPPOL_TRUSTSTORE, PEPPOL_SMP_TRUSTSTORE) plus PEM for the test's own
 * SMP. Made by scripts/lib/peppol-test-pki.mjs (openssl and keytool), which the bench uses too.
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

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

/** Made by scripts/lib/peppol-test-pki.mjs (the bench's maker too), in a child process: Jest cannot import ESM. */
export async function createPeppolTestPki(): Promise<PeppolTestPki> {
  const { stdout } = await run(process.execPath, [path.join(__dirname, '..', '..', 'scripts', 'lib', 'peppol-test-pki.mjs'), 'create'], { maxBuffer: 16 * 1024 * 1024 });
  const pki = JSON.parse(stdout) as Omit<PeppolTestPki, 'destroy'>;
  return { ...pki, destroy: () => rm(pki.dir, { recursive: true, force: true }) };
}
