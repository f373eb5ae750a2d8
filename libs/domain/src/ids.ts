import { createHash, randomFillSync } from 'node:crypto';

/**
 * A UUID (version 8, RFC 9562 "custom") derived from a seed: a retried consumer that must name
 * something it creates (the receiver's copy of a document, an AS4 MessageId) gets the same
 * name every time, so the retry cannot create a second one.
 */
export function deterministicUuid(seed: string): string {
  const bytes = createHash('sha256').update(seed, 'utf8').digest().subarray(0, 16);
  return formatUuid(bytes, 0x80);
}

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. Ids made one after
 * the other sort together, so the B-tree indexes they key (events, outbox, processed marks,
 * documents) take new entries on their last pages instead of on random ones: fewer pages touched
 * and written in full after each checkpoint (issue 11). Still a UUID to every client.
 */
export function timeOrderedUuid(now = Date.now()): string {
  const bytes = Buffer.from(randomSlice());
  bytes.writeUIntBE(now, 0, 6);
  return formatUuid(bytes, 0x70);
}

/**
 * Random bytes for ids, drawn 4 KiB at a time (as node's randomUUID does): a `randomBytes(16)` per id
 * was one getrandom call each, 0.7% of the gateway's CPU under the accept load (issue 11 profile).
 */
const RANDOM_POOL = Buffer.alloc(4096);
let randomOffset = RANDOM_POOL.length;

function randomSlice(): Buffer {
  if (randomOffset + 16 > RANDOM_POOL.length) {
    randomFillSync(RANDOM_POOL);
    randomOffset = 0;
  }
  randomOffset += 16;
  return RANDOM_POOL.subarray(randomOffset - 16, randomOffset);
}

/** 16 bytes as a UUID string, with the version nibble (`0x70`, `0x80`) and the RFC 9562 variant set. */
function formatUuid(bytes: Buffer, version: number): string {
  bytes[6] = (bytes[6] & 0x0f) | version;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
