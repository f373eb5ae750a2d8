export * from './event-store';
export * from './unit-of-work';
export * from './outbox-relay';
export * from './handle-command';
