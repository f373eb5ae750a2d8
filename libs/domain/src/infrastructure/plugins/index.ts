export * from './event-registry';
export * from './typeorm-migration';
