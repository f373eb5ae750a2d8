import { Controller, Inject, Module, type INestMicroservice, type Type } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { Kafka } from 'kafkajs';
import { AppError } from '../../errors';
import type { RecordedEvent } from '../../events';
import { KafkaEventPublisher, ensureTopics, topicNames, type MessageContext, type TopicNames } from '../kafka';
import { decodeEvent } from '../kafka/codec';
import { header, messageCount, readTopic, recordedEvent, uniquePrefix, waitFor } from '../kafka/test/support';
import { openTestKafka } from '../../../../../test/support/broker';
import { buildEventRegistry } from '../plugins';
import { KafkaEventTransport, deadLettered } from './kafka-event-transport';
import { createEventMicroservice } from './worker-app';

// Counts the decodes of message values (the consumer's, through this module).
jest.mock('../kafka/codec', () => {
  const actual = jest.requireActual('../kafka/codec');
  return { ...actual, decodeEvent: jest.fn(actual.decodeEvent) };
});

// jest 29 ignores `testTimeout` inside a `projects` entry (see consumer.int.spec.ts).
jest.setTimeout(60_000);

const TIMING = { sessionTimeout: 6_000, heartbeatInterval: 500 };
const FAST_RETRY = { attempts: 3, initialBackoffMs: 50, maxBackoffMs: 200 };

/** What the test controller saw, and how it should fail: per event id. */
interface Sink {
  readonly handled: Array<{ type: string; eventId: string; attempt: number; schemaVersion: number; data: Record<string, unknown> }>;
  readonly deadLettered: Array<{ eventId: string; errorCode?: string }>;
  /** Event id → the error the handler throws on its first `times` attempts. */
  readonly failures: Map<string, { error: () => AppError; times: number }>;
  /** Event ids the dead-letter handler fails on (non-retriable). */
  readonly deadLetterFailures: Set<string>;
}
const SINK = 'Sink';

@Controller()
class TestWorkerController {
  constructor(@Inject(SINK) private readonly sink: Sink) {}

  @EventPattern(['DocumentSubmitted', 'DocumentDelivered'])
  handle(@Payload() event: RecordedEvent, @Ctx() ctx: MessageContext): void {
    this.sink.handled.push({ type: event.type, eventId: event.eventId, attempt: ctx.attempt, schemaVersion: event.schemaVersion, data: event.data as Record<string, unknown> });
    const failure = this.sink.failures.get(event.eventId);
    if (failure && ctx.attempt <= failure.times) throw failure.error();
  }

  @EventPattern(deadLettered('DocumentSubmitted'))
  async deadLetter(@Payload() event: RecordedEvent, @Ctx() ctx: MessageContext): Promise<void> {
    this.sink.deadLettered.push({ eventId: event.eventId, errorCode: ctx.headers['x-error-code']?.toString() });
    if (this.sink.deadLetterFailures.has(event.eventId)) throw final('AGAIN.FAILED');
  }
}

function testModule(sink: Sink): Type<unknown> {
  @Module({ controllers: [TestWorkerController], providers: [{ provide: SINK, useValue: sink }] })
  class TestWorkerModule {}
  return TestWorkerModule;
}

const final = (code: string) => new AppError('validation', code, 'A retry cannot fix this.', { retriable: false });
const unavailable = () => new AppError('unavailable', 'PEPPOL.UNREACHABLE', 'The access point did not answer.');

