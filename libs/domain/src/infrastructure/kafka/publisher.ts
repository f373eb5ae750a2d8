import type { Admin, Kafka, Producer } from 'kafkajs';
import { AppError } from '../../errors';
import type { RecordedEvent } from '../../events';
import { type EncodedEvent, encodeEvent } from './codec';
import { areaInData, eventHeaders, type AreaOf } from './headers';
import { keyPartitioner } from './key-partitioner';
import { compressionFor, isRefusedByBroker } from './message-size';

/** One event to publish: the outbox relay builds these from outbox rows. */
export interface OutgoingMessage {
  /** The stream's topic (`EventRegistry.topicFor`). */
  readonly topic: string;
  /** The aggregate id (`streamId`): one key, one partition, one order. */
  readonly key: string;
  /** The event, or its value already written (the outbox relay's: EncodedEvent). */
  readonly value: RecordedEvent | EncodedEvent;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Options of a KafkaEventPublisher. */
export interface KafkaEventPublisherOptions {
  /** The area of an event, for the `x-area` header (headers.ts); default `data.area`. */
  readonly areaOf?: AreaOf;
}

/**
 * Publishes recorded events, in order per key, with the headers a consumer decides on without
 * decoding the value (`x-event-type`, `x-area`, `x-stream-kind`: headers.ts). Errors propagate: the outbox relay keeps the
 * rows and tries again later (DESIGN.md "The event store": Kafka down = the outbox grows),
 * except `KAFKA.MESSAGE_REFUSED` (not retriable), which the relay parks (outbox-relay.ts).
 */
export class KafkaEventPublisher {
  private readonly producer: Producer;
  private readonly admin: Admin;
  private connected = false;
  private probe?: Promise<boolean>;
  private readonly areaOf: AreaOf;

  constructor(kafka: Kafka, options: KafkaEventPublisherOptions = {}) {
    this.areaOf = options.areaOf ?? areaInData;
    this.producer = kafka.producer({
      // One request in flight per broker: a retried batch can never overtake the next one,
      // so the order per key holds. kafkajs's idempotent producer is still marked experimental;
      // a duplicate after a retry is fine, consumers de-duplicate on `eventId` (DESIGN.md "Kafka").
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      // kafkajs's default choice of partition, without its costly hash (key-partitioner.ts).
      createPartitioner: keyPartitioner,
    });
    this.admin = kafka.admin();
    this.producer.on(this.producer.events.CONNECT, () => (this.connected = true));
    this.producer.on(this.producer.events.DISCONNECT, () => (this.connected = false));
  }

  async connect(): Promise<void> {
    await this.producer.connect();
    await this.admin.connect().catch(() => undefined);
  }

  /**
   * Sends the messages and resolves once every in-sync replica has them (`acks: -1`), which is
   * when the relay may mark the outbox rows done. The partitioner hashes the key (murmur2, as
   * the Java client and kafkajs's default), so the events of one stream share a partition.
   */
  async publish(messages: readonly OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    // A gateway that started while Kafka was down connects on its first publish after the
    // broker is back (kafkajs does not reconnect a producer whose connect() failed).
    if (!this.connected) await this.producer.connect();
    const byTopic = new Map<string, OutgoingMessage[]>();
    for (const message of messages) {
      const list = byTopic.get(message.topic);
      if (list) list.push(message);
      else byTopic.set(message.topic, [message]);
    }
    const topicMessages = [...byTopic].map(([topic, list]) => ({
      topic,
      messages: list.map((m) => ({
        key: m.key,
        value: encodeEvent(m.value),
        headers: { ...eventHeaders(m.value, this.areaOf), ...m.headers },
      })),
    }));
    let bytes = 0;
    let largest = 0;
    for (const t of topicMessages) {
      for (const m of t.messages) {
        const size = Buffer.byteLength(m.value);
        bytes += size;
        largest = Math.max(largest, size);
      }
    }
    // Large events (a MyInvois bulk: ~16 MB of JSON) go compressed; the topic limit is checked
    // against the compressed batch (message-size.ts).
    try {
      await this.producer.sendBatch({ acks: -1, compression: compressionFor(largest), topicMessages });
    } catch (error) {
      if (!isRefusedByBroker(error)) throw error;
      // Not an outage: the broker will never take these messages as they are (the relay parks them).
      throw new AppError('too_large', 'KAFKA.MESSAGE_REFUSED', `The broker refused the messages: ${(error as Error).message}`, {
        retriable: false,
        cause: error,
        details: { bytes, messages: messages.length },
      });
    }
  }

  /** True while the producer holds its broker connections (kafkajs CONNECT/DISCONNECT events). */
  isConnected(): boolean {
    return this.connected;
  }

  /**
   * For GET /health: asks the cluster for its brokers, and answers false if that fails or takes
   * longer than `timeoutMs`. Against a dead broker kafkajs keeps retrying the probe for the
   * client's whole retry budget after we answered, so one probe at a time is shared by callers.
   */
  async healthy(timeoutMs = 2_000): Promise<boolean> {
    this.probe ??= this.admin
      .connect()
      .then(() => this.admin.describeCluster())
      .then(
        (cluster) => cluster.brokers.length > 0,
        () => false,
      )
      .finally(() => (this.probe = undefined));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    try {
      return await Promise.race([this.probe, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async disconnect(): Promise<void> {
    await this.producer.disconnect();
    await this.admin.disconnect();
  }
}
