import type { Kafka } from 'kafkajs';
import { AppError } from '../../errors';
import type { RecordedEvent } from '../../events';
import { EventConsumer, type EventHandler, type MessageContext } from './consumer';
import { encodeEvent } from './codec';
import { KafkaEventPublisher } from './publisher';
import { ensureTopics, topicNames, type TopicNames } from './topics';
import { openTestKafka } from '../../../../../test/support/broker';
import { eventually } from '../../../../../test/support/wait';
import { header, messageCount, readTopic, recordedEvent, uniquePrefix, waitFor } from './test/support';

// Short timeouts so that joins and rebalances take well under a second
// (the test broker allows sessions down to 1000 ms: group.min.session.timeout.ms).
// Set here too: jest 29 ignores `testTimeout` inside a `projects` entry, so the int project's
// 60 s is not applied and hooks would get the default 5 s.
jest.setTimeout(60_000);

const TIMING = { sessionTimeout: 6_000, heartbeatInterval: 500 };
const FAST_RETRY = { attempts: 3, initialBackoffMs: 50, maxBackoffMs: 200 };

const unavailable = () => new AppError('unavailable', 'PEPPOL.UNREACHABLE', 'The access point did not answer.');
const rejected = () => new AppError('validation', 'PEPPOL.RECEIVER_UNKNOWN', 'No such receiver.', { retriable: false });

