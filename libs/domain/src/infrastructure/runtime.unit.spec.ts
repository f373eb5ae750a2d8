import { workerConfig } from './runtime';

describe('workerConfig', () => {
  const env = { DATABASE_URL: 'postgres://x@127.0.0.1/x' };

  it('#11 a worker\'s own handler concurrency where the environment says nothing, the platform\'s where it has none', () => {
    expect(workerConfig(env, { handlerConcurrency: 32 }).kafkaHandlerConcurrency).toBe(32);
    expect(workerConfig(env).kafkaHandlerConcurrency).toBe(16);
  });

  it('#11 KAFKA_HANDLER_CONCURRENCY over the worker\'s default', () => {
    expect(workerConfig({ ...env, KAFKA_HANDLER_CONCURRENCY: '8' }, { handlerConcurrency: 32 }).kafkaHandlerConcurrency).toBe(8);
  });
});
