/**
 * Events and commands are plain readonly data with an explicit `type` string
 * (emmett style, STYLE.md). Names are written out, never derived from class names.
 */

/** Who caused an event and why; stored in `events.metadata` and carried on Kafka. */
export interface EventMetadata {
  readonly tenantId: string;
  readonly correlationId?: string;
  readonly causationId?: string;
  readonly idempotencyKey?: string;
  /**
   * The versioned rule set of the area the command was validated under (`peppol-bis-3:billing:2026.5`,
   * area registry), so a document can be re-checked against the rules it was accepted by.
   */
  readonly ruleSetId?: string;
  /**
   * The W3C trace context (`traceparent`) of the span that caused the event (the gateway's request, a
   * worker's handling), when traces are on: the trace goes on through the outbox, Kafka and the workers.
   */
  readonly traceparent?: string;
}

/** An event as deciders produce it, before it has a position in a stream. */
export interface Event<Type extends string = string, Data extends object = object> {
  readonly type: Type;
  readonly data: Data;
  /** Bumped when the shape of `data` changes; readers upcast older versions. */
  readonly schemaVersion?: number;
}

/** A command: imperative name, plain data. */
export interface Command<Type extends string = string, Data extends object = object> {
  readonly type: Type;
  readonly data: Data;
}

/**
 * An event as stored and as published on Kafka (the message value is this object as JSON,
 * the message key is `streamId`, so the events of one aggregate stay in order).
 */
export interface RecordedEvent<E extends Event = Event> {
  /** Unique id of this event: consumers de-duplicate on it. */
  readonly eventId: string;
  readonly streamId: string;
  /** 1-based position inside its stream. */
  readonly streamPosition: number;
  /** Position in the whole store; informational only, never a queue cursor. */
  readonly globalPosition: string;
  readonly type: E['type'];
  readonly schemaVersion: number;
  readonly data: E['data'];
  readonly metadata: EventMetadata;
  /** ISO 8601 UTC. */
  readonly recordedAt: string;
}

/** Aggregate kind of a stream id `<kind>-<id>`, e.g. `document-4f1c...` is `document`. */
export function streamKind(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash < 0 ? streamId : streamId.slice(0, dash);
}
