import { encodeProduceRequest, singlePassProduceRequest, type ProduceRequestArgs } from './produce-request';

// kafkajs's own: what the broker has been reading from us (requests/produce/v3/request.js and the envelope).
/* eslint-disable @typescript-eslint/no-require-imports */
const kafkajsRequest = require('kafkajs/src/protocol/requests/produce/v3/request') as (args: ProduceRequestArgs) => { encode: () => Promise<{ buffer: Buffer }> };
const envelope = require('kafkajs/src/protocol/request') as (args: { correlationId: number; clientId: string; request: unknown }) => Promise<{ buffer: Buffer }>;
const Long = require('kafkajs/src/utils/long');
const Encoder = require('kafkajs/src/protocol/encoder');
/* eslint-enable @typescript-eslint/no-require-imports */

const kafkajsBytes = async (args: ProduceRequestArgs) => (await kafkajsRequest(args).encode()).buffer;

const submission = (i: number) => ({
  key: `document-${i}`,
  value: JSON.stringify({ eventId: `e-${i}`, data: { xml: '<Invoice>é€😀</Invoice>'.repeat(200 + i) } }),
  headers: { 'x-event-id': `e-${i}`, 'x-event-type': 'DocumentSubmitted', 'x-area': 'be', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
});

describe('#11 produce requests written in one pass', () => {
  beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(1_795_958_745_155));
  afterEach(() => jest.restoreAllMocks());

  it('writes the bytes kafkajs writes for the relay\'s batches: several topics and partitions, multi-byte text, headers', async () => {
    const args: ProduceRequestArgs = {
      acks: -1,
      timeout: 30_000,
      topicData: [
        { topic: 'einvoice.documents', partitions: [{ partition: 0, messages: [0, 1, 2].map(submission) }, { partition: 5, messages: [submission(3)] }] },
        { topic: 'einvoice.received', partitions: [{ partition: 2, messages: Array.from({ length: 130 }, (_, i) => submission(10 + i)) }] },
      ],
    };
    // Undefined (left to kafkajs) fails this as different bytes would.
    expect(encodeProduceRequest(Long, args)?.equals(await kafkajsBytes(args))).toBe(true);
  });

  it('writes what kafkajs writes for null keys and values, Buffers, repeated headers, given timestamps and an idempotent producer', async () => {
    const args: ProduceRequestArgs = {
      acks: 1,
      timeout: 5_000,
      transactionalId: 'relay-tx',
      producerId: Long.fromValue(4_242),
      producerEpoch: 3,
      topicData: [
        {
          topic: 't',
          partitions: [
            {
              partition: 1,
              firstSequence: 77,
              messages: [
                { key: null, value: null, timestamp: '1795958745000' },
                { key: Buffer.from([0, 1, 2, 255]), value: Buffer.alloc(300, 7), headers: { a: ['1', '2'], b: Buffer.from('x') }, timestamp: '1795958740000' },
                { value: 'v'.repeat(70_000), headers: {} },
              ],
            },
          ],
        },
      ],
    };
    expect(encodeProduceRequest(Long, args)?.equals(await kafkajsBytes(args))).toBe(true);
  });

  it('leaves compressed batches and empty partitions to kafkajs', () => {
    expect(encodeProduceRequest(Long, { acks: -1, timeout: 1, compression: 1, topicData: [{ topic: 't', partitions: [{ partition: 0, messages: [submission(1)] }] }] })).toBeUndefined();
    expect(encodeProduceRequest(Long, { acks: -1, timeout: 1, topicData: [{ topic: 't', partitions: [{ partition: 0, messages: [] }] }] })).toBeUndefined();
  });

  it('hands kafkajs\'s envelope an Encoder of those bytes: the request on the wire is the same', async () => {
    const args: ProduceRequestArgs = { acks: -1, timeout: 30_000, topicData: [{ topic: 'einvoice.documents', partitions: [{ partition: 0, messages: [0, 1].map(submission) }] }] };
    const request = singlePassProduceRequest(kafkajsRequest, Long, Encoder)(args);
    const original = kafkajsRequest(args);
    expect(Object.keys(request).sort()).toEqual(Object.keys(original).sort());
    const wire = await envelope({ correlationId: 7, clientId: 'einvoice-gateway', request });
    expect(wire.buffer.equals((await envelope({ correlationId: 7, clientId: 'einvoice-gateway', request: original })).buffer)).toBe(true);
  });
});
