import type { Consumer, EachBatchPayload, IHeaders, Kafka, KafkaMessage, Producer } from 'kafkajs';
import { AppError } from '../../errors';
import { withLogContext } from '../../log';
import type { RecordedEvent } from '../../events';
import { decodeEvent, headerString } from './codec';
import { sendToDeadLetter } from './dead-letter';
import { describedByEvent, describedByHeaders, type EventDescription } from './headers';
import { DEFAULT_RETRY, backoffMs, errorCode, errorMessage, isRetriable, type RetryPolicy, sleepWithHeartbeats, worstCaseBackoffMs } from './retry';
import { metrics } from '../metrics';
import type { Span } from '@opentelemetry/api';
import { SpanKind, inSpan } from '../tracing';

/** What a handler learns about the message it handles. */
export interface MessageContext {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  /** 1 on the first try, 2 on the first retry... */
  readonly attempt: number;
  readonly headers: IHeaders;
  /** Call during long work: kafkajs heartbeats only when asked. Throws when the group rebalances. */
  heartbeat(): Promise<void>;
}

/**
 * Handles one event. At-least-once: the same event may come again (after a crash or a
 * rebalance), so handlers are idempotent on `event.eventId` (DESIGN.md "Kafka"). Throw an
 * AppError with `retriable: false` for what a retry cannot fix; it is dead-lettered at once.
 */
export type EventHandler = (event: RecordedEvent, ctx: MessageContext) => Promise<void>;

/** Options of an EventConsumer. */
export interface EventConsumerOptions {
  readonly kafka: Kafka;
  /** Used as is: the caller prefixes it (`${prefix}.delivery-worker`). One group per worker. */
  readonly groupId: string;
  readonly topics: readonly string[];
  readonly handle: EventHandler;
  /**
   * Whether this consumer handles such an event. Asked from the message's headers before its
   * value is decoded (headers.ts), so an event nobody here handles is passed over, committed,
   * without parsing its value; a message without the headers is decoded first. Default: all.
   */
  readonly handles?: (event: EventDescription) => boolean;
  /**
   * Lifts a decoded event to the current shape of its type (the EventRegistry's upcasters), so a
   * message published before a schema change reaches the handler as a stream read would return
   * it. Default: as published.
   */
  readonly upcast?: (event: RecordedEvent) => RecordedEvent;
  /**
   * Usually `topicNames(prefix).deadLetter`. `null` for a consumer OF the dead-letter topic:
   * what it fails to handle is logged and passed over (it stays in that topic), never sent
   * back to it, where the same consumer would meet it again and again.
   */
  readonly deadLetterTopic: string | null;
  readonly retry?: Partial<RetryPolicy>;
  /** kafkajs default 30000 ms. Must exceed the retry policy's total backoff. */
  readonly sessionTimeout?: number;
  /** kafkajs default 3000 ms; also the heartbeat period while waiting between retries. */
  readonly heartbeatInterval?: number;
  /**
   * Where a group without committed offsets starts. Default true: a new worker's group must
   * see the events published before its first deployment, not only later ones.
   */
  readonly fromBeginning?: boolean;
  /**
   * Partitions handled at the same time (kafkajs `partitionsConsumedConcurrently`). Order is
   * per partition, hence per aggregate, so this is safe; default 1.
   */
  readonly partitionsConsumedConcurrently?: number;
  /**
   * Messages handled at the same time by this consumer, over all its partitions (default: one per
   * partition handled at once). Within a partition the messages of one key (one stream) are handled
   * in order, one after the other; messages of different keys at the same time. A handler holds a
   * database connection only while a statement of it runs or its transaction is open (runtime.ts
   * workerPoolSize), so more handlers than the pool has connections wait for a statement's turn.
   */
  readonly handlerConcurrency?: number;
  /**
   * How often the offsets of handled messages are committed (default 250 ms), and at the end of every
   * batch once that long has passed; always when the consumer stops. Committing after every partition's
   * batch made each fetch round wait for one broker round trip per batch, and every event published
   * meanwhile wait for the round. A crash or a rebalance re-handles at most this long's events, each
   * skipped by its handler as already processed.
   */
  readonly commitIntervalMs?: number;
}

/** What a batch's payload offers to commit the offsets it resolved, kept for commits between batches. */
type Committer = Pick<EachBatchPayload, 'commitOffsetsIfNecessary' | 'uncommittedOffsets'>;

/** A counting semaphore: at most `limit` holders at once, served in arrival order. */
class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(limit: number) {
    this.free = limit;
  }

  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

