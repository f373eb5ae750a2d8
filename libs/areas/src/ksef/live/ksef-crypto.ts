/**
 * KSeF 2.0's cryptography (ksef-docs `uwierzytelnianie.md`, `sesja-interaktywna.md`): the KSeF token and
 * a session's AES-256 key are encrypted with RSA-OAEP (SHA-256) under the Ministry's public keys
 * (`KsefTokenEncryption`, `SymmetricKeyEncryption`); invoices with AES-256-CBC and PKCS#7 padding under the
 * session's key, the IV given when the session is opened (the ciphertext alone is sent, as the official
 * clients do). Hashes are SHA-256 in Base64.
 */
import { X509Certificate, constants, createCipheriv, createHash, publicEncrypt, randomBytes } from 'node:crypto';

/** A session's key and IV. */
export interface SessionKey {
  readonly key: Buffer;
  readonly iv: Buffer;
}

export const sha256Base64 = (data: Buffer | string): string => createHash('sha256').update(data).digest('base64');

/** RSA-OAEP with SHA-256 under the public key of a certificate given as Base64 DER (KSeF's `certificate`). */
export function rsaOaepEncrypt(certificateDerBase64: string, data: Buffer | string): string {
  const publicKey = new X509Certificate(Buffer.from(certificateDerBase64, 'base64')).publicKey;
  return publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(data)).toString('base64');
}

/** `encryptedToken` of `POST /auth/ksef-token`: `token|timestampMs` of the challenge. */
export const encryptKsefToken = (certificateDerBase64: string, token: string, challengeTimestampMs: number): string =>
  rsaOaepEncrypt(certificateDerBase64, `${token}|${challengeTimestampMs}`);

export const newSessionKey = (): SessionKey => ({ key: randomBytes(32), iv: randomBytes(16) });

/** AES-256-CBC with PKCS#7 padding (Node's default). */
export function encryptInvoice(session: SessionKey, xml: string): Buffer {
  const cipher = createCipheriv('aes-256-cbc', session.key, session.iv);
  return Buffer.concat([cipher.update(Buffer.from(xml, 'utf8')), cipher.final()]);
}
