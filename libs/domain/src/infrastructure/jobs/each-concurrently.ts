/**
 * Runs `work` for every item, at most `limit` at a time, and resolves once all are done (a rejection
 * is the caller's to avoid: `work` handles its own errors). For the periodic jobs whose items wait on
 * the network and on commits (an authority's answer, a WAL flush): one at a time, a round of a hundred
 * takes a hundred round trips end to end.
 */
export async function eachConcurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, lane));
}
