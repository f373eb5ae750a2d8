// A Peppol-shaped test PKI made at run time (issue #46), for the bench and the tests (through
// test/support/peppol-pki.ts, which runs `node scripts/lib/peppol-test-pki.mjs create`: Jest cannot
// import ESM): an AP CA with two AP certificates, an SMP CA with one SMP certificate, a rogue certificate
// no CA issued and an expired one, as PKCS#12 files the AS4 engine reads (PEPPOL_AP_KEYSTORE,
// PEPPOL_TRUSTSTORE, PEPPOL_SMP_TRUSTSTORE) plus PEM for a test's own SMP. Made with the machine's
// `openssl` (keys, certificates, keystores) and the JDK's `keytool` (truststores: Java reads a PKCS#12
// certificate as trusted only with the attribute keytool writes, which OpenSSL 3.0 cannot).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * @typedef {object} TestCredential  A key and its certificate, as files and as PEM text.
 * @property {string} keystore  PKCS#12 with the key and the certificate chain, protected by the PKI's password.
 * @property {string} certificatePem
 * @property {string} privateKeyPem
 * @property {string} commonName  The subject CN: a Peppol seat id for AP certificates.
 */

/**
 * @typedef {object} PeppolTestPki
 * @property {string} dir
 * @property {string} password  The password of every keystore and truststore here.
 * @property {string} apTruststore  PKCS#12 truststore holding the AP CA (PEPPOL_TRUSTSTORE).
 * @property {string} smpTruststore  PKCS#12 truststore holding the SMP CA (PEPPOL_SMP_TRUSTSTORE).
 * @property {TestCredential} apA  seat id PBE000001
 * @property {TestCredential} apB  seat id PDE000002
 * @property {TestCredential} smp
 * @property {TestCredential} rogue  Self-signed, seat-id shaped: trusted by nobody.
 * @property {{ keystore: string, commonName: string }} expired  An AP keystore whose certificate expired
 *   yesterday (keytool can back-date, OpenSSL 3.0 cannot).
 * @property {() => Promise<void>} destroy
 */

/** @returns {Promise<PeppolTestPki>} */
export async function createPeppolTestPki() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'peppol-pki-'));
  try {
    return await issue(dir);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function issue(dir) {
  const password = randomBytes(12).toString('hex');
  const openssl = (...args) => run('openssl', args, { cwd: dir });

  const ca = (name, cn) =>
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '3', '-keyout', `${name}.key`, '-out', `${name}.crt`,
      '-subj', `/CN=${cn}/O=einvoice test PKI`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  const truststore = async (name) => {
    const file = path.join(dir, `${name}-truststore.p12`);
    await run('keytool', ['-importcert', '-noprompt', '-storetype', 'PKCS12', '-keystore', file, '-storepass', password, '-alias', name, '-file', path.join(dir, `${name}.crt`)]);
    return file;
  };
  // Peppol AP and SMP certificates: RSA 2048, signing and key encipherment (WS-Security encrypts the
  // AS4 payload's key to the receiver's certificate).
  await writeFile(path.join(dir, 'leaf.ext'), 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment,dataEncipherment\n');
  /** @returns {Promise<TestCredential>} */
  const leaf = async (name, cn, country, issuer) => {
    const subject = `/CN=${cn}/O=einvoice test ${name}/C=${country}`;
    if (issuer) {
      await openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
      await openssl('x509', '-req', '-sha256', '-in', `${name}.csr`, '-CA', `${issuer}.crt`, '-CAkey', `${issuer}.key`, '-set_serial', `0x${randomBytes(8).toString('hex')}`,
        '-days', '2', '-extfile', 'leaf.ext', '-out', `${name}.crt`);
    } else {
      await openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '2', '-keyout', `${name}.key`, '-out', `${name}.crt`, '-subj', subject);
    }
    const chain = issuer ? ['-certfile', `${issuer}.crt`] : [];
    await openssl('pkcs12', '-export', '-inkey', `${name}.key`, '-in', `${name}.crt`, ...chain, '-name', name, '-out', `${name}.p12`, '-passout', `pass:${password}`);
    return {
      keystore: path.join(dir, `${name}.p12`),
      certificatePem: await readFile(path.join(dir, `${name}.crt`), 'utf8'),
      privateKeyPem: await readFile(path.join(dir, `${name}.key`), 'utf8'),
      commonName: cn,
    };
  };

  await ca('ap-ca', 'einvoice TEST Peppol AP CA');
  await ca('smp-ca', 'einvoice TEST Peppol SMP CA');
  const [apA, apB, smp, rogue] = await Promise.all([
    leaf('ap-a', 'PBE000001', 'BE', 'ap-ca'),
    leaf('ap-b', 'PDE000002', 'DE', 'ap-ca'),
    leaf('smp', 'SMP000003', 'BE', 'smp-ca'),
    leaf('rogue', 'PXX000009', 'BE', undefined),
  ]);
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

// `node scripts/lib/peppol-test-pki.mjs create`: makes one and prints it as JSON (all but destroy: the
// caller removes `dir`).
if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === 'create') {
  const { destroy: _destroy, ...pki } = await createPeppolTestPki();
  process.stdout.write(`${JSON.stringify(pki)}\n`);
}
