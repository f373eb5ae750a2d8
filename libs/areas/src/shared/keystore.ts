/**
 * The service's own certificate and private key from a keystore file a setting names (issue #46
 * "Certificates": the Peppol AP and SMP certificates). Two formats, told apart by the file's content:
 * - PKCS#12 (`.p12`/`.pfx`): what Peppol's PKI hands out and what the AS4 engine reads, opened with the
 *   `<SETTING>_PASSWORD` setting;
 * - PEM: the certificate (and its chain) and the private key in one file, the key encrypted with the
 *   password setting or not at all.
 * Checked when read, so that a bad file stops the start, never a request: exactly one private key, a
 * certificate that is that key's, valid today. Every refusal names the setting and never the key, the
 * password or the file's content.
 * PKCS#12 through node-forge: Node's crypto cannot read a PKCS#12 file (it takes one only as `pfx` inside a
 * TLS context, where neither the certificate nor its dates can be read back); node-forge is maintained,
 * reads the PBES2/AES files OpenSSL 3 writes, and is already the project's CMS library (AFIP's login).
 * Everything past the reading is Node's crypto.
 */
import { type KeyObject, X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import forge from 'node-forge';

/** A private key and its certificate, as read from a keystore setting. */
export interface KeystoreEntry {
  /** The setting that named the file (`PEPPOL_SMP_KEYSTORE`): what messages name. */
  readonly setting: string;
  /** The certificate of `privateKey`. */
  readonly certificate: X509Certificate;
  /** The other certificates of the file (the issuing CAs), PEM. */
  readonly chain: readonly string[];
  /** A KeyObject, which prints as `{}`: the key's material never reaches a log line by accident. */
  readonly privateKey: KeyObject;
}

/** A keystore the service refuses to start with; the message says which setting and why. */
export class KeystoreError extends Error {
  constructor(readonly setting: string, message: string) {
    super(message);
    this.name = 'KeystoreError';
  }
}

/** Subject, issuer, serial and validity of a certificate: what a start-up line may say of it. */
export function describeCertificate(certificate: X509Certificate): { subject: string; issuer: string; serialNumber: string; notAfter: string } {
  return {
    subject: certificate.subject.split('\n').join(', '),
    issuer: certificate.issuer.split('\n').join(', '),
    serialNumber: certificate.serialNumber,
    notAfter: new Date(certificate.validTo).toISOString(),
  };
}

/**
 * The keystore the setting `name` names in `env` (its password in `${name}_PASSWORD`); undefined when the
 * setting is not given. @throws KeystoreError when the file is missing, unreadable with the password,
 * holds no key or more than one, no certificate of the key, or the certificate is not valid at `now`.
 */
export function loadKeystore(name: string, env: NodeJS.ProcessEnv, now: number = Date.now()): KeystoreEntry | undefined {
  const file = env[name]?.trim();
  if (!file) return undefined;
  const password = env[`${name}_PASSWORD`] ?? '';
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new KeystoreError(name, `${name}: the keystore ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  const { keys, certificates } = bytes.includes('-----BEGIN') ? readPem(name, bytes.toString('utf8'), password) : readPkcs12(name, file, bytes, password);
  if (keys.length !== 1) throw new KeystoreError(name, `${name}: the keystore ${file} holds ${keys.length} private keys; it must hold exactly one (the key of the certificate).`);
  if (certificates.length === 0) throw new KeystoreError(name, `${name}: the keystore ${file} holds no certificate.`);
  const [privateKey] = keys;
  const own = certificates.find((certificate) => certificate.checkPrivateKey(privateKey));
  if (!own) throw new KeystoreError(name, `${name}: no certificate in ${file} is the certificate of its private key (mismatched certificate and key).`);
  const from = Date.parse(own.validFrom);
  const to = Date.parse(own.validTo);
  if (now > to) throw new KeystoreError(name, `${name}: the certificate ${own.subject.split('\n').join(', ')} expired on ${new Date(to).toISOString()}.`);
  if (now < from) throw new KeystoreError(name, `${name}: the certificate ${own.subject.split('\n').join(', ')} is not valid before ${new Date(from).toISOString()}.`);
  return { setting: name, certificate: own, chain: certificates.filter((c) => c !== own).map((c) => c.toString()), privateKey };
}

/** The PEM of a keystore's private key, for what takes no KeyObject (a TLS client certificate's `key`). */
export function privateKeyPem(entry: KeystoreEntry): string {
  return entry.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

interface Contents {
  readonly keys: KeyObject[];
  readonly certificates: X509Certificate[];
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

function readPem(name: string, text: string, password: string): Contents {
  const keys: KeyObject[] = [];
  const certificates: X509Certificate[] = [];
  for (const [block, label] of text.matchAll(PEM_BLOCK)) {
    if (label === 'CERTIFICATE') {
      try {
        certificates.push(new X509Certificate(block));
      } catch {
        throw new KeystoreError(name, `${name}: a CERTIFICATE block of the PEM keystore is not an X.509 certificate.`);
      }
    } else if (label.endsWith('PRIVATE KEY')) {
      try {
        keys.push(createPrivateKey({ key: block, format: 'pem', ...(password ? { passphrase: password } : {}) }));
      } catch {
        throw new KeystoreError(name, `${name}: the private key of the PEM keystore cannot be read${label.startsWith('ENCRYPTED') ? ` with ${name}_PASSWORD (wrong password?)` : ''}.`);
      }
    }
  }
  return { keys, certificates };
}

function readPkcs12(name: string, file: string, bytes: Buffer, password: string): Contents {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(bytes.toString('binary'))), password);
  } catch (error) {
    const said = (error as Error).message ?? '';
    const reason = /mac|password|decrypt/i.test(said) ? `cannot be opened with ${name}_PASSWORD (wrong password?)` : 'is neither a PKCS#12 nor a PEM keystore';
    throw new KeystoreError(name, `${name}: the keystore ${file} ${reason}.`);
  }
  const bagsOf = (bagType: string) => p12.getBags({ bagType })[bagType] ?? [];
  const { pki } = forge;
  const { oids } = pki;
  // forge parses only RSA keys and certificates itself; any other (EC) stays as its ASN.1, which Node reads.
  const keys = [...bagsOf(oids.pkcs8ShroudedKeyBag), ...bagsOf(oids.keyBag)].map((bag) => {
    const info = bag.key ? pki.wrapRsaPrivateKey(pki.privateKeyToAsn1(bag.key)) : bag.asn1;
    return createPrivateKey({ key: derOf(info), format: 'der', type: 'pkcs8' });
  });
  const certificates = bagsOf(oids.certBag).map((bag) => new X509Certificate(derOf(bag.cert ? pki.certificateToAsn1(bag.cert) : bag.asn1)));
  return { keys, certificates };
}

function derOf(asn1: forge.asn1.Asn1): Buffer {
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}
