import type { DataSource } from 'typeorm';
import type { RecordedEvent } from '../../events';
import { type EncodedEvent, encodedEventText } from '../kafka/codec';
import { type StoredEventColumns, toRecordedEvent } from './unit-of-work';

/** Statements answered with their rows: the relay's session (relay-lease.ts). */
export interface RowQueries {
  /** `prepare`: the session may keep the statement prepared (relay-lease.ts: only where its plan does not depend on the table's size). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows are typed by each caller, as DataSource.query's
  query(sql: string, params?: unknown[], options?: { readonly prepare?: boolean }): Promise<any[]>;
}

/** An outbox row as the relay publishes it. */
export interface OutboxRow {
  readonly id: string;
  readonly topic: string;
  readonly aggregate_id: string;
  /** The event: written already (its data as PostgreSQL's text, not parsed), or as stored in the row (rows before issue 11). */
  readonly payload: RecordedEvent | EncodedEvent;
  /** Stored size of the payload (`pg_column_size`, after PostgreSQL's own compression): bounds a batch without reading it twice. */
  readonly stored_bytes: number;
}

/** A row the broker refused (parked): not published, shown in GET /health until released. */
export interface ParkedOutboxRow {
  readonly id: string;
  readonly eventId: string;
  readonly type: string;
  readonly streamId: string;
  readonly topic: string;
  readonly storedBytes: number;
  readonly error: string | null;
  readonly parkedAt: string;
}

/** `topic LIKE` pattern of a topic prefix (`_` and `%` taken literally). */
export function topicPattern(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, '\\$&')}.%`;
}

/**
 * The next rows to publish, in id order: at most `limit` rows and about `maxBytes` of stored
 * payload (always at least one row, however large), so that a backlog of large events never
 * loads gigabytes at once. A row behind a parked row of the same stream waits with it: the
 * events of an aggregate reach Kafka in order or not at all.
 *
 * One pass over the rows and their events (issue 11): the innermost query takes the first `limit`
 * rows with their events' columns, `e.data` among them as PostgreSQL's reference to its stored value
 * (a large value stays in its TOAST table through the sort and the running sum), and only the rows
 * within `maxBytes` have their data turned into text. Reading the rows a second time by id, as the
 * query did before, was more than half of its buffer reads (301 against 132 for 20 rows). The area
 * comes from the row (migration OutboxArea): each access to `e.data` unpacks the whole stored value.
 * Nor is the data of an event whose text was `handed` to this relay read (its row names the relay:
 * migration OutboxHandedTo): its stored value is never unpacked, unless the text is gone (a relay
 * restarted, a text evicted), when a second query reads the data of just those.
 */
export async function nextOutboxRows(session: RowQueries, pattern: string, limit: number, maxBytes: number, handed?: HandedTexts): Promise<OutboxRow[]> {
  const rows: Array<Omit<StoredEventColumns, 'data'> & { id: string; topic: string; aggregate_id: string; payload: RecordedEvent | null; stored_bytes: number; data_text: string | null; data_area: string | null }> = await session.query(
    `SELECT b.id, b.topic, b.aggregate_id, b.payload, b.stored_bytes::int AS stored_bytes,
            b.event_id, b.stream_id, b.stream_position, b.global_position, b.type, b.schema_version, b.metadata, b.recorded_at,
            CASE WHEN b.handed_to = $4::text THEN NULL ELSE b.data::text END AS data_text,
            CASE WHEN b.area IS NOT NULL THEN NULLIF(b.area, '') WHEN jsonb_typeof(b.data->'area') = 'string' THEN b.data->>'area' END AS data_area
     FROM (
       SELECT c.*, sum(c.stored_bytes) OVER (ORDER BY c.id) - c.stored_bytes AS before
       FROM (
         SELECT o.id, o.topic, o.aggregate_id, o.payload, o.area, o.handed_to,
                e.event_id, e.stream_id, e.stream_position, e.global_position, e.type, e.schema_version, e.metadata, e.recorded_at, e.data,
                ${STORED_BYTES} AS stored_bytes
         FROM outbox o LEFT JOIN events e ON o.payload IS NULL AND e.event_id = o.event_id
         WHERE o.processed_at IS NULL AND o.abandoned_at IS NULL AND o.topic LIKE $2
           AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.aggregate_id = o.aggregate_id AND p.abandoned_at IS NOT NULL AND p.processed_at IS NULL AND p.id < o.id)
         ORDER BY o.id LIMIT $1
       ) c
     ) b
     WHERE b.before < $3
     ORDER BY b.id`,
    [limit, pattern, maxBytes, handed?.holder ?? null],
    // Prepared: its plan (the pending rows' partial index) is the best one at any size; planning it was ~0.9 ms a call.
    { prepare: true },
  );
  // NULL only for a row handed to this relay: its text as handed over, or else (gone) as stored.
  const texts = new Map<string, string>();
  const gone: string[] = [];
  for (const r of rows) {
    if (r.payload !== null || r.data_text !== null) continue;
    const text = handed?.get(r.event_id);
    if (text === undefined) gone.push(r.event_id);
    else texts.set(r.event_id, text);
  }
  if (gone.length > 0) {
    const stored: Array<{ event_id: string; data_text: string }> = await session.query(`SELECT event_id, data::text AS data_text FROM events WHERE event_id = ANY($1::uuid[])`, [gone], { prepare: true });
    for (const { event_id, data_text } of stored) texts.set(event_id, data_text);
  }
  // Rows written before issue 11 carry the event as their payload; later ones name it.
  return rows.map((r) => ({
    id: r.id,
    topic: r.topic,
    aggregate_id: r.aggregate_id,
    stored_bytes: r.stored_bytes,
    payload: r.payload ?? encodedEventOf(r, r.data_text ?? (texts.get(r.event_id) as string)),
  }));
}

/** The data texts a relay was handed as their units committed (event-texts.ts), and the name its process's outbox rows give it. */
export interface HandedTexts {
  readonly holder: string;
  get(eventId: string): string | undefined;
}

/** The event of a row that names it, its value written around its data's text (encodedEventText). */
function encodedEventOf(row: Omit<StoredEventColumns, 'data'> & { data_area: string | null }, dataText: string): EncodedEvent {
  const event = toRecordedEvent({ ...row, data: {} });
  return {
    eventId: event.eventId,
    streamId: event.streamId,
    type: event.type,
    metadata: event.metadata,
    data: row.data_area === null ? {} : { area: row.data_area },
    text: encodedEventText(event, dataText),
  };
}

/** Stored size of what a row publishes: its own payload (rows before issue 11) or its event's data and metadata. */
const STORED_BYTES = `COALESCE(pg_column_size(o.payload), pg_column_size(e.data) + pg_column_size(e.metadata), 0)`;

/** Splits rows (in order) into publishes of at most `maxBytes` stored bytes; a larger row goes alone. */
export function chunkRows(rows: readonly OutboxRow[], maxBytes: number): OutboxRow[][] {
  const chunks: OutboxRow[][] = [];
  let current: OutboxRow[] = [];
  let bytes = 0;
  for (const row of rows) {
    if (current.length > 0 && bytes + row.stored_bytes > maxBytes) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(row);
    bytes += row.stored_bytes;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

export async function markPublished(session: RowQueries, rows: readonly OutboxRow[]): Promise<void> {
  await session.query(`UPDATE outbox SET processed_at = now(), attempts = attempts + 1 WHERE id = ANY($1::bigint[])`, [rows.map((r) => r.id)]);
}

/** Parks a row the broker refused (`abandoned_at`, the outbox row's field for it, with the error). */
export async function parkRow(session: RowQueries, row: OutboxRow, error: string): Promise<void> {
  await session.query(`UPDATE outbox SET abandoned_at = now(), attempts = attempts + 1, last_error = $2 WHERE id = $1`, [row.id, error.slice(0, 2000)]);
}

/** Parked rows of a topic prefix: how many, and the first `limit` of them (in id order, after row `afterId` when given: a page of `GET /v1/operations/outbox/parked`). */
export async function parkedOutboxRows(dataSource: DataSource, prefix: string, limit = 20, afterId?: string): Promise<{ count: number; rows: ParkedOutboxRow[] }> {
  const pattern = topicPattern(prefix);
  const [{ n }] = await dataSource.query(`SELECT count(*)::int AS n FROM outbox WHERE abandoned_at IS NOT NULL AND processed_at IS NULL AND topic LIKE $1`, [pattern]);
  const rows: Array<Record<string, unknown>> = await dataSource.query(
    `SELECT o.id, o.event_id, o.message_type, o.aggregate_id, o.topic, ${STORED_BYTES}::int AS stored_bytes, o.last_error, o.abandoned_at
     FROM outbox o LEFT JOIN events e ON o.payload IS NULL AND e.event_id = o.event_id
     WHERE o.abandoned_at IS NOT NULL AND o.processed_at IS NULL AND o.topic LIKE $1 AND ($3::bigint IS NULL OR o.id > $3::bigint) ORDER BY o.id LIMIT $2`,
    [pattern, limit, afterId ?? null],
  );
  return {
    count: Number(n),
    rows: rows.map((r) => ({
      id: String(r.id),
      eventId: String(r.event_id),
      type: String(r.message_type),
      streamId: String(r.aggregate_id),
      topic: String(r.topic),
      storedBytes: Number(r.stored_bytes),
      error: (r.last_error as string | null) ?? null,
      parkedAt: new Date(r.abandoned_at as string).toISOString(),
    })),
  };
}

/**
 * Puts parked rows back in line (all of the prefix, or the given ids), e.g. after the topics'
 * limit was raised, and wakes the relays; they are published before the rows that waited behind
 * them. Returns the ids released.
 */
export async function releaseParkedRows(dataSource: DataSource, prefix: string, ids?: readonly string[]): Promise<string[]> {
  // TypeORM answers an UPDATE ... RETURNING as [rows, affected count].
  const [rows]: [Array<{ id: string }>, number] = await dataSource.query(
    `UPDATE outbox SET abandoned_at = NULL
     WHERE abandoned_at IS NOT NULL AND processed_at IS NULL AND topic LIKE $1 AND ($2::bigint[] IS NULL OR id = ANY($2::bigint[]))
     RETURNING id`,
    [topicPattern(prefix), ids ? [...ids] : null],
  );
  await dataSource.query(`SELECT pg_notify('outbox', '')`);
  return rows.map((r) => String(r.id)).sort((a, b) => Number(a) - Number(b));
}
