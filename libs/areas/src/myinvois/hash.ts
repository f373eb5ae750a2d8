/**
 * Document hash as MyInvois "Submit Documents" wants it: `documentHash` is the SHA-256 of the
 * exact bytes submitted (UTF-8 of the XML or JSON text), written in lower-case hex; `document`
 * is those same bytes in Base64. Any re-serialisation after hashing breaks the match
 * ("Document hash is not valid", national-systems.md), so hash and encode from one Buffer.
 */
import { createHash } from 'node:crypto';

/** One document ready for the `documents[]` element of a submission. */
export interface HashedDocument {
  readonly format: 'XML' | 'JSON';
  /** SHA-256 of the UTF-8 bytes, lower-case hex (64 characters): MyInvois `documentHash`. */
  readonly sha256Hex: string;
  /** The same digest in Base64, for signatures (XAdES DigestValue) and logs. */
  readonly sha256Base64: string;
  /** The UTF-8 bytes in Base64: MyInvois `document`. */
  readonly documentBase64: string;
}

/** Hashes and encodes the exact text to submit. */
export function hashDocument(text: string, format: 'XML' | 'JSON'): HashedDocument {
  const bytes = Buffer.from(text, 'utf8');
  const digest = createHash('sha256').update(bytes).digest();
  return { format, sha256Hex: digest.toString('hex'), sha256Base64: digest.toString('base64'), documentBase64: bytes.toString('base64') };
}
