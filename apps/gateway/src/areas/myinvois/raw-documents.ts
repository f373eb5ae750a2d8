import { createHash } from 'node:crypto';

/** A document's exact bytes, their media type, and the SHA-256 they are served with. */
export interface RawDocument {
  readonly contentType: string;
  readonly bytes: Buffer;
  /** Lower-case hex, the MyInvois `documentHash` form. */
  readonly sha256Hex: string;
}

/** The exact text as served: its UTF-8 bytes and their SHA-256. */
export function rawDocument(text: string, contentType: string): RawDocument {
  // UTF-8 bytes of the exact text: the bytes the MyInvois documentHash covers (hash.ts), never re-serialised.
  const bytes = Buffer.from(text, 'utf8');
  return { contentType, bytes, sha256Hex: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * Headers of a raw document: `Repr-Digest` (RFC 9530, `sha-256=:<base64>:`, the successor of
 * RFC 3230's `Digest`) for any HTTP client, and `X-Document-Hash` (lower-case hex) to compare with
 * MyInvois's `documentHash` as it is.
 */
export function digestHeaders(document: RawDocument): Record<string, string> {
  return {
    'content-type': document.contentType,
    'repr-digest': `sha-256=:${Buffer.from(document.sha256Hex, 'hex').toString('base64')}:`,
    'x-document-hash': document.sha256Hex,
  };
}
