import type { EventText } from '@einvoice/domain/infrastructure';

/**
 * What the gateway tells its relay's thread (relay-thread.ts): the data texts of events being
 * committed (event-texts.ts), drain now (after its commits), or stop.
 */
export type ToRelayThread = { readonly type: 'texts'; readonly texts: readonly EventText[] } | { readonly type: 'wake' } | { readonly type: 'stop' };

/** What the relay's thread tells the gateway: started (or why not), whether it leads, stopped. */
export type FromRelayThread =
  | { readonly type: 'started' }
  | { readonly type: 'failed'; readonly error: string }
  | { readonly type: 'leads'; readonly leads: boolean }
  | { readonly type: 'stopped' };

/** What the relay's thread is started with (its `workerData`): the name its process's outbox rows give it (OutboxRelay `textsHolder`). */
export interface RelayThreadData {
  readonly textsHolder: string;
}
