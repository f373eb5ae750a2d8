// An internal consumer of `<prefix>.documents` with a consumer group of its own (docs/consuming-events.md
// shows this file whole; test/e2e/consuming-events.e2e.spec.ts runs it against a real broker).
// Run: KAFKA_BROKERS=127.0.0.1:9092 KAFKA_TOPIC_PREFIX=einvoice node docs/examples/consume-documents.ts
import { Kafka, logLevel } from 'kafkajs';

/** The value of every message (GET /asyncapi.json: each message's payload). */
interface RecordedEvent {
  eventId: string;
  streamId: string;
  streamPosition: number;
  globalPosition: string;
  type: string;
  schemaVersion: number;
  data: Record<string, unknown>;
  metadata: { tenantId: string; correlationId?: string; causationId?: string };
  recordedAt: string;
}

const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
const prefix = process.env.KAFKA_TOPIC_PREFIX ?? 'einvoice';
// A group of its own: it reads every message of the topic, at its own pace, whatever the workers' groups do.
const groupId = process.env.GROUP_ID ?? `${prefix}.archiver`;
// What this consumer handles; any other type is passed over on its header, its value never parsed.
const handledTypes = new Set(['DocumentSubmitted', 'DocumentSent', 'DocumentDelivered', 'DocumentDeliveryFailed']);

const kafka = new Kafka({ clientId: groupId, brokers, logLevel: logLevel.WARN });
const consumer = kafka.consumer({ groupId });
// At least once: an event comes again after a crash or a rebalance. Keep the ids handled in the same
// transaction as what handling them changes (here, in memory: an example).
const handled = new Set<string>();

async function handle(event: RecordedEvent): Promise<void> {
  // DocumentSubmitted carries the rendered UBL (`data.xml`); the others name the document by `data.documentId`.
  const xml = typeof event.data.xml === 'string' ? event.data.xml : undefined;
  const line = {
    type: event.type,
    eventId: event.eventId,
    documentId: event.data.documentId,
    schemaVersion: event.schemaVersion,
    streamPosition: event.streamPosition,
    xmlBytes: xml === undefined ? undefined : Buffer.byteLength(xml),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

await consumer.connect();
await consumer.subscribe({ topic: `${prefix}.documents`, fromBeginning: true });
await consumer.run({
  eachMessage: async ({ message }) => {
    const type = message.headers?.['x-event-type']?.toString();
    if (type === undefined || !handledTypes.has(type) || message.value === null) return;
    const event = JSON.parse(message.value.toString('utf8')) as RecordedEvent;
    if (handled.has(event.eventId)) return;
    await handle(event);
    handled.add(event.eventId);
  },
});
// Leave the group on SIGTERM or Ctrl-C: its partitions go to the group's other members at once.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void consumer.disconnect().then(() => process.exit(0)));
}
