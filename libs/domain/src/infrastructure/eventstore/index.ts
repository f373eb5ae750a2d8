export * from './event-store';
export * from './unit-of-work';
export * from './outbox-relay';
export type { EventText, EventTextsHolder } from './event-texts';
export { parkedOutboxRows, releaseParkedRows, type ParkedOutboxRow } from './outbox-rows';
export * from './handle-command';
export * from './retention';
