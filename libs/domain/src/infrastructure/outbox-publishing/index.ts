export { OutboxPublishing, type OutboxPublishingOptions } from './outbox-publishing';
export { RelayThread, compiledThreadEntry, type RelayRunner, type RelayThreadOptions } from './relay-on-thread';
export { runRelayThread } from './relay-thread-main';
export type { FromRelayThread, RelayThreadData, ToRelayThread } from './relay-thread-messages';
