import { CompressionTypes, ConfigResourceTypes, ConfigSource, type Admin } from 'kafkajs';

/**
 * Largest record batch our topics accept (topic `max.message.bytes`; Kafka's default is about
 * 1 MB). The largest event the API produces is a MyInvois bulk at MyInvois's limits (100
 * documents, 5 MB rendered) with `transport_mode: peppol`: about 16 MB of JSON, a third to a
 * half of that after GZIP (test/int/outbox-large-events.int.spec.ts measures it). 32 MiB carries
 * it twice over even uncompressed; the relay never puts more than one large event in a batch.
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/**
 * A batch carrying a message of this size or more is GZIP-compressed by the producer (kafkajs's
 * one built-in codec): a large event (a MyInvois bulk) is stored and fetched at a third of its
 * size. Batches of small events go as they are, however many: gzipping them cost the outbox relay
 * most of its time (issue 11: ~1 s per 500 invoices, the relay's ceiling at ~800 events/s), and
 * they fit the topics' limit uncompressed (the relay bounds a publish by size: outbox-relay.ts).
 */
export const COMPRESS_FROM_BYTES = 256 * 1024;

/** The producer's compression for a batch whose largest message value has `largestBytes` bytes. */
export function compressionFor(largestBytes: number): CompressionTypes {
  return largestBytes >= COMPRESS_FROM_BYTES ? CompressionTypes.GZIP : CompressionTypes.None;
}

/** What a topic is created with so that every event fits (plus the broker's defaults). */
export function topicConfigEntries(maxMessageBytes: number): Array<{ name: string; value: string }> {
  return [{ name: 'max.message.bytes', value: String(maxMessageBytes) }];
}

/**
 * Raises `max.message.bytes` of existing topics to `maxMessageBytes` (topics created before the
 * limit existed, or by hand); a higher value an operator set is left alone. AlterConfigs (the
 * only form kafkajs speaks) replaces a topic's whole set of overrides, so the topic's other
 * overrides are read first and sent back unchanged. Resolves once the broker reports the new
 * limit (it applies a config change a moment after AlterConfigs answers), so a parked row
 * released right after is not refused again. Returns the topics it changed.
 */
export async function raiseMessageLimit(admin: Admin, topics: readonly string[], maxMessageBytes: number): Promise<string[]> {
  const described = await admin.describeConfigs({
    includeSynonyms: false,
    resources: topics.map((name) => ({ type: ConfigResourceTypes.TOPIC, name })),
  });
  const changed: string[] = [];
  for (const resource of described.resources) {
    const overrides = resource.configEntries.filter((e) => e.configSource === ConfigSource.TOPIC_CONFIG && !e.isSensitive && e.configValue !== null);
    const current = resource.configEntries.find((e) => e.configName === 'max.message.bytes');
    if (current && Number(current.configValue) >= maxMessageBytes) continue;
    const configEntries = [
      ...overrides.filter((e) => e.configName !== 'max.message.bytes').map((e) => ({ name: e.configName, value: e.configValue })),
      ...topicConfigEntries(maxMessageBytes),
    ];
    await admin.alterConfigs({ validateOnly: false, resources: [{ type: ConfigResourceTypes.TOPIC, name: resource.resourceName, configEntries }] });
    changed.push(resource.resourceName);
  }
  if (changed.length > 0) await waitForLimit(admin, changed, maxMessageBytes);
  return changed;
}

async function waitForLimit(admin: Admin, topics: readonly string[], maxMessageBytes: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const described = await admin.describeConfigs({
      includeSynonyms: false,
      resources: topics.map((name) => ({ type: ConfigResourceTypes.TOPIC, name, configNames: ['max.message.bytes'] })),
    });
    const applied = described.resources.every((r) => r.configEntries.some((e) => e.configName === 'max.message.bytes' && Number(e.configValue) >= maxMessageBytes));
    if (applied) return;
    if (Date.now() > deadline) throw new Error(`max.message.bytes of ${topics.join(', ')} is not ${maxMessageBytes} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** kafkajs error types that say the broker will never take this batch as it is. */
const REFUSED_AS_IS = new Set(['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE', 'INVALID_RECORD', 'CORRUPT_MESSAGE', 'INVALID_REQUIRED_ACKS', 'POLICY_VIOLATION']);

/**
 * True when a produce failed for a reason that retrying the same messages cannot fix (the broker
 * refused them), as opposed to the broker being away or busy. kafkajs throws the protocol error
 * itself, or wraps it (KafkaJSNonRetriableError `cause`, KafkaJSAggregateError `errors`).
 */
export function isRefusedByBroker(error: unknown): boolean {
  const seen = new Set<unknown>();
  const visit = (e: unknown): boolean => {
    if (typeof e !== 'object' || e === null || seen.has(e)) return false;
    seen.add(e);
    const { type, cause, errors } = e as { type?: unknown; cause?: unknown; errors?: unknown };
    if (typeof type === 'string' && REFUSED_AS_IS.has(type)) return true;
    return visit(cause) || (Array.isArray(errors) && errors.some(visit));
  };
  return visit(error);
}
