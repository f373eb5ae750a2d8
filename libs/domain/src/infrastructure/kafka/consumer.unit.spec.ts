import type { KafkaMessage } from 'kafkajs';
import { DonePrefix } from './consumer';

const batch = (...offsets: string[]) => offsets.map((offset) => ({ offset }) as KafkaMessage);

describe('DonePrefix: the offset up to which a batch is done, while its keys finish in any order', () => {
  it('moves only when every message before is done, to the last of the done run', () => {
    const done = new DonePrefix(batch('10', '11', '12', '13', '14'));
    expect(done.markDone('11')).toBeUndefined();
    expect(done.markDone('13')).toBeUndefined();
    expect(done.markDone('10')).toBe('11');
    expect(done.markDone('12')).toBe('13');
    expect(done.markDone('14')).toBe('14');
  });

  it('keeps the offsets of the batch, gaps included (compacted or filtered messages)', () => {
    const done = new DonePrefix(batch('3', '7', '8'));
    expect(done.markDone('7')).toBeUndefined();
    expect(done.markDone('3')).toBe('7');
    expect(done.markDone('8')).toBe('8');
  });
});
