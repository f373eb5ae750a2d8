import { createHash } from 'node:crypto';

/**
 * A UUID (version 8, RFC 9562 "custom") derived from a seed: a retried consumer that must name
 * something it creates (the receiver's copy of a document, an AS4 MessageId) gets the same
 * name every time, so the retry cannot create a second one.
 */
export function deterministicUuid(seed: string): string {
  const bytes = createHash('sha256').update(seed, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x80;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
