import type { ChannelSubscriber, PgNotifications } from '../infrastructure/pg-notifications';
import { OutcomeWaiter } from './outcome-waiter';

/** The LISTEN connection's side, driven by the test: what PgNotifications hands its subscribers. */
function notifications() {
  let subscriber: ChannelSubscriber | undefined;
  const source = { subscribe: (_channel: string, s: ChannelSubscriber) => void (subscriber = s) } as unknown as PgNotifications;
  return { source, notify: (id: string) => subscriber?.notified(id) };
}

describe('OutcomeWaiter.waitForAll', () => {
  it('reads the open documents together, again on each notification, until all are answered', async () => {
    const { source, notify } = notifications();
    const waiter = new OutcomeWaiter(source);
    const states = new Map([['a', 'pending'], ['b', 'pending'], ['c', 'reported']]);
    const reads: string[][] = [];
    let read!: () => void;
    let firstRead = new Promise<void>((resolve) => (read = resolve));
    const waiting = waiter.waitForAll(['a', 'b', 'c'], 60_000, async (open) => {
      reads.push([...open]);
      read();
      return new Map(open.map((id) => [id, states.get(id) as string]));
    }, (state) => state !== 'pending');
    await firstRead;
    firstRead = new Promise<void>((resolve) => (read = resolve));
    states.set('a', 'reported');
    notify('a');
    await firstRead;
    states.set('b', 'rejected');
    notify('b');
    expect(await waiting).toEqual(new Map([['a', 'reported'], ['b', 'rejected'], ['c', 'reported']]));
    // Every read asks only for what is still open; the answered one (c) is never read again.
    expect(reads).toEqual([['a', 'b', 'c'], ['a', 'b'], ['b']]);
  });

  it('answers what it last read when time runs out', async () => {
    const { source } = notifications();
    const waiter = new OutcomeWaiter(source);
    const rows = await waiter.waitForAll(['a', 'b'], 20, async (open) => new Map(open.filter((id) => id === 'a').map((id) => [id, 'pending'])), () => false);
    expect(rows).toEqual(new Map([['a', 'pending']]));
  });
});
