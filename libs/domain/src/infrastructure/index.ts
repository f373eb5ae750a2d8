/**
 * The named infrastructure folder of libs/domain: the only place in the library that may use
 * typeorm, pg and kafkajs (module boundaries, eslint.config.mjs).
 */
export * from './config';
export * from './database';
export * from './eventstore';
export * from './outbox-publishing';
export * from './projections';
export * from './kafka';
export * from './runtime';
export * from './microservice';
export * from './webhooks';
export * from './secrets/sealed-redis-store';
export * from './plugins';
export * from './asyncapi';
export * from './jobs';
export * from './mail/captured-mails';
export * from './metrics';
export * from './tracing';
export * from './notifications/pg-listener';
export * from './received-documents';
export * from './feeds';
