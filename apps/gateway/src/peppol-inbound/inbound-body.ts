import type { LargeBodies } from '@einvoice/areas';

/** The AS4 engine's callback route (peppol-inbound.controller.ts), as a body-limit path prefix. */
export const PEPPOL_INBOUND_PATH = 'internal/peppol/inbound';

/**
 * AS4_INBOUND_BODY_LIMIT_BYTES, a positive whole number of bytes; unset, the topics' largest message
 * (KAFKA_MAX_MESSAGE_BYTES, 32 MiB): a received document becomes one DocumentReceived event, kept whole
 * in Kafka, and a larger one would be taken here only to be parked by the outbox relay (docs/peppol-as4.md
 * "Settings", measured). @throws Error naming the setting
 */
export function inboundBodyLimitBytes(env: NodeJS.ProcessEnv, kafkaMaxMessageBytes: number): number {
  const setting = env.AS4_INBOUND_BODY_LIMIT_BYTES?.trim();
  if (!setting) return kafkaMaxMessageBytes;
  const bytes = Number(setting);
  if (!Number.isSafeInteger(bytes) || bytes <= 0) {
    throw new Error(`AS4_INBOUND_BODY_LIMIT_BYTES must be a number of bytes (default: KAFKA_MAX_MESSAGE_BYTES, ${kafkaMaxMessageBytes}); it is "${setting}".`);
  }
  return bytes;
}

/**
 * The inbound callback's body limit, for the gateway's one per-path limit (`bodyLimitFor`); none while
 * AS4_ENGINE_SECRET is unset: the route then serves no one, so no one may send it more than any route.
 */
export function inboundLargeBodies(bytes: number, engineSecret: string | undefined): readonly LargeBodies[] {
  return engineSecret ? [{ bytes, pathPrefixes: [PEPPOL_INBOUND_PATH] }] : [];
}
