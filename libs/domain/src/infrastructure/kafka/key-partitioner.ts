import { randomInt } from 'node:crypto';
import type { ICustomPartitioner } from 'kafkajs';

const SEED = 0x9747b28c;
const M = 0x5bd1e995;
/** A key's UTF-8 bytes are written here rather than into a new Buffer per message; a longer key gets its own. */
const scratch = Buffer.allocUnsafe(1024);

/**
 * The Java client's murmur2 (`org.apache.kafka.common.utils.Utils.murmur2`) of a key's UTF-8 bytes,
 * in 32-bit integers as Java computes it. kafkajs 2.2.4 computes the same hash with its emulated 64-bit
 * `Long`, an object allocated per multiply: ~11% of the outbox relay's thread under the submission
 * load (`BENCH_CPU_PROF=gateway`, issue 11), for ~45 bytes a key. Only the low 32 bits of its products
 * ever reach the result, and they are what `Math.imul` gives.
 */
export function murmur2(key: Buffer | string): number {
  let data: Buffer;
  let length: number;
  if (Buffer.isBuffer(key)) {
    data = key;
    length = key.length;
  } else if (key.length * 3 <= scratch.length) {
    data = scratch;
    length = scratch.write(key, 'utf8');
  } else {
    data = Buffer.from(key, 'utf8');
    length = data.length;
  }
  let h = (SEED ^ length) | 0;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  // The last 1-3 bytes (Java's switch that falls through).
  const rest = length & 3;
  if (rest > 0) {
    if (rest === 3) h ^= data[whole + 2] << 16;
    if (rest >= 2) h ^= data[whole + 1] << 8;
    h ^= data[whole];
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

const toPositive = (n: number) => n & 0x7fffffff;

/**
 * kafkajs's DefaultPartitioner (the Java client's choice) with the murmur2 above: a message's own
 * partition if it names one; else its key's murmur2, made positive, modulo the topic's partitions
 * (so every producer, this one or another client, puts a stream's events in one partition); else the
 * next available partition, round robin from a random start per topic.
 */
export const keyPartitioner: ICustomPartitioner = () => {
  const counters = new Map<string, number>();
  const next = (topic: string) => {
    const n = (counters.get(topic) ?? randomInt(2 ** 32 - 1)) + 1;
    counters.set(topic, n);
    return toPositive(n);
  };
  return ({ topic, partitionMetadata, message }) => {
    if (message.partition !== null && message.partition !== undefined) return message.partition;
    if (message.key !== null && message.key !== undefined) return toPositive(murmur2(message.key)) % partitionMetadata.length;
    const available = partitionMetadata.filter((p) => p.leader >= 0);
    if (available.length > 0) return available[next(topic) % available.length].partitionId;
    return next(topic) % partitionMetadata.length;
  };
};
