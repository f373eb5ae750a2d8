import { randomBytes } from 'node:crypto';
import { crc32c } from './crc32c';

// kafkajs's own, byte at a time: what the broker checks a record batch against.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const kafkajsCrc32c = require('kafkajs/src/protocol/recordBatch/crc32C') as (bytes: Buffer) => number;

describe('#11 CRC-32C eight bytes at a time', () => {
  it('gives the check value of CRC-32C for "123456789"', () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
    expect(crc32c(Buffer.alloc(0))).toBe(0);
  });

  it('gives kafkajs\'s value for every length around the eight-byte words, and for a submission-sized batch', () => {
    for (let length = 0; length <= 70; length++) {
      const bytes = randomBytes(length);
      expect(crc32c(bytes)).toBe(kafkajsCrc32c(bytes));
    }
    const batch = randomBytes(6_203);
    expect(crc32c(batch)).toBe(kafkajsCrc32c(batch));
    const ones = Buffer.alloc(4_096, 0xff);
    expect(crc32c(ones)).toBe(kafkajsCrc32c(ones));
  });
});