describe('KafkaEventTransport: workers as Nest microservices over EventConsumer (real broker)', () => {
  let close: () => Promise<void>;
  let kafka: Kafka;
  let publisher: KafkaEventPublisher;
  let topics: TopicNames;
  let app: INestMicroservice | undefined;
  let sink: Sink;

  beforeAll(async () => {
    ({ kafka, publisher, close } = await openTestKafka('transport-int-spec'));
  }, 120_000);

  afterAll(async () => {
    await close?.();
  }, 60_000);

  beforeEach(async () => {
    const prefix = uniquePrefix();
    topics = topicNames(prefix);
    await ensureTopics(kafka, prefix);
    sink = { handled: [], deadLettered: [], failures: new Map(), deadLetterFailures: new Set() };
  });

  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  const startWorker = async (deadLetters = false, upcast?: (event: RecordedEvent) => RecordedEvent) => {
    const main = { groupId: `${topics.documents}.worker`, topics: [topics.documents], deadLetterTopic: topics.deadLetter };
    const dead = { groupId: `${topics.documents}.worker.dead-letter`, topics: [topics.deadLetter], deadLetterTopic: null, patternOf: deadLettered };
    const strategy = new KafkaEventTransport({ kafka, subscriptions: deadLetters ? [main, dead] : [main], retry: FAST_RETRY, upcast, ...TIMING });
    app = await createEventMicroservice(testModule(sink), { strategy });
    await app.listen();
  };
  const publish = (...events: RecordedEvent[]) => publisher.publish(events.map((value) => ({ topic: topics.documents, key: value.streamId, value })));
  const produceRaw = async (messages: Array<{ key: string; value: string; headers?: Record<string, string> }>) => {
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: topics.documents, acks: -1, messages });
    await producer.disconnect();
  };

  it('#8 passes over an event type no handler declares, from its headers, without decoding the value', async () => {
    const stream = 'document-77777777-aaaa-4bbb-8ccc-000000000000';
    const decode = jest.mocked(decodeEvent);
    // One key, one partition: each message is handled only after the ones before it.
    // 1. A type nobody here handles, with a value that cannot be decoded (were it decoded: dead-lettered).
    await produceRaw([{ key: stream, value: '{"a MyInvois bulk of 16 MB', headers: { 'x-event-type': 'MyInvoisDocumentsSubmitted' } }]);
    // 2. Published before the headers existed: decoded to find its type (handled, then one not handled).
    const legacy = recordedEvent(stream, 2);
    const legacyOther = { ...recordedEvent(stream, 3), type: 'SupplierOnboarded' };
    await produceRaw([legacy, legacyOther].map((event) => ({ key: stream, value: JSON.stringify(event) })));
    // 3. As the publisher sends them now: a handled type, an unhandled one, then a handled one (the barrier).
    const submitted = recordedEvent(stream, 4);
    const unhandled = { ...recordedEvent(stream, 5), type: 'MyInvoisSubmissionPolled' };
    const delivered = { ...recordedEvent(stream, 6), type: 'DocumentDelivered' };
    await publish(submitted, unhandled, delivered);
    decode.mockClear();
    await startWorker();

    await waitFor('the last handled event', () => sink.handled.some((h) => h.eventId === delivered.eventId));

    expect(sink.handled.map((h) => h.eventId)).toEqual([legacy.eventId, submitted.eventId, delivered.eventId]);
    // Decoded: the two messages without headers, and the two handled ones with headers; never the others.
    expect(decode).toHaveBeenCalledTimes(4);
    expect(await messageCount(kafka, topics.deadLetter)).toBe(0);
  });

  it('#8 hands handlers the current shape of an event published under an older schema version (the registry upcasters)', async () => {
    const stream = 'document-66666666-aaaa-4bbb-8ccc-000000000000';
    const registry = buildEventRegistry([
      {
        name: 'test',
        streams: {},
        projectors: { DocumentSubmitted: null },
        schemas: { DocumentSubmitted: { current: 2, upcasters: { 1: (data) => ({ ...data, lifted: 'v1 to v2' }) } } },
      },
    ]);
    const old = { ...recordedEvent(stream, 1), schemaVersion: 1 };
    const current = { ...recordedEvent(stream, 2), schemaVersion: 2 };
    await startWorker(false, registry.upcast);
    await publish(old, current);

    await waitFor('both events', () => sink.handled.length === 2);

    expect(sink.handled.map((h) => [h.eventId, h.schemaVersion, h.data.lifted])).toEqual([
      [old.eventId, 2, 'v1 to v2'],
      [current.eventId, 2, undefined],
    ]);
  });

  it("hands a handler's AppError to the consumer as thrown: retriable retried, final dead-lettered with its code", async () => {
    const stream = 'document-88888888-aaaa-4bbb-8ccc-000000000000';
    const flaky = recordedEvent(stream, 1);
    const refused = recordedEvent(stream, 2);
    sink.failures.set(flaky.eventId, { error: unavailable, times: 1 });
    sink.failures.set(refused.eventId, { error: () => final('PEPPOL.RECEIVER_UNKNOWN'), times: 1 });
    await startWorker();
    await publish(flaky, refused);

    const [dead] = await readTopic(kafka, topics.deadLetter, 1);

    expect(sink.handled.map((h) => [h.eventId, h.attempt])).toEqual([
      [flaky.eventId, 1],
      [flaky.eventId, 2],
      [refused.eventId, 1],
    ]);
    expect(JSON.parse(dead.value!.toString())).toEqual(refused);
    expect(header(dead, 'x-error-code')).toBe('PEPPOL.RECEIVER_UNKNOWN');
    expect(header(dead, 'x-attempts')).toBe('1');
    expect(header(dead, 'x-consumer-group')).toBe(`${topics.documents}.worker`);
  });

  it('hosts deadLettered(type) handlers on the dead-letter topic under their own group, and never sends their failures back', async () => {
    const stream = 'document-99999999-aaaa-4bbb-8ccc-000000000000';
    const first = recordedEvent(stream, 1);
    const second = recordedEvent(stream, 2);
    for (const event of [first, second]) sink.failures.set(event.eventId, { error: () => final('DOCUMENT.NO_RECEIVER'), times: 1 });
    // The dead-letter handler fails for good on the first: passed over, not dead-lettered again.
    sink.deadLetterFailures.add(first.eventId);
    await startWorker(true);
    await publish(first, second);

    // Same key on the dead-letter topic too: the second is handled there after the first was passed over.
    await waitFor('the second dead-lettered event', () => sink.deadLettered.some((d) => d.eventId === second.eventId));

    expect(sink.deadLettered).toEqual([
      { eventId: first.eventId, errorCode: 'DOCUMENT.NO_RECEIVER' },
      { eventId: second.eventId, errorCode: 'DOCUMENT.NO_RECEIVER' },
    ]);
    expect(sink.handled.map((h) => h.eventId)).toEqual([first.eventId, second.eventId]);
    expect(await messageCount(kafka, topics.deadLetter)).toBe(2);
  });
});
