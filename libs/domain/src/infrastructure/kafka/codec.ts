import type { IHeaders } from 'kafkajs';
import { AppError } from '../../errors';
import type { RecordedEvent } from '../../events';

/** Message value: the RecordedEvent as JSON (events.ts); the key is its `streamId`. */
export function encodeEvent(event: RecordedEvent | EncodedEvent): string {
  return isEncoded(event) ? event.text : JSON.stringify(event);
}

/**
 * An event whose message value is already written (`text`, what encodeEvent would write), with what
 * its headers read (eventHeaders): the outbox relay's, whose data PostgreSQL hands over as text.
 * Parsing it only to stringify it again was ~3% of the gateway's CPU (issue 11; a submission's event
 * carries its UBL).
 */
export interface EncodedEvent {
  readonly eventId: string;
  readonly streamId: string;
  readonly type: string;
  readonly metadata: RecordedEvent['metadata'];
  /** Of its data, what the headers read: `area` (AreaOf), when it is a string. */
  readonly data: { readonly area?: string };
  readonly text: string;
}

export function isEncoded(event: RecordedEvent | EncodedEvent): event is EncodedEvent {
  return typeof (event as Partial<EncodedEvent>).text === 'string';
}

/**
 * The value encodeEvent writes for an event whose data is JSON text already (PostgreSQL's text of a
 * jsonb: the same value, spaced after its colons and commas; or the text its unit of work wrote,
 * event-texts.ts): the RecordedEvent's fields in its order.
 */
export function encodedEventText(event: Omit<RecordedEvent, 'data'>, dataText: string): string {
  return (
    `{"eventId":${JSON.stringify(event.eventId)},"streamId":${JSON.stringify(event.streamId)},"streamPosition":${event.streamPosition},` +
    `"globalPosition":${JSON.stringify(event.globalPosition)},"type":${JSON.stringify(event.type)},"schemaVersion":${event.schemaVersion},` +
    `"data":${dataText},"metadata":${JSON.stringify(event.metadata)},"recordedAt":${JSON.stringify(event.recordedAt)}}`
  );
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

