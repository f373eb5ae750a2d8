import type { EventText } from '../eventstore';

/**
 * What an app tells its relay's thread (relay-thread-main.ts): the data texts of events being
 * committed (event-texts.ts), drain now (after its commits), or stop.
 */
export type ToRelayThread = { readonly type: 'texts'; readonly texts: readonly EventText[] } | { readonly type: 'wake' } | { readonly type: 'stop' };

/** What the relay's thread tells its app: started (or why not), whether it leads, stopped. */
export type FromRelayThread =
  | { readonly type: 'started' }
  | { readonly type: 'failed'; readonly error: string }
  | { readonly type: 'leads'; readonly leads: boolean }
  | { readonly type: 'stopped' };

/** What the relay's thread is started with (its `workerData`). */
export interface RelayThreadData {
  /** The name its process's outbox rows give it (OutboxRelay `textsHolder`). */
  readonly textsHolder: string;
  /** Whether it stands in (a worker's relay) or leads first (a gateway's): relay-lease.ts. */
  readonly standIn: boolean;
}
