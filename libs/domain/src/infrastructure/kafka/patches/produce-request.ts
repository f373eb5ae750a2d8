// kafkajs 2.2.4 encodes a produce request as a chain of growing buffers: each record, each header
// of it, the batch, the batch again with its checksum, the partition, the topic, the request; each
// link copies everything before it into a new zero-filled buffer, after having doubled its own
// buffer (copying again) as it grew. On the outbox relay's thread under the bench's accept load that
// was a quarter of its work (issue 11: allocations 805 ms, copies 405 ms, writes ~700 ms of 6.4 s),
// for one ~6 KB message per submission. This module writes the same bytes (Produce v3, record batch
// v2 without compression) into one buffer sized beforehand, with its checksum (crc32c.ts).
// It takes the place of kafkajs's v3 request module (v4 to v7 are that module with their version
// number), loaded with the first produce request (kafkajs-internals.ts).
import { crc32c } from './crc32c';
import { replaceLazyKafkajsModule } from './kafkajs-internals';

/** kafkajs's message as its producer hands it to the request (key, value and header values: string or Buffer). */
interface ProduceMessage {
  readonly key?: Buffer | string | null;
  readonly value: Buffer | string | null;
  readonly headers?: Record<string, Buffer | string | null | ReadonlyArray<Buffer | string | null>>;
  readonly timestamp?: string | number;
}

interface PartitionData {
  readonly partition: number;
  readonly firstSequence?: number;
  readonly messages: readonly ProduceMessage[];
}

/** What kafkajs's produce protocol passes to the v3 request (requests/produce/index.js). */
export interface ProduceRequestArgs {
  readonly acks: number;
  readonly timeout: number;
  readonly transactionalId?: string | null;
  /** kafkajs's Long (utils/long.js), a number or a string. */
  readonly producerId?: unknown;
  readonly producerEpoch?: number;
  /** kafkajs's compression type: this module writes uncompressed batches only (0). */
  readonly compression?: number;
  readonly topicData: ReadonlyArray<{ readonly topic: string; readonly partitions: readonly PartitionData[] }>;
}

/** kafkajs's 64-bit integer (its utils/long.js: a BigInt inside). */
interface KafkaLong {
  readonly value: bigint;
}
interface LongModule {
  fromValue(value: unknown): KafkaLong;
  fromInt(value: number): KafkaLong;
}

/** A field value as bytes: its length (-1 for null) and what to write. */
interface Bytes {
  readonly length: number;
  readonly value: Buffer | string | null;
}

interface EncodedRecord {
  readonly bodySize: number;
  readonly timestampDelta: bigint;
  readonly offsetDelta: number;
  readonly key: Bytes;
  readonly value: Bytes;
  readonly headers: ReadonlyArray<{ readonly key: Bytes; readonly value: Bytes }>;
}

interface EncodedPartition {
  readonly partition: number;
  readonly firstTimestamp: bigint;
  readonly maxTimestamp: bigint;
  readonly firstSequence: number;
  readonly records: readonly EncodedRecord[];
  /** The record batch from its attributes to its last record: what the checksum covers. */
  readonly bodySize: number;
}

function bytesOf(value: Buffer | string | null | undefined): Bytes {
  if (value == null) return { length: -1, value: null };
  if (Buffer.isBuffer(value)) return { length: value.length, value };
  const text = String(value);
  return { length: Buffer.byteLength(text), value: text };
}

const zigZag32 = (value: number): number => ((value << 1) ^ (value >> 31)) >>> 0;
const zigZag64 = (value: bigint): bigint => BigInt.asUintN(64, (value << 1n) ^ (value >> 63n));

function sizeOfUVarInt(value: number): number {
  let bytes = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 128);
    bytes += 1;
  }
  return bytes;
}

function sizeOfUVarLong(value: bigint): number {
  let bytes = 1;
  while (value >= 0x80n) {
    value >>= 7n;
    bytes += 1;
  }
  return bytes;
}

const sizeOfVarIntBytes = (bytes: Bytes): number => sizeOfUVarInt(zigZag32(bytes.length)) + Math.max(bytes.length, 0);

/** Writes into one buffer, front to back. */
class Writer {
  offset = 0;
  constructor(readonly buf: Buffer) {}

