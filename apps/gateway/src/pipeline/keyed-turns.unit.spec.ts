import { KeyedTurns } from './keyed-turns';

describe('KeyedTurns', () => {
  it('runs the work of one key one at a time, in arrival order; other keys run alongside', async () => {
    const turns = new KeyedTurns();
    const log: string[] = [];
    let releaseFirst!: () => void;
    const first = turns.inTurn('a', async () => {
      log.push('a1 start');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      log.push('a1 end');
    });
    const second = turns.inTurn('a', async () => {
      log.push('a2');
      return 2;
    });
    const other = turns.inTurn('b', async () => {
      log.push('b1');
    });
    await other;
    expect(log).toEqual(['a1 start', 'b1']);
    releaseFirst();
    await first;
    expect(await second).toBe(2);
    expect(log).toEqual(['a1 start', 'b1', 'a1 end', 'a2']);
    expect(turns.size).toBe(0);
  });

  it('a failing turn passes the turn on', async () => {
    const turns = new KeyedTurns();
    await expect(turns.inTurn('a', async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    await expect(turns.inTurn('a', async () => 'next')).resolves.toBe('next');
    expect(turns.size).toBe(0);
  });
});
