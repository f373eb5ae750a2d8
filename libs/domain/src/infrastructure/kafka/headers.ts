import type { IHeaders } from 'kafkajs';
import { streamKind, type RecordedEvent } from '../../events';
import { headerString } from './codec';

/**
 * Headers the publisher sets on every event, so that a consumer can decide from them alone
 * whether it handles a message, without decoding its value (a MyInvois bulk is ~16 MB of JSON,
 * and the delivery worker, which shares its topic, has nothing to do with it).
 */
export const EVENT_HEADERS = {
  eventId: 'x-event-id',
  type: 'x-event-type',
  /** The event's area (`be`, `my`...), when it has one (`AreaOf`). */
  area: 'x-area',
  /** The kind of its stream (`document`, `myinvois`, `participant`...: `streamKind`). */
  streamKind: 'x-stream-kind',
} as const;

/**
 * Finds the area of an event, or `undefined` when it has none. Injectable (publisher option) so
 * that the area registry can supply it; the default reads `data.area`.
 */
export type AreaOf = (event: Pick<RecordedEvent, 'streamId' | 'data'>) => string | undefined;

/** The area an event names in `data.area` (documents and suppliers carry it), if it is a string. */
export const areaInData: AreaOf = (event) => {
  const area = (event.data as { area?: unknown }).area;
  return typeof area === 'string' ? area : undefined;
};

/** The headers of one published event (merged under the caller's own headers). */
export function eventHeaders(event: Pick<RecordedEvent, 'eventId' | 'type' | 'streamId' | 'data' | 'metadata'>, areaOf: AreaOf = areaInData): Record<string, string> {
  const area = areaOf(event);
  return {
    [EVENT_HEADERS.eventId]: event.eventId,
    [EVENT_HEADERS.type]: event.type,
    [EVENT_HEADERS.streamKind]: streamKind(event.streamId),
    ...(area === undefined ? {} : { [EVENT_HEADERS.area]: area }),
    // The trace goes on in the consumers (W3C trace context; the relay puts its own span here).
    ...(event.metadata.traceparent ? { traceparent: event.metadata.traceparent } : {}),
  };
}

/** What a consumer knows of a message before decoding it. */
export interface EventDescription {
  readonly type: string;
  readonly area?: string;
  readonly streamKind?: string;
}

/**
 * The description carried in a message's headers, or `undefined` for a message published
 * before the headers existed (no `x-event-type`): such a message is decoded to find out.
 */
export function describedByHeaders(headers: IHeaders | undefined): EventDescription | undefined {
  const type = headerString(headers, EVENT_HEADERS.type);
  if (type === undefined) return undefined;
  const area = headerString(headers, EVENT_HEADERS.area);
  return { type, area, streamKind: headerString(headers, EVENT_HEADERS.streamKind) };
}

/** The same description, from a decoded event (messages without headers). */
export function describedByEvent(event: RecordedEvent, areaOf: AreaOf = areaInData): EventDescription {
  return { type: event.type, area: areaOf(event), streamKind: streamKind(event.streamId) };
}