  int8(value: number): void {
    this.buf.writeInt8(value, this.offset);
    this.offset += 1;
  }
  int16(value: number): void {
    this.buf.writeInt16BE(value, this.offset);
    this.offset += 2;
  }
  int32(value: number): void {
    this.buf.writeInt32BE(value, this.offset);
    this.offset += 4;
  }
  int64(value: bigint): void {
    this.buf.writeBigInt64BE(BigInt.asIntN(64, value), this.offset);
    this.offset += 8;
  }
  uVarInt(value: number): void {
    while (value >= 0x80) {
      this.buf[this.offset++] = (value & 0x7f) | 0x80;
      value = Math.floor(value / 128);
    }
    this.buf[this.offset++] = value;
  }
  uVarLong(value: bigint): void {
    while (value >= 0x80n) {
      this.buf[this.offset++] = Number(value & 0x7fn) | 0x80;
      value >>= 7n;
    }
    this.buf[this.offset++] = Number(value);
  }
  /** int16 length (-1 for null) and the string's UTF-8. */
  string(value: string | null | undefined): void {
    if (value == null) return this.int16(-1);
    const length = Buffer.byteLength(value);
    this.int16(length);
    this.raw({ length, value });
  }
  /** Varint length (-1 for null) and the bytes. */
  varIntBytes(bytes: Bytes): void {
    this.uVarInt(zigZag32(bytes.length));
    this.raw(bytes);
  }
  private raw(bytes: Bytes): void {
    if (bytes.value === null) return;
    if (typeof bytes.value === 'string') this.buf.write(bytes.value, this.offset, bytes.length, 'utf8');
    else bytes.value.copy(this.buf, this.offset);
    this.offset += bytes.length;
  }
}

/** Record batch v2's fixed part before its records: attributes .. first sequence, and the record count. */
const BATCH_BODY_HEADER = 2 + 4 + 8 + 8 + 8 + 2 + 4 + 4;
/** A partition's entry before its batch body: partition, batch size, first offset, batch length, leader epoch, magic, CRC. */
const PARTITION_HEADER = 4 + 4 + 8 + 4 + 4 + 1 + 4;

function encodeRecords(Long: LongModule, data: PartitionData): EncodedPartition {
  const dateNow = Date.now();
  // As kafkajs does (requests/produce/v3/request.js), its sort of the given timestamps included.
  const given = data.messages
    .map((m) => m.timestamp)
    .filter((t) => t != null)
    .sort();
  const timestamps = given.length === 0 ? [dateNow] : given;
  const firstTimestamp = timestamps[0] as string | number;
  const maxTimestamp = timestamps[timestamps.length - 1] as string | number;
  let bodySize = BATCH_BODY_HEADER;
  const records = data.messages.map((message, offsetDelta): EncodedRecord => {
    // kafkajs's arithmetic: a given timestamp (a string, per its types) minus the first one.
    const timestampDelta = Long.fromValue(Number(message.timestamp || dateNow) - Number(firstTimestamp)).value;
    const key = bytesOf(message.key);
    const value = bytesOf(message.value);
    const headers = Object.entries(message.headers ?? {}).flatMap(([name, header]) =>
      (Array.isArray(header) ? (header as ReadonlyArray<Buffer | string | null>) : [header as Buffer | string | null]).map((v) => ({ key: bytesOf(name), value: bytesOf(v) })),
    );
    let recordBody =
      1 + sizeOfUVarLong(zigZag64(timestampDelta)) + sizeOfUVarInt(zigZag32(offsetDelta)) + sizeOfVarIntBytes(key) + sizeOfVarIntBytes(value) + sizeOfUVarInt(zigZag32(headers.length));
    for (const header of headers) recordBody += sizeOfVarIntBytes(header.key) + sizeOfVarIntBytes(header.value);
    bodySize += sizeOfUVarInt(zigZag32(recordBody)) + recordBody;
    return { bodySize: recordBody, timestampDelta, offsetDelta, key, value, headers };
  });
  return {
    partition: data.partition,
    firstTimestamp: Long.fromValue(firstTimestamp).value,
    maxTimestamp: Long.fromValue(maxTimestamp).value,
    firstSequence: data.firstSequence ?? 0,
    records,
    bodySize,
  };
}

