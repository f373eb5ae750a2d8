export * from './event-store';
export * from './unit-of-work';
export * from './outbox-relay';
export type { EventText } from './event-texts';
export { parkedOutboxRows, releaseParkedRows, type ParkedOutboxRow } from './outbox-rows';
export * from './handle-command';
export * from './retention';
