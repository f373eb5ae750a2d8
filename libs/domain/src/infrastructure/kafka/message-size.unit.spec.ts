import { CompressionTypes } from 'kafkajs';
import { COMPRESS_FROM_BYTES, compressionFor, isRefusedByBroker } from './message-size';

describe('compressionFor', () => {
  it('compresses batches that carry a large message only', () => {
    expect(compressionFor(COMPRESS_FROM_BYTES - 1)).toBe(CompressionTypes.None);
    expect(compressionFor(COMPRESS_FROM_BYTES)).toBe(CompressionTypes.GZIP);
  });
});

// Shaped as kafkajs's errors: KafkaJSProtocolError carries the broker's `type`; its retrier
// rejects with a KafkaJSNonRetriableError whose `cause` is that error (kafkajs/src/retry/index.js).
const protocolError = (type: string, retriable: boolean) => Object.assign(new Error(type), { name: 'KafkaJSProtocolError', type, retriable });
const wrapped = (cause: Error) => Object.assign(new Error(cause.message), { name: 'KafkaJSNonRetriableError', retriable: false, cause });

describe('isRefusedByBroker', () => {
  it('recognises a refusal, also wrapped as kafkajs throws it', () => {
    expect(isRefusedByBroker(protocolError('MESSAGE_TOO_LARGE', false))).toBe(true);
    expect(isRefusedByBroker(wrapped(protocolError('MESSAGE_TOO_LARGE', false)))).toBe(true);
    expect(isRefusedByBroker({ name: 'KafkaJSAggregateError', errors: [protocolError('RECORD_LIST_TOO_LARGE', false)] })).toBe(true);
  });

  it('does not take an outage or a busy broker for a refusal', () => {
    expect(isRefusedByBroker(wrapped(protocolError('NOT_LEADER_FOR_PARTITION', true)))).toBe(false);
    expect(isRefusedByBroker(new Error('Connection error: connect ECONNREFUSED 127.0.0.1:9092'))).toBe(false);
    expect(isRefusedByBroker(undefined)).toBe(false);
  });
});
