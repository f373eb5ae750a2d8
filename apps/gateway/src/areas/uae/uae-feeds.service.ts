import { Injectable } from '@nestjs/common';
import { AppError, issue } from '@einvoice/domain';
import { afterPositionSql, decodeFeedCursor, encodeFeedCursor, positionParams } from '@einvoice/domain/infrastructure';
import { Connections } from '../../infrastructure/infrastructure.module';
import type { SupplierRecord } from '../../suppliers/supplier-lookup';

export type FeedDirection = 'incoming' | 'outgoing';

/** Both vocabularies of the seed: `sent`/`outgoing`, `received`/`incoming`; answers say `outgoing`/`incoming`. */
const DIRECTIONS: Readonly<Record<string, FeedDirection>> = { sent: 'outgoing', outgoing: 'outgoing', received: 'incoming', incoming: 'incoming' };

/** `direction` as sent (query or body): required, one of the four words. */
export function feedDirection(value: unknown, path = 'direction'): FeedDirection {
  if (value === undefined || value === null || value === '') {
    throw new AppError('validation', 'REQUEST.INVALID', 'The request is invalid.', { issues: [issue(path, 'FIELD.REQUIRED', `${path} is required: sent, outgoing, received or incoming.`)] });
  }
  const direction = typeof value === 'string' ? DIRECTIONS[value] : undefined;
  if (!direction) throw new AppError('validation', 'REQUEST.INVALID', 'The request is invalid.', { issues: [issue(path, 'FIELD.INVALID_VALUE', `${path} must be one of: sent, outgoing, received, incoming.`)] });
  return direction;
}

interface EventRow {
  xid: string;
  seq: string;
  type: string;
  document_id: string;
  document_identifier: string | null;
  direction: FeedDirection;
  status: string;
  reporting: unknown;
  exchange: unknown;
  created_at: Date;
}

/**
 * The event feeds of a participant (issue 10 "Event feeds"; seed 001 "Events"). A page lists events
 * in (xid, seq) order and only those written by transactions older than every transaction still
 * running (`pg_snapshot_xmin`): a transaction that took its sequence number early but commits late
 * is still below that horizon while it runs, so its event can never appear behind a cursor handed
 * out already. The price: an event shows once every older transaction has ended (milliseconds,
 * unless something holds a transaction open).
 */
@Injectable()
export class UaeFeedsService {
  constructor(private readonly connections: Connections) {}

  async page(participant: SupplierRecord, query: { direction?: unknown; cursor?: unknown; ack_cursor?: unknown; limit?: unknown }) {
    const direction = feedDirection(query.direction);
    const limit = pageSize(query.limit);
    const cursor = optionalText(query.cursor, 'cursor');
    const ackCursor = optionalText(query.ack_cursor, 'ack_cursor');
    if (ackCursor) await this.ack(participant, direction, ackCursor, 'ack_cursor');
    const from = cursor ?? ackCursor;
    const after = from ? decodeFeedCursor(from, cursor ? 'cursor' : 'ack_cursor') : undefined;
    const rows: EventRow[] = await this.connections.dataSource.query(
      // Ordered by the columns themselves (`e.`): the text aliases would order 1000 before 999.
      `SELECT e.xid::text AS xid, e.seq::text AS seq, type, document_id, document_identifier, direction, status, reporting, exchange, created_at
       FROM uae_feed_events e
       WHERE supplier_id = $1 AND direction = $2 AND ${afterPositionSql('e', 3)}
       ORDER BY e.xid, e.seq LIMIT $5`,
      [participant.id, direction, ...positionParams(after), limit],
    );
    const events = rows.map((r) => ({
      id: encodeFeedCursor(r),
      type: r.type,
      document_id: r.document_id,
      document_identifier: r.document_identifier,
      direction: r.direction,
      status: r.status,
      reporting: r.reporting,
      exchange: r.exchange,
      created_at: new Date(r.created_at).toISOString(),
    }));
    // An empty page means caught up: its next_cursor is the one the caller holds.
    return { status: 'success', data: { direction }, events, next_cursor: events.at(-1)?.id ?? from ?? null };
  }

  /** `POST …/events/ack`: forward only; an acknowledgement behind the stored position is ignored. */
  async acknowledge(participant: SupplierRecord, body: unknown) {
    const fields = (typeof body === 'object' && body !== null ? body : {}) as { direction?: unknown; cursor?: unknown };
    const direction = feedDirection(fields.direction);
    if (typeof fields.cursor !== 'string' || fields.cursor === '') {
      // Seed: a cursor sent as a number is reported as a missing parameter.
      throw new AppError('validation', 'REQUEST.INVALID', 'The request is invalid.', { issues: [issue('cursor', 'FIELD.REQUIRED', 'Missing parameter cursor: the id (a string) of the last event processed.')] });
    }
    await this.ack(participant, direction, fields.cursor, 'cursor');
    return this.position(participant, { direction });
  }

  async position(participant: SupplierRecord, query: { direction?: unknown }) {
    const direction = feedDirection(query.direction);
    const [row]: Array<{ xid: string; seq: string }> = await this.connections.dataSource.query(
      `SELECT acked_xid::text AS xid, acked_seq::text AS seq FROM uae_feed_positions WHERE supplier_id = $1 AND direction = $2`,
      [participant.id, direction],
    );
    return { status: 'success', data: { direction, acked: row ? encodeFeedCursor(row) : null } };
  }

  /** Stores the position (an event of this feed) if it is ahead of the stored one. */
  private async ack(participant: SupplierRecord, direction: FeedDirection, cursor: string, path: string): Promise<void> {
    const { xid, seq } = decodeFeedCursor(cursor, path);
    const [event] = await this.connections.dataSource.query(
      `SELECT 1 FROM uae_feed_events WHERE supplier_id = $1 AND direction = $2 AND xid = $3::xid8 AND seq = $4::bigint`,
      [participant.id, direction, xid, seq],
    );
    if (!event) throw new AppError('validation', 'FEED.INVALID_CURSOR', `${path} is not an event of this feed.`, { issues: [issue(path, 'FIELD.INVALID_VALUE', `${path} must be an event id returned by this feed.`)] });
    await this.connections.dataSource.query(
      `INSERT INTO uae_feed_positions (supplier_id, direction, acked_xid, acked_seq) VALUES ($1, $2, $3::xid8, $4::bigint)
       ON CONFLICT (supplier_id, direction) DO UPDATE SET acked_xid = EXCLUDED.acked_xid, acked_seq = EXCLUDED.acked_seq, acked_at = now()
       WHERE (uae_feed_positions.acked_xid, uae_feed_positions.acked_seq) < (EXCLUDED.acked_xid, EXCLUDED.acked_seq)`,
      [participant.id, direction, xid, seq],
    );
  }
}

function optionalText(value: unknown, path: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new AppError('validation', 'REQUEST.INVALID', 'The request is invalid.', { issues: [issue(path, 'FIELD.INVALID_TYPE', `${path} must be given once.`)] });
  return value;
}

/** `limit`: 1–500, 100 when absent. */
function pageSize(value: unknown, max = 500, fallback = 100): number {
  if (value === undefined || value === '') return fallback;
  const n = typeof value === 'string' && /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1 && n <= max)) throw new AppError('validation', 'REQUEST.INVALID', 'The request is invalid.', { issues: [issue('limit', 'FIELD.INVALID_VALUE', `limit must be an integer from 1 to ${max}.`)] });
  return n;
}

/** The documents list's `limit`: 1–100, 50 when absent. */
export const listPageSize = (value: unknown): number => pageSize(value, 100, 50);
