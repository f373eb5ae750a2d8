import { CustomTransportStrategy, MessageHandler, Server } from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import type { RecordedEvent } from '../../events';
import { EventConsumer, type EventConsumerOptions, type Kafka, type MessageContext, type RetryPolicy } from '../kafka';

/** Prefix of the handler pattern of a dead-lettered event (`deadLettered`). */
const DEAD_LETTERED = 'DeadLettered:';

/**
 * The `@EventPattern` of an event of type `type` read from the dead-letter topic
 * (`@EventPattern(deadLettered('DocumentSubmitted'))`), so that handling a failure never
 * shares a pattern with handling the event itself.
 */
export function deadLettered(type: string): string {
  return `${DEAD_LETTERED}${type}`;
}

/** One consumer group of a worker: the topics it reads and how its handlers are found. */
export interface EventSubscription {
  /** Used as is (`${prefix}.${app}`): explicit, never renamed. */
  readonly groupId: string;
  readonly topics: readonly string[];
  /** Where its failures go; `null` when it reads the dead-letter topic itself (consumer.ts). */
  readonly deadLetterTopic: string | null;
  /** The handler pattern of an event type on these topics: the type itself unless given (`deadLettered`). */
  readonly patternOf?: (type: string) => string;
  /** Messages handled at once by this subscription's consumer, when not the transport's (the dead-letter group: 1). */
  readonly handlerConcurrency?: number;
}

/** Options of a KafkaEventTransport: the client, its subscriptions, and the consumers' settings. */
export interface KafkaEventTransportOptions
  extends Pick<EventConsumerOptions, 'sessionTimeout' | 'heartbeatInterval' | 'partitionsConsumedConcurrently' | 'handlerConcurrency' | 'upcast'> {
  readonly kafka: Kafka;
  readonly subscriptions: readonly EventSubscription[];
  readonly retry?: Partial<RetryPolicy>;
}

/**
 * Nest's transport strategy for the workers, over our one Kafka wrapper: one `EventConsumer` per
 * subscription (its explicit group id, retries with backoff, dead-lettering, clean SIGTERM, partitions
 * in parallel), dispatching each event to the `@EventPattern(<event type>)` handler of the worker's
 * controllers. An event whose type has no handler here is passed over from its headers, never
 * decoded. Not Nest's ServerKafka, which renames group ids and redelivers a failing event forever.
 *
 * Handlers are called as `(event: RecordedEvent, ctx: MessageContext)` (`@Payload()`, `@Ctx()`);
 * their errors must reach us as thrown (`RethrowRpcErrors`, installed by `createWorkerApp`), since
 * an AppError's `retriable` decides between a retry and the dead-letter topic.
 */
export class KafkaEventTransport extends Server implements CustomTransportStrategy {
  private readonly consumers: EventConsumer[] = [];

  constructor(private readonly options: KafkaEventTransportOptions) {
    super();
  }

  /** Starts one consumer per subscription; `callback(error)` if one cannot start. */
  listen(callback: (error?: unknown) => void): void {
    this.start().then(
      () => callback(),
      (error: unknown) => callback(error),
    );
  }

  /** Stops the consumers one after the other (each finishes its message in flight and commits). */
  async close(): Promise<void> {
    const consumers = this.consumers.splice(0);
    for (const consumer of consumers) await consumer.stop();
  }

  // Nest's Server asks for these; our consumers emit no events of their own and expose no client.
  on(): never {
    throw new Error('KafkaEventTransport emits no events.');
  }

  unwrap<T>(): T {
    return this.consumers as T;
  }

  private async start(): Promise<void> {
    const { kafka, subscriptions, retry, sessionTimeout, heartbeatInterval, partitionsConsumedConcurrently, handlerConcurrency, upcast } = this.options;
    for (const subscription of subscriptions) {
      const patternOf = subscription.patternOf ?? ((type: string) => type);
      const handlerOf = (type: string) => this.messageHandlers.get(patternOf(type));
      const consumer = new EventConsumer({
        kafka,
        groupId: subscription.groupId,
        topics: subscription.topics,
        deadLetterTopic: subscription.deadLetterTopic,
        retry,
        sessionTimeout,
        heartbeatInterval,
        partitionsConsumedConcurrently,
        handlerConcurrency: subscription.handlerConcurrency ?? handlerConcurrency,
        upcast,
        handles: ({ type }) => handlerOf(type) !== undefined,
        handle: (event, ctx) => dispatch(handlerOf(event.type), event, ctx),
      });
      // Pushed first: a consumer that fails half-way through start() is still stopped by close().
      this.consumers.push(consumer);
      await consumer.start();
    }
  }
}

/**
 * Runs Nest's handler (several, when several controllers declare the pattern) and settles when it
 * did. Nest hands back a promise of the result, or of an observable (a handler's error comes back
 * through the exception filters as an erroring observable).
 */
async function dispatch(handler: MessageHandler | undefined, event: RecordedEvent, ctx: MessageContext): Promise<void> {
  if (!handler) return;
  const result: unknown = await handler(event, ctx);
  if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
}
