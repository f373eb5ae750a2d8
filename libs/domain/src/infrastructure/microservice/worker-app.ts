import type { INestMicroservice, NestApplicationOptions, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AsyncMicroserviceOptions, CustomStrategy } from '@nestjs/microservices';
import type { Logger } from '../../log';
import { topicNames, type TopicNames } from '../kafka';
import type { WorkerRuntime } from '../runtime';
import { deadLettered, KafkaEventTransport, type EventSubscription } from './kafka-event-transport';
import { RethrowRpcErrors } from './rethrow-rpc-errors.filter';
import { WORKER_RUNTIME } from './worker-runtime.module';

/** What a worker consumes besides its module: topics, and whether it also reads the dead-letter topic. */
export interface WorkerAppOptions {
  /** The topics of its main group `${prefix}.${app}`; default the documents topic. */
  readonly topics?: (topics: TopicNames) => string[];
  /**
   * Also consume the dead-letter topic, under group `${prefix}.${app}.dead-letter`, dispatching to
   * `@EventPattern(deadLettered(<type>))` handlers. Its own group keeps its processed-event ledger
   * apart from the main group's, so a replayed event is still handled by the main handler.
   */
  readonly deadLetters?: boolean;
}

/** The subscriptions of a worker: its main group, and the dead-letter group when asked for. */
export function workerSubscriptions(runtime: WorkerRuntime, options: WorkerAppOptions = {}): EventSubscription[] {
  const topics = topicNames(runtime.config.kafkaPrefix);
  const main: EventSubscription = {
    groupId: runtime.groupId,
    topics: (options.topics ?? ((t) => [t.documents]))(topics),
    deadLetterTopic: topics.deadLetter,
  };
  if (!options.deadLetters) return [main];
  const deadLetters: EventSubscription = {
    groupId: `${runtime.groupId}.dead-letter`,
    topics: [topics.deadLetter],
    deadLetterTopic: null,
    patternOf: deadLettered,
    // Rare, and its handlers hold connections of the same pool (runtime.ts sizes it for one).
    handlerConcurrency: 1,
  };
  return [main, deadLetters];
}

/**
 * A worker as a Nest microservice on KafkaEventTransport. `module` imports
 * `WorkerRuntimeModule.forWorker(app)` and declares the `@EventPattern` controllers.
 */
export async function createWorkerApp(module: Type<unknown>, options: WorkerAppOptions = {}): Promise<INestMicroservice> {
  const microservice: AsyncMicroserviceOptions = {
    inject: [WORKER_RUNTIME],
    useFactory: (runtime: WorkerRuntime) => ({
      strategy: new KafkaEventTransport({
        kafka: runtime.kafka,
        subscriptions: workerSubscriptions(runtime, options),
        sessionTimeout: runtime.config.kafkaSessionTimeoutMs,
        heartbeatInterval: runtime.config.kafkaHeartbeatIntervalMs,
        partitionsConsumedConcurrently: runtime.config.kafkaPartitionsConcurrency,
        handlerConcurrency: runtime.config.kafkaHandlerConcurrency,
        upcast: runtime.registry.upcast,
      }),
    }),
  };
  return createEventMicroservice(module, microservice);
}

/**
 * A Nest microservice on a KafkaEventTransport (given, or made by a factory of providers), whose
 * handlers' errors reach the transport as they were thrown (RethrowRpcErrors).
 */
export async function createEventMicroservice(
  module: Type<unknown>,
  transport: CustomStrategy | AsyncMicroserviceOptions,
): Promise<INestMicroservice> {
  // abortOnError false: a failed start (database down) throws to startWorkerProcess (exit 1), not abort().
  const options: NestApplicationOptions = { logger: ['error', 'warn'], abortOnError: false };
  const app = await NestFactory.createMicroservice(module, { ...transport, ...options });
  app.useGlobalFilters(new RethrowRpcErrors());
  return app;
}

/**
 * Runs a worker: builds it, stops it cleanly on SIGTERM/SIGINT, and consumes. Shutdown follows Nest's
 * hooks: `onModuleDestroy` (what must stop before the consumers: a queue worker finishing its active
 * jobs, periodic jobs), then the consumers (message in flight finished, offsets committed), then
 * `onApplicationShutdown` module by module (WorkerRuntimeModule), the database pool last; exit 0, or 1
 * if a hook failed. A second signal exits at once.
 */
export async function runWorkerApp(
  app: string,
  log: Logger,
  module: Type<unknown>,
  options: WorkerAppOptions = {},
): Promise<INestMicroservice> {
  const worker = await createWorkerApp(module, options);
  worker.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  let signals = 0;
  const impatient = () => void (++signals > 1 && process.exit(1));
  process.on('SIGTERM', impatient);
  process.on('SIGINT', impatient);
  await worker.listen();
  const runtime = worker.get<WorkerRuntime>(WORKER_RUNTIME);
  const subscriptions = workerSubscriptions(runtime, options).map((s) => ({ group: s.groupId, topics: s.topics }));
  log('info', `${app} consuming`, { subscriptions });
  return worker;
}
