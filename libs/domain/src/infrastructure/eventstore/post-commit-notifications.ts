import { ThrottledSignal } from './throttled-signal';

/**
 * The `pg_notify`s a process owes other processes after its commits (the outbox relays' wake-up, the
 * document outcomes the gateway waits on), sent outside any transaction, every channel and payload
 * of a burst of commits in one statement (ThrottledSignal).
 *
 * Why not NOTIFY inside the transaction: PostgreSQL takes a database-wide lock when a notifying
 * transaction commits and holds it through the commit's WAL flush, so notifying transactions commit
 * one at a time, each waiting for the previous one's fsync (issue 11: `Lock:object` was half a
 * backend on average under the MyInvois bulk load). Sent after the commit, a notification always
 * announces committed rows, as inside it; one lost to a crash in between is covered by each
 * listener's fallback (the relay polls, a waiter reads at its deadline).
 */
export class PostCommitNotifications {
  private pending = new Map<string, Set<string>>();
  private readonly signal: ThrottledSignal;

  constructor(send: (channels: string[], payloads: string[]) => Promise<void>, everyMs?: number) {
    this.signal = new ThrottledSignal(() => {
      const taken = this.pending;
      this.pending = new Map();
      const channels: string[] = [];
      const payloads: string[] = [];
      for (const [channel, set] of taken) {
        for (const payload of set) {
          channels.push(channel);
          payloads.push(payload);
        }
      }
      return channels.length ? send(channels, payloads) : Promise.resolve();
    }, everyMs);
  }

  /** Queues a notification of something committed; identical ones of a burst are sent once (as PostgreSQL folds them in a transaction). */
  add(channel: string, payload: string): void {
    const set = this.pending.get(channel) ?? new Set<string>();
    set.add(payload);
    this.pending.set(channel, set);
    this.signal.poke();
  }
}

/** The one statement sending a burst's notifications. */
export const NOTIFY_ALL_SQL = `SELECT pg_notify(n.channel, n.payload) FROM unnest($1::text[], $2::text[]) AS n(channel, payload)`;
