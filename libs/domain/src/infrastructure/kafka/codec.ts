import type { IHeaders } from 'kafkajs';
import { AppError } from '../../errors';
import type { RecordedEvent } from '../../events';

/** Message value: the RecordedEvent as JSON (events.ts); the key is its `streamId`. */
export function encodeEvent(event: RecordedEvent): string {
  return JSON.stringify(event);
}

/**
 * Parses a message value back into a RecordedEvent. Anything else is a poison message: a
 * retry cannot fix it, so the error is non-retriable and the consumer dead-letters it at once.
 */
export function decodeEvent(value: Buffer | null): RecordedEvent {
  if (value === null) throw malformed('The message has no value (tombstone).');
  let parsed: unknown;
  try {
    parsed = JSON.parse(value.toString('utf8'));
  } catch (error) {
    throw malformed(`The message value is not JSON: ${(error as Error).message}`);
  }
  const missing = missingFields(parsed);
  if (missing.length > 0) throw malformed(`The message value is not a RecordedEvent (bad or missing: ${missing.join(', ')}).`);
  return parsed as RecordedEvent;
}

const STRING_FIELDS = ['eventId', 'streamId', 'globalPosition', 'type', 'recordedAt'] as const;
const NUMBER_FIELDS = ['streamPosition', 'schemaVersion'] as const;
const OBJECT_FIELDS = ['data', 'metadata'] as const;

function missingFields(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['(whole value)'];
  const record = value as Record<string, unknown>;
  return [
    ...STRING_FIELDS.filter((f) => typeof record[f] !== 'string'),
    ...NUMBER_FIELDS.filter((f) => typeof record[f] !== 'number'),
    ...OBJECT_FIELDS.filter((f) => typeof record[f] !== 'object' || record[f] === null),
  ];
}

function malformed(message: string): AppError {
  return new AppError('validation', 'KAFKA.MALFORMED_MESSAGE', message, { retriable: false });
}

/** Header value as a string (kafkajs hands them over as Buffers). */
export function headerString(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}