/** The messages of a batch by key, each key's in offset order (a key is a stream: its order is kept). */
export function chainsByKey(messages: readonly KafkaMessage[]): KafkaMessage[][] {
  const chains = new Map<string, KafkaMessage[]>();
  for (const message of messages) {
    // Keyless messages carry no order guarantee (any partition), but keep the one they arrived in.
    const key = message.key ? `k:${message.key.toString('base64')}` : 'keyless';
    const chain = chains.get(key);
    if (chain) chain.push(message);
    else chains.set(key, [message]);
  }
  return [...chains.values()];
}

/**
 * The messages of a batch done so far, in any order (a batch's keys run side by side): `markDone` answers
 * the offset up to which every message is done when that moved, so offsets are resolved (and committed
 * on the interval) while the batch runs, not only at its end.
 */
export class DonePrefix {
  private readonly done = new Set<string>();
  private next = 0;

  constructor(private readonly messages: readonly KafkaMessage[]) {}

  markDone(offset: string): string | undefined {
    this.done.add(offset);
    let last: string | undefined;
    while (this.next < this.messages.length && this.done.has(this.messages[this.next].offset)) last = this.messages[this.next++].offset;
    return last;
  }
}

/**
 * The consumer for workers: parses each message into a RecordedEvent, runs the handler,
 * retries retriable failures with backoff, and sends what still fails to the dead-letter
 * topic, so a poison message never blocks its partition. Not NestJS's ServerKafka, which
 * renames group ids and redelivers a failing event forever (shared/notes/kafka-without-docker.md).
 */
export class EventConsumer {
  private readonly retry: RetryPolicy;
  private readonly sessionTimeout: number;
  private readonly heartbeatInterval: number;
  private readonly slots: Slots;
  private consumer?: Consumer;
  private producer?: Producer;
  /** The latest batch's committer: the consumer group's, whose offsets outlive the batch. */
  private committer?: Committer;
  private committing?: NodeJS.Timeout;

  constructor(private readonly options: EventConsumerOptions) {
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.sessionTimeout = options.sessionTimeout ?? 30_000;
    this.heartbeatInterval = options.heartbeatInterval ?? 3_000;
    this.slots = new Slots(Math.max(1, options.handlerConcurrency ?? options.partitionsConsumedConcurrently ?? 1));
    if (this.retry.attempts < 1) throw configError('retry.attempts must be at least 1');
    // One message must not hold its partition for longer than a session: a longer outage is
    // what the dead-letter topic (and a later replay) is for.
    if (worstCaseBackoffMs(this.retry) >= this.sessionTimeout) {
      throw configError(`retry backoff (up to ${worstCaseBackoffMs(this.retry)} ms) must stay under sessionTimeout (${this.sessionTimeout} ms)`);
    }
  }

