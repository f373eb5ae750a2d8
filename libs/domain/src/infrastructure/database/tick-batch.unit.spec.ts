import { TickBatch } from './tick-batch';

describe('TickBatch', () => {
  it('answers the questions of one turn with one load, each its own answer', async () => {
    const loads: number[][] = [];
    const batch = new TickBatch<number, number>(async (questions) => (loads.push([...questions]), questions.map((q) => q * 10)));
    await expect(Promise.all([1, 2, 3].map((q) => batch.ask(q)))).resolves.toEqual([10, 20, 30]);
    await expect(batch.ask(4)).resolves.toBe(40);
    expect(loads).toEqual([[1, 2, 3], [4]]);
  });

  it('loads at most maxBatch questions at once', async () => {
    const loads: number[][] = [];
    const batch = new TickBatch<number, number>(async (questions) => (loads.push([...questions]), [...questions]), 2);
    await Promise.all([1, 2, 3, 4, 5].map((q) => batch.ask(q)));
    expect(loads).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('asks again alone when a load of several fails, so only the bad question fails', async () => {
    const batch = new TickBatch<number, number>(async (questions) => {
      if (questions.includes(2)) throw new Error('bad question');
      return [...questions];
    });
    const answers = await Promise.allSettled([1, 2, 3].map((q) => batch.ask(q)));
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((answers[1] as PromiseRejectedResult).reason).toEqual(new Error('bad question'));
  });

  it('asks each question again alone when the load answers the wrong number of them', async () => {
    const batch = new TickBatch<number, number>(async () => [1]);
    await expect(batch.ask(1)).resolves.toBe(1);
    const answers = await Promise.allSettled([1, 2].map((q) => batch.ask(q)));
    // Alone, each gets the one answer: the retry of each question is its own load.
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled']);
  });
});
