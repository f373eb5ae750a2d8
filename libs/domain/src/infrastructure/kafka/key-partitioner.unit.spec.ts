import { randomBytes, randomInt } from 'node:crypto';
import type { PartitionMetadata } from 'kafkajs';
import { keyPartitioner, murmur2 } from './key-partitioner';

// kafkajs's own: the hash and the partitioner this module stands in for.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const kafkajsMurmur2 = require('kafkajs/src/producer/partitioners/default/murmur2') as (key: Buffer | string) => number;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { DefaultPartitioner } = require('kafkajs').Partitioners as { DefaultPartitioner: typeof keyPartitioner };

const partitions = (n: number, leaderless: number[] = []): PartitionMetadata[] =>
  Array.from({ length: n }, (_, partitionId) => ({ partitionId, leader: leaderless.includes(partitionId) ? -1 : 0, partitionErrorCode: 0, replicas: [0], isr: [0] }));

describe('#11 the producer\'s partitioner: the Java client\'s murmur2 in 32-bit integers', () => {
  it('hashes as the Java client does (Kafka\'s own UtilsTest cases)', () => {
    const cases: Array<[string, number]> = [
      ['21', -973932308],
      ['foobar', -790332482],
      ['a-little-bit-long-string', -985981536],
      ['a-little-bit-longer-string', -1486304829],
      ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
      ['abc', 479470107],
    ];
    expect(cases.map(([key]) => murmur2(key))).toEqual(cases.map(([, hash]) => hash));
  });

  it('hashes every key as kafkajs does: text of every length and script, long text, bytes', () => {
    const keys: Array<string | Buffer> = ['', 'document-0190f0e0-0000-7000-8000-000000000000', 'ä€😀 mixed', 'x'.repeat(2_000), 'é'.repeat(400)];
    for (let n = 0; n < 300; n++) {
      keys.push(randomBytes(randomInt(0, 80)).toString('base64'));
      keys.push(randomBytes(randomInt(0, 80)));
      keys.push(String.fromCodePoint(...Array.from({ length: randomInt(0, 20) }, () => randomInt(0x20, 0x2ffff))));
    }
    expect(keys.map((key) => murmur2(key))).toEqual(keys.map((key) => kafkajsMurmur2(key)));
  });

  it('chooses the partition kafkajs\'s DefaultPartitioner chooses for a key, and a message\'s own partition when it names one', () => {
    const ours = keyPartitioner();
    const theirs = DefaultPartitioner();
    for (const count of [1, 3, 6, 7]) {
      const partitionMetadata = partitions(count);
      for (let n = 0; n < 200; n++) {
        const message = { key: `document-${randomBytes(16).toString('hex')}`, value: null };
        expect(ours({ topic: 't', partitionMetadata, message })).toBe(theirs({ topic: 't', partitionMetadata, message }));
      }
    }
    expect(ours({ topic: 't', partitionMetadata: partitions(6), message: { key: 'k', value: null, partition: 4 } })).toBe(4);
  });

  it('spreads messages without a key over the partitions that have a leader, in turn', () => {
    const choose = keyPartitioner();
    const partitionMetadata = partitions(4, [1]);
    const chosen = Array.from({ length: 6 }, () => choose({ topic: 't', partitionMetadata, message: { value: 'v' } }));
    expect(new Set(chosen)).toEqual(new Set([0, 2, 3]));
    expect(chosen.slice(0, 3).sort()).toEqual(chosen.slice(3).sort());
  });
});