  /** Connects, joins the group and starts consuming (returns once consumption is scheduled). */
  async start(): Promise<void> {
    if (this.consumer) throw configError(`consumer ${this.options.groupId} already started`);
    const { kafka, groupId, topics } = this.options;
    this.producer = kafka.producer({ maxInFlightRequests: 1, allowAutoTopicCreation: false });
    this.consumer = kafka.consumer({
      groupId,
      sessionTimeout: this.sessionTimeout,
      heartbeatInterval: this.heartbeatInterval,
      allowAutoTopicCreation: false,
      // A fetch long-polls for up to this long, and stop() waits for the fetch in flight:
      // kafkajs's 5000 ms default makes every shutdown (and test) take ~5 s for nothing.
      maxWaitTimeInMs: 1_000,
    });
    await this.producer.connect();
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [...topics], fromBeginning: this.options.fromBeginning ?? true });
    const commitIntervalMs = this.options.commitIntervalMs ?? 250;
    await this.consumer.run({
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? 1,
      eachBatchAutoResolve: false,
      // Offsets are committed by onBatch (once the interval has passed), by the timer below when no batch
      // comes, and by stop(): kafkajs's autoCommit commits after every batch, awaited, before the next fetch.
      autoCommit: false,
      autoCommitInterval: commitIntervalMs,
      eachBatch: (payload) => this.onBatch(payload),
    });
    // Idle partitions bring no batch: what the last ones resolved is committed anyway (lag back to 0).
    this.committing = setInterval(() => void this.commitIfDue(), commitIntervalMs);
    this.committing.unref();
  }

  /** Commits what was handled when the interval has passed since the last commit (a failure waits for the next). */
  private async commitIfDue(): Promise<void> {
    try {
      await this.committer?.commitOffsetsIfNecessary();
    } catch {
      // A rebalance or a broker away: the next commit carries these offsets, or the next owner re-handles them.
    }
  }

  /** Commits every offset handled and not yet committed, now. */
  private async commitNow(committer: Committer | undefined = this.committer): Promise<void> {
    const pending = committer?.uncommittedOffsets();
    if (!committer || !pending?.topics.length) return;
    try {
      await committer.commitOffsetsIfNecessary(pending);
    } catch (error) {
      this.log('warn', 'could not commit the offsets of handled messages; they will be handled again (skipped as processed)', { error: errorMessage(error) });
    }
  }

  /**
   * Leaves the group cleanly: kafkajs waits for the message in flight (with its remaining
   * retries), commits the offsets, then disconnects; the dead-letter producer goes last.
   */
  async stop(): Promise<void> {
    const { consumer, producer } = this;
    this.consumer = undefined;
    clearInterval(this.committing);
    try {
      // What was handled before the stop, while still a member; a batch in flight commits its own (onBatch).
      if (consumer) await this.commitNow();
      // The message in flight may still dead-letter (its last retry fails): the producer stays until it is done.
      await consumer?.disconnect();
    } finally {
      this.producer = undefined;
      await producer?.disconnect();
    }
  }

  /**
   * A partition's batch: each key's messages in order, different keys at the same time (within the
   * consumer's handler slots). kafkajs fetches again only once every batch of its last fetch is done,
   * so a partition's messages handled one by one would make every message wait for all those before it
   * (a report's 50 ms call behind another's). Offsets move up to the last message before which every
   * one is done, as the batch runs, and are committed on the interval: a rebalance in the middle of a
   * long batch (hundreds of reports) re-handles what was not done yet, not the whole batch (the bench's
   * Jordan phase re-handled ~700 Polish reports, 22 s old, after one); a redelivery of the others is
   * harmless (handlers are idempotent per event).
   */
  private async onBatch({ batch, resolveOffset, heartbeat, isRunning, isStale, commitOffsetsIfNecessary, uncommittedOffsets }: EachBatchPayload): Promise<void> {
    const committer: Committer = { commitOffsetsIfNecessary, uncommittedOffsets };
    this.committer = committer;
    const done = new DonePrefix(batch.messages);
    let failure: { error: unknown } | undefined;
    const runChain = async (chain: readonly KafkaMessage[]) => {
      for (const message of chain) {
        if (failure || !isRunning() || isStale()) return;
        await this.slots.acquire();
        try {
          if (failure || !isRunning() || isStale()) return;
          await this.onMessage({ topic: batch.topic, partition: batch.partition, message, heartbeat });
          const upTo = done.markDone(message.offset);
          if (upTo !== undefined) resolveOffset(upTo);
          // kafkajs heartbeats between batches, and a handler beats only past heartbeatInterval: a long batch of
          // short handlers (hundreds of reports, 300 ms each) sent none for its whole length and lost the session
          // (the bench's reporting worker, rebalanced under load). Sent at most once an interval; a rebalance
          // ends the batch here.
          await heartbeat();
        } catch (error) {
          failure ??= { error };
          return;
        } finally {
          this.slots.release();
        }
      }
    };
    await Promise.all(chainsByKey(this.handledOf(batch.messages, done, resolveOffset)).map(runChain));
    // Stopping (kafkajs leaves the group once this batch returns) or failing: what was handled is committed now.
    if (failure || !isRunning()) await this.commitNow(committer);
    else await this.commitIfDue();
    if (failure) throw failure.error;
  }

  /**
   * The messages a handler must see. Those whose headers name an event this consumer does not handle
   * (most of a shared topic for a worker: every other area's and stage's events) are done at once,
   * without a handler slot, a heartbeat or a tick each: ~30 µs a message on the handler's path, paid by
   * every worker for every event of the topics it shares (issue 11).
   */
  private handledOf(messages: readonly KafkaMessage[], done: DonePrefix, resolveOffset: (offset: string) => void): readonly KafkaMessage[] {
    const { handles } = this.options;
    if (!handles) return messages;
    const handled: KafkaMessage[] = [];
    let upTo: string | undefined;
    for (const message of messages) {
      const described = describedByHeaders(message.headers);
      if (!described || handles(described)) handled.push(message);
      else upTo = done.markDone(message.offset) ?? upTo;
    }
    if (upTo !== undefined) resolveOffset(upTo);
    return handled;
  }

  private async onMessage({ topic, partition, message, heartbeat }: { topic: string; partition: number; message: KafkaMessage; heartbeat: () => Promise<void> }): Promise<void> {
    const { handles, deadLetterTopic } = this.options;
    // Its headers, when it has them, name an event this consumer handles (handledOf passed over the others).
    const described = describedByHeaders(message.headers);

    // What is known of the message when it fails: its type from the headers, then from the decoded event.
    const seen: { eventType: string; correlationId?: string } = { eventType: described?.type ?? 'unknown' };
    const deadLetter = async (attempts: number, error: unknown) => {
      metrics.deadLettered.inc({ group: this.options.groupId, event_type: seen.eventType });
      const fields = { topic, partition, offset: message.offset, ...seen, attempts, code: errorCode(error), error: errorMessage(error) };
      if (deadLetterTopic === null) return this.log('error', 'passed over a dead-lettered message that failed again', fields);
      this.log('warn', 'dead-lettered a message', fields);
      // `this.producer` is set for as long as kafkajs may call us: stop() disconnects it last.
      return sendToDeadLetter(this.producer!, deadLetterTopic, message, {
        topic,
        partition,
        groupId: this.options.groupId,
        attempts,
        error,
        failedAt: new Date(),
      });
    };

    let event: RecordedEvent;
    try {
      event = decodeEvent(message.value);
      if (this.options.upcast) event = this.options.upcast(event);
    } catch (error) {
      return deadLetter(0, error);
    }
    seen.eventType = event.type;
    seen.correlationId = event.metadata.correlationId;
    // Published before the headers existed: the decoded event tells the same.
    if (handles && !described && !handles(describedByEvent(event))) return;
    // The producer stamps each message as it sends it (CreateTime): how long it waited for us.
    const publishedAt = Number(message.timestamp);
    if (publishedAt > 0) metrics.eventWait.observe({ group: this.options.groupId, event_type: event.type }, Math.max(0, Date.now() - publishedAt) / 1000);

    for (let attempt = 1; ; attempt++) {
      let rebalancing: unknown;
      const ctx: MessageContext = {
        topic,
        partition,
        offset: message.offset,
        attempt,
        headers: message.headers ?? {},
        heartbeat: () =>
          heartbeat().catch((error: unknown) => {
            rebalancing = error;
            throw error;
          }),
      };
      // Heartbeats go on while the handler works (an access point slow to answer, a large render):
      // the session timeout then detects a dead process, not a slow handler, so it can be short
      // (KAFKA_SESSION_TIMEOUT_MS) and a crashed worker's partitions move within seconds.
      const beating = setInterval(() => void ctx.heartbeat().catch(() => undefined), this.heartbeatInterval);
      const timer = metrics.handlerDuration.startTimer({ group: this.options.groupId, event_type: event.type });
      const traced = {
        kind: SpanKind.CONSUMER,
        parent: headerString(message.headers, 'traceparent') ?? event.metadata.traceparent,
        attributes: { 'messaging.system': 'kafka', 'messaging.consumer.group.name': this.options.groupId, 'messaging.destination.name': topic, 'messaging.kafka.offset': Number(message.offset), 'einvoice.event_id': event.eventId, 'einvoice.attempt': attempt, ...(event.metadata.correlationId ? { 'einvoice.correlation_id': event.metadata.correlationId } : {}) },
      };
      try {
        await inSpan(`handle ${event.type}`, traced, (span) => withLogContext(logFieldsOf(event, described?.area, span), () => this.options.handle(event, ctx)));
        timer({ outcome: 'ok' });
        if (rebalancing !== undefined) throw rebalancing;
        return;
      } catch (error) {
        metrics.handlerFailures.inc({ group: this.options.groupId, event_type: event.type });
        timer({ outcome: !isRetriable(error) || attempt >= this.retry.attempts ? 'failed' : 'retried' });
        // The partition may be someone else's now: leave the offset alone, the new owner retries.
        if (rebalancing !== undefined) throw rebalancing;
        if (!isRetriable(error) || attempt >= this.retry.attempts) return deadLetter(attempt, error);
        await sleepWithHeartbeats(backoffMs(this.retry, attempt), this.heartbeatInterval, heartbeat);
      } finally {
        clearInterval(beating);
      }
    }
  }

  private log(level: 'warn' | 'error', message: string, fields: Record<string, unknown>): void {
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, logger: 'EventConsumer', groupId: this.options.groupId, message, ...fields })}\n`);
  }
}

function configError(message: string): AppError {
  return new AppError('internal', 'KAFKA.CONSUMER_CONFIG', message, { retriable: false });
}

/** What a log line written while handling an event should say of it (log.ts withLogContext). */
function logFieldsOf(event: RecordedEvent, area: string | undefined, span: Span): Record<string, unknown> {
  const data = event.data as { documentId?: unknown };
  const traceId = span.isRecording() ? span.spanContext().traceId : undefined;
  return {
    correlationId: event.metadata.correlationId,
    tenantId: event.metadata.tenantId,
    area,
    documentId: typeof data.documentId === 'string' ? data.documentId : undefined,
    eventId: event.eventId,
    eventType: event.type,
    traceId,
  };
}