function writePartition(out: Writer, partition: EncodedPartition, args: ProduceRequestArgs, producerId: bigint): void {
  const batchLength = 4 + 1 + 4 + partition.bodySize;
  out.int32(partition.partition);
  out.int32(8 + 4 + batchLength);
  out.int64(0n); // first offset
  out.int32(batchLength);
  out.int32(0); // partition leader epoch
  out.int8(2); // magic: record batch v2
  const crcAt = out.offset;
  out.int32(0); // the checksum, written once the body is
  const bodyAt = out.offset;
  out.int16(args.transactionalId ? 16 : 0); // attributes: no compression, create time, transactional bit
  out.int32(partition.records.length - 1); // last offset delta
  out.int64(partition.firstTimestamp);
  out.int64(partition.maxTimestamp);
  out.int64(producerId);
  out.int16(args.producerEpoch ?? 0);
  out.int32(partition.firstSequence);
  out.int32(partition.records.length);
  for (const record of partition.records) {
    out.uVarInt(zigZag32(record.bodySize));
    out.int8(0); // record attributes
    out.uVarLong(zigZag64(record.timestampDelta));
    out.uVarInt(zigZag32(record.offsetDelta));
    out.varIntBytes(record.key);
    out.varIntBytes(record.value);
    out.uVarInt(zigZag32(record.headers.length));
    for (const header of record.headers) {
      out.varIntBytes(header.key);
      out.varIntBytes(header.value);
    }
  }
  out.buf.writeUInt32BE(crc32c(out.buf.subarray(bodyAt, out.offset)), crcAt);
}

/**
 * The body of a Produce request (v3 to v7: the same fields) as kafkajs writes it, byte for byte,
 * for uncompressed batches of at least one message; `undefined` for anything else (kafkajs's own
 * encoder then writes it).
 */
export function encodeProduceRequest(Long: LongModule, args: ProduceRequestArgs): Buffer | undefined {
  if ((args.compression ?? 0) !== 0) return undefined;
  if (args.topicData.some((t) => t.partitions.some((p) => p.messages.length === 0))) return undefined;
  const producerId = Long.fromValue(args.producerId ?? Long.fromInt(-1)).value;
  const topics = args.topicData.map((t) => ({ topic: t.topic, partitions: t.partitions.map((p) => encodeRecords(Long, p)) }));
  let size = 2 + (args.transactionalId == null ? 0 : Buffer.byteLength(args.transactionalId)) + 2 + 4 + 4;
  for (const t of topics) {
    size += 2 + Buffer.byteLength(t.topic) + 4;
    for (const p of t.partitions) size += PARTITION_HEADER + p.bodySize;
  }
  const out = new Writer(Buffer.allocUnsafe(size));
  out.string(args.transactionalId);
  out.int16(args.acks);
  out.int32(args.timeout);
  out.int32(topics.length);
  for (const t of topics) {
    out.string(t.topic);
    out.int32(t.partitions.length);
    for (const p of t.partitions) writePartition(out, p, args, producerId);
  }
  if (out.offset !== size) throw new Error(`produce request: wrote ${out.offset} bytes, sized ${size}`);
  return out.buf;
}

/** kafkajs's v3 request module: its arguments to the request's description (apiKey, encode...). */
type RequestModule = (args: ProduceRequestArgs) => { encode: () => Promise<unknown> };

/** kafkajs's v3 request with `encode` writing through encodeProduceRequest, else through kafkajs's own. */
export function singlePassProduceRequest(original: RequestModule, Long: LongModule, Encoder: new (size?: number) => { buf: Buffer; offset: number }): RequestModule {
  return (args) => {
    const request = original(args);
    return {
      ...request,
      encode: async () => {
        const buf = encodeProduceRequest(Long, args);
        if (!buf) return request.encode();
        // The envelope (protocol/request.js) takes an Encoder and reads its `buf` up to `offset`.
        const encoder = new Encoder(0);
        encoder.buf = buf;
        encoder.offset = buf.length;
        return encoder;
      },
    };
  };
}

/**
 * Puts singlePassProduceRequest in place of kafkajs's v3 produce request module: before kafkajs
 * first loads it (its first produce request), for kafkajs 2.2.4, whose bytes it was checked against
 * (produce-request.unit.spec.ts). False (kafkajs's own encoder stays) otherwise, and under a
 * module system without Node's cache (jest's).
 */
export function useSinglePassProduceRequests(): boolean {
  return replaceLazyKafkajsModule('src/protocol/requests/produce/v3/request', ['src/protocol/requests/produce/v4/request'], (original) => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const Long = require('kafkajs/src/utils/long') as LongModule;
    const Encoder = require('kafkajs/src/protocol/encoder') as new (size?: number) => { buf: Buffer; offset: number };
    /* eslint-enable @typescript-eslint/no-require-imports */
    return singlePassProduceRequest(original as RequestModule, Long, Encoder);
  });
}
