import { workerConfig, workerPoolSize } from './runtime';

describe('workerConfig', () => {
  const env = { DATABASE_URL: 'postgres://x@127.0.0.1/x' };

  it('#11 a worker\'s own handler concurrency where the environment says nothing, the platform\'s where it has none', () => {
    expect(workerConfig(env, { handlerConcurrency: 32 }).kafkaHandlerConcurrency).toBe(32);
    expect(workerConfig(env).kafkaHandlerConcurrency).toBe(16);
  });

  it('#11 KAFKA_HANDLER_CONCURRENCY over the worker\'s default', () => {
    expect(workerConfig({ ...env, KAFKA_HANDLER_CONCURRENCY: '8' }, { handlerConcurrency: 32 }).kafkaHandlerConcurrency).toBe(8);
  });

  it('#11 a worker\'s pool grows with its handlers up to 16 of them, not past', () => {
    expect(workerPoolSize({ kafkaHandlerConcurrency: 4 })).toBe(11);
    expect(workerPoolSize({ kafkaHandlerConcurrency: 16 })).toBe(23);
    expect(workerPoolSize(workerConfig(env, { handlerConcurrency: 32 }))).toBe(23);
  });
});
