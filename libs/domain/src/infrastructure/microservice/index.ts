// Workers as NestJS microservices over our one Kafka wrapper (issue #8): the transport strategy,
// the runtime as a provider, and the bootstrap. Framework code, hence in the infrastructure folder.
export {
  KafkaEventTransport,
  deadLettered,
  type EventSubscription,
  type KafkaEventTransportOptions,
} from './kafka-event-transport';
export { RethrowRpcErrors } from './rethrow-rpc-errors.filter';
export { WORKER_RUNTIME, WorkerRuntimeModule } from './worker-runtime.module';
export {
  createEventMicroservice,
  createWorkerApp,
  runWorkerApp,
  workerSubscriptions,
  type WorkerAppOptions,
} from './worker-app';
