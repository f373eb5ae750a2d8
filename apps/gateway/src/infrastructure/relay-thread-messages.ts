import type { EventText } from '@einvoice/domain/infrastructure';

/**
 * What the gateway tells its relay's thread (relay-thread.ts): drain now (after its commits, with
 * their events' data texts, event-texts.ts), or stop.
 */
export type ToRelayThread = { readonly type: 'wake'; readonly texts: readonly EventText[] } | { readonly type: 'stop' };

/** What the relay's thread tells the gateway: started (or why not), whether it leads, stopped. */
export type FromRelayThread =
  | { readonly type: 'started' }
  | { readonly type: 'failed'; readonly error: string }
  | { readonly type: 'leads'; readonly leads: boolean }
  | { readonly type: 'stopped' };