describe('EventConsumer (real broker)', () => {
  let close: () => Promise<void>;
  let kafka: Kafka;
  let publisher: KafkaEventPublisher;
  let topics: TopicNames;
  let consumer: EventConsumer | undefined;

  beforeAll(async () => {
    ({ kafka, publisher, close } = await openTestKafka('consumer-int-spec'));
  }, 120_000);

  afterAll(async () => {
    await close?.();
  }, 60_000);

  beforeEach(async () => {
    topics = topicNames(uniquePrefix());
    await ensureTopics(kafka, topics.documents.replace(/\.documents$/, ''));
  });

  afterEach(async () => {
    await consumer?.stop();
    consumer = undefined;
  });

  const startConsumer = async (handle: EventHandler, retry = FAST_RETRY) => {
    consumer = new EventConsumer({ kafka, groupId: `${topics.documents}.worker`, topics: [topics.documents], handle, retry, deadLetterTopic: topics.deadLetter, ...TIMING });
    await consumer.start();
  };
  const publish = (...events: RecordedEvent[]) =>
    publisher.publish(events.map((value) => ({ topic: topics.documents, key: value.streamId, value })));

  it('#9 keeps its session while a handler works longer than the session timeout: no rebalance, handled once', async () => {
    const stream = 'document-12121212-aaaa-4bbb-8ccc-000000000000';
    const slow = recordedEvent(stream, 1);
    const after = recordedEvent(stream, 2);
    const handled: string[] = [];
    consumer = new EventConsumer({
      kafka, groupId: `${topics.documents}.slow`, topics: [topics.documents], retry: FAST_RETRY, deadLetterTopic: topics.deadLetter,
      sessionTimeout: 2_000, heartbeatInterval: 300,
      // Longer than the session, and the handler never heartbeats itself.
      handle: async (event) => {
        handled.push(event.eventId);
        if (event.eventId === slow.eventId) await new Promise((resolve) => setTimeout(resolve, 5_000));
      },
    });
    await consumer.start();
    await publish(slow, after);
    await waitFor('the event after the slow one', () => handled.includes(after.eventId));
    // A lost session would have redelivered the uncommitted slow event first.
    expect(handled).toEqual([slow.eventId, after.eventId]);
  });

  it('delivers the events of each stream in order', async () => {
    const streams = Array.from({ length: 8 }, (_, i) => `document-0000000${i}-aaaa-4bbb-8ccc-000000000000`);
    const perStream = 40;
    // Published in several batches, interleaving the streams, as the outbox relay does.
    for (let position = 1; position <= perStream; position += 10) {
      const batch: RecordedEvent[] = [];
      for (let p = position; p < position + 10; p++) for (const stream of streams) batch.push(recordedEvent(stream, p));
      await publish(...batch);
    }
    // At-least-once: a produce retried right after topic creation (NOT_LEADER while the new
    // partitions settle, KAFKA-15780) can write a batch twice. Consumers de-duplicate on
    // eventId, so the order that matters is that of first sightings.
    const firstSeen = new Map<string, number[]>();
    const partitions = new Map<string, Set<number>>();
    const eventIds = new Set<string>();
    await startConsumer(async (event, ctx) => {
      partitions.set(event.streamId, (partitions.get(event.streamId) ?? new Set<number>()).add(ctx.partition));
      if (eventIds.has(event.eventId)) return;
      eventIds.add(event.eventId);
      firstSeen.set(event.streamId, [...(firstSeen.get(event.streamId) ?? []), event.streamPosition]);
    });

    await waitFor('all events', () => eventIds.size >= streams.length * perStream);

    const expected = Array.from({ length: perStream }, (_, i) => i + 1);
    for (const stream of streams) {
      expect(firstSeen.get(stream)).toEqual(expected);
      expect(partitions.get(stream)?.size).toBe(1);
    }
    // The keys really spread over several partitions, so the order above is per key, not global.
    expect(new Set(streams.map((s) => [...partitions.get(s)!][0])).size).toBeGreaterThan(1);
  });

  it('#11 handles the streams of one partition at the same time, each stream in order', async () => {
    // All on partition 0: A1, B1, A2. One at a time, A1 would wait for B1 forever (B1 is behind it).
    const a = 'document-0000000a-aaaa-4bbb-8ccc-000000000000';
    const b = 'document-0000000b-aaaa-4bbb-8ccc-000000000000';
    const [a1, b1, a2] = [recordedEvent(a, 1), recordedEvent(b, 1), recordedEvent(a, 2)];
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: topics.documents, messages: [a1, b1, a2].map((e) => ({ key: e.streamId, value: encodeEvent(e), partition: 0 })) });
    await producer.disconnect();
    let bStarted!: () => void;
    const bStartedOnce = new Promise<void>((resolve) => (bStarted = resolve));
    const log: string[] = [];
    consumer = new EventConsumer({ kafka, groupId: `${topics.documents}.worker`, topics: [topics.documents], retry: FAST_RETRY, deadLetterTopic: topics.deadLetter, ...TIMING, handlerConcurrency: 4, handle: async (event) => {
      const name = `${event.streamId === a ? 'A' : 'B'}${event.streamPosition}`;
      if (log.includes(`${name} start`)) return;
      log.push(`${name} start`);
      if (name === 'B1') bStarted();
      if (name === 'A1') {
        await Promise.race([bStartedOnce, new Promise((_, reject) => setTimeout(() => reject(new AppError('validation', 'TEST.SERIAL', 'B1 never started while A1 ran', { retriable: false })), 10_000))]);
      }
      log.push(`${name} end`);
    } });
    await consumer.start();
    await waitFor('all three', () => log.filter((l) => l.endsWith('end')).length === 3, 20_000);
    expect(log.indexOf('B1 start')).toBeLessThan(log.indexOf('A1 end'));
    expect(log.indexOf('A2 start')).toBeGreaterThan(log.indexOf('A1 end'));
    expect(await messageCount(kafka, topics.deadLetter)).toBe(0);
  });

  it('retries a failing handler and handles the event once it succeeds, without dead-lettering', async () => {
    const event = recordedEvent('document-11111111-aaaa-4bbb-8ccc-000000000000', 1);
    const attempts: number[] = [];
    let handled = 0;
    await startConsumer(async (_event, ctx) => {
      attempts.push(ctx.attempt);
      if (ctx.attempt === 1) throw new Error('socket hang up'); // not an AppError: treated as retriable
      if (ctx.attempt === 2) throw unavailable();
      handled++;
    });
    await publish(event);

    await waitFor('the third attempt', () => handled === 1);

    expect(attempts).toEqual([1, 2, 3]);
    expect(await messageCount(kafka, topics.deadLetter)).toBe(0);
  });

  it('dead-letters an event that keeps failing with a retriable error, and moves on', async () => {
    const stream = 'document-22222222-aaaa-4bbb-8ccc-000000000000';
    const poison = recordedEvent(stream, 1);
    const next = recordedEvent(stream, 2);
    const calls: Array<{ position: number; attempt: number; partition: number; offset: string }> = [];
    await startConsumer(async (event, ctx) => {
      calls.push({ position: event.streamPosition, attempt: ctx.attempt, partition: ctx.partition, offset: ctx.offset });
      if (event.eventId === poison.eventId) throw unavailable();
    });
    await publish(poison, next);

    await waitFor('the next event', () => calls.some((c) => c.position === 2));

    expect(calls.map((c) => [c.position, c.attempt])).toEqual([[1, 1], [1, 2], [1, 3], [2, 1]]);
    expect(calls[3].partition).toBe(calls[0].partition);
    const [dead] = await readTopic(kafka, topics.deadLetter, 1);
    expect(dead.key?.toString()).toBe(stream);
    expect(JSON.parse(dead.value!.toString())).toEqual(poison);
    expect(header(dead, 'x-original-topic')).toBe(topics.documents);
    expect(header(dead, 'x-original-partition')).toBe(String(calls[0].partition));
    expect(header(dead, 'x-original-offset')).toBe(calls[0].offset);
    expect(header(dead, 'x-consumer-group')).toBe(`${topics.documents}.worker`);
    expect(header(dead, 'x-error-code')).toBe('PEPPOL.UNREACHABLE');
    expect(header(dead, 'x-error-message')).toBe('The access point did not answer.');
    expect(header(dead, 'x-attempts')).toBe('3');
    expect(Date.parse(header(dead, 'x-failed-at') ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect(header(dead, 'x-event-id')).toBe(poison.eventId); // the original headers stay
  });

  it('dead-letters a non-retriable error after one attempt', async () => {
    const event = recordedEvent('document-33333333-aaaa-4bbb-8ccc-000000000000', 1);
    const attempts: number[] = [];
    await startConsumer(async (_event, ctx) => {
      attempts.push(ctx.attempt);
      throw rejected();
    });
    await publish(event);

    const [dead] = await readTopic(kafka, topics.deadLetter, 1);

    expect(attempts).toEqual([1]);
    expect(header(dead, 'x-error-code')).toBe('PEPPOL.RECEIVER_UNKNOWN');
    expect(header(dead, 'x-attempts')).toBe('1');
    expect(JSON.parse(dead.value!.toString())).toEqual(event);
  });

  it('dead-letters a message that is not a RecordedEvent without calling the handler', async () => {
    const stream = 'document-44444444-aaaa-4bbb-8ccc-000000000000';
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic: topics.documents,
      acks: -1,
      messages: [
        { key: stream, value: '{"eventId": "truncated' },
        { key: stream, value: JSON.stringify({ hello: 'world' }) },
      ],
    });
    await producer.disconnect();
    const valid = recordedEvent(stream, 1);
    await publish(valid);
    const handled: RecordedEvent[] = [];
    await startConsumer(async (event) => {
      handled.push(event);
    });

    const dead = await readTopic(kafka, topics.deadLetter, 2);
    await waitFor('the valid event', () => handled.length === 1);

    expect(handled).toEqual([valid]);
    expect(dead.map((m) => m.value?.toString())).toEqual(['{"eventId": "truncated', '{"hello":"world"}']);
    expect(dead.map((m) => header(m, 'x-error-code'))).toEqual(['KAFKA.MALFORMED_MESSAGE', 'KAFKA.MALFORMED_MESSAGE']);
    expect(dead.map((m) => header(m, 'x-attempts'))).toEqual(['0', '0']);
    expect(header(dead[0], 'x-original-offset')).toBe('0');
  });

  it('passes over, without decoding, an event whose headers name a type it does not handle', async () => {
    const stream = 'document-66666666-aaaa-4bbb-8ccc-000000000000';
    const producer = kafka.producer();
    await producer.connect();
    // A value that cannot be decoded: were it decoded, it would be dead-lettered.
    await producer.send({
      topic: topics.documents,
      acks: -1,
      messages: [{ key: stream, value: '{"a 16 MB bulk, say', headers: { 'x-event-type': 'MyInvoisDocumentsSubmitted' } }],
    });
    await producer.disconnect();
    // Same key, so same partition, after it: handled only once the one before was passed over.
    const handled = recordedEvent(stream, 2);
    await publish(handled);
    const seen: string[] = [];
    const asked: string[] = [];
    consumer = new EventConsumer({
      kafka,
      groupId: `${topics.documents}.worker`,
      topics: [topics.documents],
      handles: ({ type }) => (asked.push(type), type === 'DocumentSubmitted'),
      handle: async (event) => void seen.push(event.eventId),
      retry: FAST_RETRY,
      deadLetterTopic: topics.deadLetter,
      ...TIMING,
    });
    await consumer.start();

    await waitFor('the handled event', () => seen.length === 1);

    expect(seen).toEqual([handled.eventId]);
    expect(asked).toEqual(['MyInvoisDocumentsSubmitted', 'DocumentSubmitted']);
    expect(await messageCount(kafka, topics.deadLetter)).toBe(0);
  });

  it('stop() waits for the message in flight and commits it', async () => {
    const event = recordedEvent('document-55555555-aaaa-4bbb-8ccc-000000000000', 1);
    // Barrier: the handler finishes only once stop() has begun (kafkajs's disconnect was called).
    let stopBegun!: () => void;
    const stopping = new Promise<void>((resolve) => (stopBegun = resolve));
    const spied: Kafka = Object.assign(Object.create(kafka) as Kafka, {
      consumer: (config: Parameters<Kafka['consumer']>[0]) => {
        const inner = kafka.consumer(config);
        const disconnect = inner.disconnect.bind(inner);
        return Object.assign(inner, { disconnect: () => (stopBegun(), disconnect()) });
      },
    });
    const order: string[] = [];
    let started: MessageContext | undefined;
    const running = new EventConsumer({
      kafka: spied,
      groupId: `${topics.documents}.worker`,
      topics: [topics.documents],
      handle: async (_event, ctx) => {
        started = ctx;
        await stopping;
        order.push('handler finished');
      },
      retry: FAST_RETRY,
      deadLetterTopic: topics.deadLetter,
      ...TIMING,
    });
    await running.start();
    await publish(event);
    await waitFor('the handler to start', () => started !== undefined);

    await running.stop();
    order.push('stop resolved');

    expect(order).toEqual(['handler finished', 'stop resolved']);
    const admin = kafka.admin();
    await admin.connect();
    const [committed] = await admin.fetchOffsets({ groupId: `${topics.documents}.worker`, topics: [topics.documents] });
    await admin.disconnect();
    const partition = committed.partitions.find((p) => p.partition === started!.partition);
    expect(partition?.offset).toBe(String(Number(started!.offset) + 1));
  });

  /** The group's committed offset of each partition of the documents topic. */
  const committedOffsets = async (groupId: string) => {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const [committed] = await admin.fetchOffsets({ groupId, topics: [topics.documents] });
      return new Map(committed.partitions.map((p) => [p.partition, p.offset]));
    } finally {
      await admin.disconnect();
    }
  };

  it('commits what it handled within its commit interval although no further message comes', async () => {
    const groupId = `${topics.documents}.worker`;
    // By offset: a consumer restarted by kafkajs (a broker still electing leaders) may handle one twice.
    const handled = new Map<string, MessageContext>();
    consumer = new EventConsumer({ kafka, groupId, topics: [topics.documents], handle: async (_e, ctx) => void handled.set(ctx.offset, ctx), retry: FAST_RETRY, deadLetterTopic: topics.deadLetter, commitIntervalMs: 200, ...TIMING });
    await consumer.start();
    const stream = 'document-66666666-aaaa-4bbb-8ccc-000000000000';
    await publish(recordedEvent(stream, 1), recordedEvent(stream, 2), recordedEvent(stream, 3));
    await waitFor('three handled', () => handled.size === 3, 45_000);

    // Still running, nothing more to fetch: the timer commits (the consumer lag falls back to 0).
    const last = [...handled.values()].reduce((a, b) => (Number(a.offset) > Number(b.offset) ? a : b));
    await eventually('the offsets committed', async () => Number((await committedOffsets(groupId)).get(last.partition)) > Number(last.offset) || undefined, 10_000);
  });

  it('#11 passes over, and commits, a batch of events it does not handle without running a handler', async () => {
    const groupId = `${topics.documents}.worker`;
    const stream = 'document-77777777-aaaa-4bbb-8ccc-000000000000';
    const passedOver = [recordedEvent(stream, 1), recordedEvent(stream, 2)].map((e) => ({ ...e, type: 'DocumentDelivered' }));
    const handled = recordedEvent(stream, 3);
    const seen: string[] = [];
    consumer = new EventConsumer({
      kafka, groupId, topics: [topics.documents], handles: ({ type }) => type === 'DocumentSubmitted', handle: async (event) => void seen.push(event.eventId),
      retry: FAST_RETRY, deadLetterTopic: topics.deadLetter, commitIntervalMs: 200, ...TIMING,
    });
    await consumer.start();
    await publish(...passedOver);
    // Same key, same partition: committed past both although no handler ran for either.
    const [partition, offsetBefore] = await eventually('the passed-over events committed', async () => {
      const committed = [...(await committedOffsets(groupId))].find(([, offset]) => Number(offset) >= 2);
      return committed;
    }, 30_000);
    expect(seen).toEqual([]);
    await publish(handled);
    await waitFor('the handled event', () => seen.length === 1, 30_000);
    expect(seen).toEqual([handled.eventId]);
    await eventually('its offset committed', async () => Number((await committedOffsets(groupId)).get(partition)) > Number(offsetBefore) || undefined, 10_000);
  });

  it('stop() commits what was handled since the last commit, not only the message in flight', async () => {
    const groupId = `${topics.documents}.worker`;
    const handled: MessageContext[] = [];
    // An interval longer than the test: only stop() can have committed.
    consumer = new EventConsumer({ kafka, groupId, topics: [topics.documents], handle: async (_e, ctx) => void handled.push(ctx), retry: FAST_RETRY, deadLetterTopic: topics.deadLetter, commitIntervalMs: 600_000, ...TIMING });
    await consumer.start();
    await publish(recordedEvent('document-77777777-aaaa-4bbb-8ccc-000000000000', 1));
    await waitFor('handled', () => handled.length >= 1, 45_000);
    // Let the batch return to kafkajs first, so that no batch is in flight when stop() begins.
    await new Promise((resolve) => setTimeout(resolve, 300));

    await consumer.stop();
    consumer = undefined;

    const committed = await committedOffsets(groupId);
    expect(committed.get(handled[0].partition)).toBe(String(Number(handled[0].offset) + 1));
  });

  it('commits a long batch\'s handled messages while the batch still runs (a rebalance then re-handles only the rest)', async () => {
    const groupId = `${topics.documents}.worker`;
    const stream = 'document-88888888-aaaa-4bbb-8ccc-000000000000';
    // One stream, so one partition and one chain, in one batch: published before the consumer joins.
    await publish(...[1, 2, 3, 4, 5].map((n) => recordedEvent(stream, n)));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const handled = new Map<number, MessageContext>();
    consumer = new EventConsumer({
      kafka,
      groupId,
      topics: [topics.documents],
      handle: async (event, ctx) => {
        handled.set(event.streamPosition, ctx);
        if (event.streamPosition === 5) await held;
      },
      retry: FAST_RETRY,
      deadLetterTopic: topics.deadLetter,
      commitIntervalMs: 200,
      ...TIMING,
    });
    await consumer.start();
    try {
      await waitFor('the last one begun', () => handled.has(5), 45_000);
      const fourth = handled.get(4) as MessageContext;
      // The batch is still running (its last handler waits): the first four are committed all the same.
      await eventually('the first four committed', async () => (await committedOffsets(groupId)).get(fourth.partition) === String(Number(fourth.offset) + 1) || undefined, 10_000);
    } finally {
      release();
    }
  });

  it('keeps its session through a batch of short handlers longer than the session timeout: each handled once', async () => {
    const groupId = `${topics.documents}.worker`;
    const stream = 'document-99999999-aaaa-4bbb-8ccc-000000000000';
    // One stream: one chain, one after the other, 25 × 300 ms > the 6 s session; each handler shorter than
    // the heartbeat interval (500 ms), and no commit before the end (10 min) to renew the session either.
    await publish(...Array.from({ length: 25 }, (_, i) => recordedEvent(stream, i + 1)));
    const handled: number[] = [];
    consumer = new EventConsumer({
      kafka,
      groupId,
      topics: [topics.documents],
      // The handlers' own length is what the test is about (short each, long together), not a wait for something.
      handle: async (event) => {
        handled.push(event.streamPosition);
        await new Promise((resolve) => setTimeout(resolve, 300));
      },
      retry: FAST_RETRY,
      deadLetterTopic: topics.deadLetter,
      commitIntervalMs: 600_000,
      ...TIMING,
    });
    await consumer.start();
    await waitFor('all 25 handled', () => new Set(handled).size === 25, 60_000);
    // A lost session hands the partition back, and what was not committed is handled again before anything
    // published after it: a marker behind the batch, on its partition, comes after any such redelivery.
    await publish(recordedEvent(stream, 26));
    await waitFor('the marker handled', () => handled.includes(26), 30_000);
    expect(handled).toEqual(Array.from({ length: 26 }, (_, i) => i + 1));
  });
});
