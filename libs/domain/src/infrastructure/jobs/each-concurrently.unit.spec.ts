import { eachConcurrently } from './each-concurrently';

describe('eachConcurrently', () => {
  it('does every item, never more than `limit` at once, and uses all `limit` lanes', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await eachConcurrently([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      done.push(item);
      running -= 1;
    });
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('does nothing for no items, and one at a time for a limit below 1', async () => {
    await eachConcurrently([], 4, async () => {
      throw new Error('not called');
    });
    const order: number[] = [];
    await eachConcurrently([1, 2], 0, async (item) => {
      order.push(item);
    });
    expect(order).toEqual([1, 2]);
  });
});
