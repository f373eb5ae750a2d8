import { Injectable } from '@nestjs/common';
import { authorityReportStreamId, documentStreamId, issue, notFound, validationError } from '@einvoice/domain';
import { findArea } from '@einvoice/areas';
import { Connections } from '../infrastructure/infrastructure.module';
import { isUuid } from '../suppliers/supplier-lookup';
import { type Page, type PageRequest, toPage } from './page';
import { type StateColumns, authorityOf, exchangeOf } from '@einvoice/domain';
import { counterpartyColumnsSql, fieldColumnsSql } from './document-fields';
import { type DocumentLinks, linksOf } from './document-links';
import type { DocumentFilter } from './documents-query';
import { type TimelineEntry, type TrackEvent, timelineOf } from './document-timeline';

/** A document of any area as the account-wide list shows it (docs/account-api.md). */
export interface DocumentSummary {
  readonly id: string;
  readonly area: string;
  readonly supplier_id: string;
  readonly direction: 'outgoing' | 'incoming';
  readonly number: string;
  readonly type: string;
  readonly issue_date: string | null;
  readonly currency: string | null;
  readonly total: string | null;
  /** The buyer of an outgoing document, the sender of an incoming one (#50): each null where the document does not say. */
  readonly counterparty: { readonly name: string | null; readonly id: string | null };
  readonly status: string;
  readonly authority: ReturnType<typeof authorityOf>;
  readonly exchange: ReturnType<typeof exchangeOf>;
  readonly created_at: string;
  readonly updated_at: string;
}

/** One document with every event of its tracks, and where its area's own routes read it. */
export interface DocumentDetail extends DocumentSummary {
  readonly timeline: readonly TimelineEntry[];
  readonly links: DocumentLinks | null;
}

/** `GET /v1/documents/{id}/request`'s `data` (#50). */
export interface AcceptedRequest {
  readonly document_id: string;
  /** When the service accepted the document and recorded its request. */
  readonly accepted_at: string;
  /** The caller's body after its area's defaults, with what the service added when it accepted it. */
  readonly body: Record<string, unknown>;
}

interface SummaryRow extends StateColumns {
  id: string;
  area: string;
  supplier_id: string;
  document_number: string;
  document_type: string;
  issue_date: string | null;
  currency: string | null;
  total: string | null;
  counterparty_name: string | null;
  counterparty_id: string | null;
  status: string;
  report_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The list's `status`, the indexed expression (migration AccountDocumentLists1732200001880). */
const STATUS_SQL = 'account_document_status(d.direction, d.report_state, d.delivery_status)';
const SUMMARY_COLUMNS = `d.id, d.area, d.supplier_id, d.direction, d.document_number, d.document_type, ${fieldColumnsSql('d')}, ${counterpartyColumnsSql('d')},
  ${STATUS_SQL} AS status, d.report_state, d.delivery_status, d.peppol_copy, d.authority -> 'receipt' AS receipt, d.report_id, d.created_at, d.updated_at`;

/**
 * How many of the newest documents (the other filters applied) an issue-date filter looks among first
 * (issuedListSql). Read through the created-order index with one heap read each: a few ms.
 */
export const ISSUED_WINDOW = 200;

/**
 * The longest issue-date range, in days (both ends included), read day by day (rangeByDaySql): a year with its
 * leap day and a month of slack (a fiscal year, or a year's documents with the ones issued late). Each day costs
 * two index descents and at most a page of entries whether it has documents or not (a year: ~2,300 buffers,
 * 7.5 ms; docs/documents-list-speed.md "Issue-date ranges: per-day merge"): a longer range costs more by the day,
 * while a tenant with a few documents a day reads its whole range for less, the other way.
 */
export const ISSUED_DAYS_MAX = 400;

/**
 * How far past today an `issued_from` without `issued_to` is read day by day (rangeByDaySql), in days: invoices
 * dated a little ahead (a month's invoice issued at its end) are among those days; anything later is read
 * straight from the issue-date index after them (a few documents, if any).
 */
export const ISSUED_AHEAD_DAYS = 31;

/** The days from `from` to `to` (YYYY-MM-DD, both included). */
function daysOf(from: string, to: string): number {
  return (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
}

/** The last day an open `issued_from` is read day by day: ISSUED_AHEAD_DAYS after `now` (UTC). */
function openRangeEnd(now: number): string {
  return new Date(now + ISSUED_AHEAD_DAYS * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The list's query: the tenant, each filter given, the cursor (rows strictly after the cursor's row in the order).
 * `now` places an open `issued_from`'s days (openRangeEnd).
 */
export function listSql(tenantId: string, filter: DocumentFilter, page: PageRequest, now = Date.now()): { sql: string; parameters: unknown[] } {
  const parameters: unknown[] = [tenantId];
  const where = ['d.tenant_id = $1'];
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    parameters.push(value);
    where.push(condition(`$${parameters.length}`));
  };
  const placeholder = (value: unknown) => {
    parameters.push(value);
    return `$${parameters.length}`;
  };
  if (filter.areas) add((p) => (filter.areas!.length === 1 ? `d.area = ${p}` : `d.area = ANY(${p}::text[])`), filter.areas.length === 1 ? filter.areas[0] : filter.areas);
  if (filter.direction) add((p) => `d.direction = ${p}`, filter.direction);
  if (filter.status) add((p) => `${STATUS_SQL} = ${p}`, filter.status);
  if (filter.supplierId) add((p) => `d.supplier_id = ${p}`, filter.supplierId);
  if (filter.number) add((p) => `d.document_number = ${p}`, filter.number);
  /** The filters on columns of the issue-date index only (the rest read each row): rangeByDaySql serves those. */
  const indexOnly = where.length === 1;
  const from = filter.issuedFrom === undefined ? undefined : placeholder(filter.issuedFrom);
  const to = filter.issuedTo === undefined ? undefined : placeholder(filter.issuedTo);
  // Calendar days in UTC, both ends included.
  if (filter.createdFrom) add((p) => `d.created_at >= ${p}::date::timestamp AT TIME ZONE 'UTC'`, filter.createdFrom);
  if (filter.createdTo) add((p) => `d.created_at < (${p}::date + 1)::timestamp AT TIME ZONE 'UTC'`, filter.createdTo);
  // The cursor's own row gives the position, read in the same statement: no precision lost through a JS Date.
  if (page.startingAfter) add((p) => `(d.created_at, d.id) < (SELECT c.created_at, c.id FROM documents c WHERE c.id = ${p} AND c.tenant_id = $1)`, page.startingAfter);
  const limit = placeholder(page.limit + 1);
  if (from || to) {
    const inRange = (alias: string) => [from && `${alias}.issue_date >= ${from}::text`, to && `${alias}.issue_date <= ${to}::text`].filter(Boolean).join(' AND ');
    // An open `issued_from` by day too: its days up to openRangeEnd, then whatever is dated after that.
    const lastDay = filter.issuedTo ?? (from ? openRangeEnd(now) : undefined);
    const byDay = indexOnly && from && lastDay !== undefined && filter.issuedFrom! <= lastDay && daysOf(filter.issuedFrom!, lastDay) <= ISSUED_DAYS_MAX;
    const range = byDay
      ? rangeByDaySql(where, from, to ?? placeholder(lastDay), limit, !to)
      : `SELECT d.id, d.created_at FROM documents d WHERE ${where.join(' AND ')} AND ${inRange('d')}`;
    return { sql: issuedListSql(where, inRange, range, limit), parameters };
  }
  const sql = `SELECT ${SUMMARY_COLUMNS} FROM documents d WHERE ${where.join(' AND ')} ORDER BY d.created_at DESC, d.id DESC LIMIT ${limit}`;
  return { sql, parameters };
}

/**
 * The list with an issue-date filter, which is not in the list's order: the planner, expecting the matching
 * documents spread evenly over the newest-first walk, walked all of a tenant's documents for a month two years
 * back (8-17 s at 1,000,000; docs/documents-list-speed.md). So, in one statement: the ISSUED_WINDOW newest
 * documents (the other filters and the cursor applied) first: when they hold a page's worth of matches (a
 * recent range, or a cursor inside the range), or are all there is, those are the page. Otherwise `range`, the
 * range's documents, newest first (rangeByDaySql; else the whole range, read index-only from
 * `(tenant_id, issue_date, created_at, id)`: a month ~14,000 entries at 300,000 documents, and sorted): a
 * MATERIALIZED CTE, so the planner cannot turn it back into the walk; it runs only then (a one-time filter).
 */
function issuedListSql(where: readonly string[], inRange: (alias: string) => string, range: string, limit: string): string {
  return `WITH recent AS MATERIALIZED (
      SELECT d.id, d.created_at, d.issue_date FROM documents d WHERE ${where.join(' AND ')}
      ORDER BY d.created_at DESC, d.id DESC LIMIT ${ISSUED_WINDOW}),
    matches AS (SELECT r.id, r.created_at FROM recent r WHERE ${inRange('r')}),
    whole_range AS MATERIALIZED (${range}),
    use_range AS (SELECT (SELECT count(*) FROM recent) = ${ISSUED_WINDOW} AND (SELECT count(*) FROM matches) < ${limit} AS yes),
    page AS (
      (SELECT id, created_at FROM matches WHERE NOT (SELECT yes FROM use_range) ORDER BY created_at DESC, id DESC LIMIT ${limit})
      UNION ALL
      (SELECT id, created_at FROM whole_range WHERE (SELECT yes FROM use_range) ORDER BY created_at DESC, id DESC LIMIT ${limit}))
    SELECT ${SUMMARY_COLUMNS} FROM page JOIN documents d ON d.id = page.id ORDER BY d.created_at DESC, d.id DESC`;
}

/**
 * A bounded range's newest page in the issue-date index's own order (an open `issued_from` is bounded at
 * openRangeEnd, with `andLater` the documents dated after that end), when the other conditions are on that
 * index's columns too (the created range, the cursor): within one issue date `(tenant_id, issue_date,
 * created_at DESC, id DESC)` is in the list's order, so each day's newest page (the scan starts at the
 * cursor) is read index-only, and the page is the newest of those: days × a page of entries, not the range's
 * every entry (a year: ~150,000 at 300,000 documents). Not with a filter on another column (area, status, ...):
 * each day would read its rows from the heap until a page matches (a rare status: every row of the range),
 * where the planner's own choice (that filter's index) reads a few. `issue_date` is text as the caller wrote it
 * (account_document_issue_date): a value that is not a plain date (`2026-03-05Z`) sorts between two days, so
 * each day also reads what lies strictly between it and the next (one descent finding nothing for the areas'
 * validated dates), up to `to`: the days and their gaps are exactly `from <= issue_date <= to`.
 */
function rangeByDaySql(where: readonly string[], from: string, to: string, limit: string, andLater = false): string {
  const matching = (condition: string) =>
    `SELECT d.id, d.created_at FROM documents d WHERE ${where.join(' AND ')} AND ${condition} ORDER BY d.created_at DESC, d.id DESC LIMIT ${limit}`;
  const days = `SELECT p.id, p.created_at
      FROM generate_series(0, ${to}::text::date - ${from}::text::date) AS n
      CROSS JOIN LATERAL (SELECT to_char(${from}::text::date + n, 'YYYY-MM-DD') AS day, to_char(${from}::text::date + n + 1, 'YYYY-MM-DD') AS next) AS g
      CROSS JOIN LATERAL ((${matching('d.issue_date = g.day')})
        UNION ALL (${matching(`d.issue_date > g.day AND d.issue_date < g.next AND d.issue_date <= ${to}::text`)})) AS p`;
  // An open range (`andLater`): what sorts after its last day, read from the index's range past it.
  const later = andLater ? ` UNION ALL (${matching(`d.issue_date > ${to}::text`)})` : '';
  return `SELECT q.id, q.created_at FROM (${days}${later}) AS q ORDER BY q.created_at DESC, q.id DESC LIMIT ${limit}`;
}

/** `GET /v1/documents` and `GET /v1/documents/{id}`: the tenant's documents of every area. */
@Injectable()
export class AccountDocuments {
  constructor(private readonly connections: Connections) {}

  async list(tenantId: string, filter: DocumentFilter, page: PageRequest): Promise<Page<DocumentSummary>> {
    if (page.startingAfter && !(await this.exists(tenantId, page.startingAfter))) {
      throw validationError([issue('starting_after', 'FIELD.INVALID_VALUE', `No document ${page.startingAfter} in your account to start after.`)], 'The list query is invalid.');
    }
    const { sql, parameters } = listSql(tenantId, filter, page);
    const rows: SummaryRow[] = await this.connections.dataSource.query(sql, parameters);
    return toPage(rows.map(summaryOf), page.limit);
  }

  async get(tenantId: string, id: string): Promise<{ status: 'success'; data: DocumentDetail }> {
    const rows: SummaryRow[] = isUuid(id)
      ? await this.connections.dataSource.query(`SELECT ${SUMMARY_COLUMNS} FROM documents d WHERE d.id = $1 AND d.tenant_id = $2`, [id, tenantId])
      : [];
    const row = rows[0];
    if (!row) throw notFound('DOCUMENT.NOT_FOUND', `No document ${id} in your account.`);
    const streams = streamsOf(row.id, row.report_id);
    const events: TrackEvent[] = await this.connections.dataSource.query(
      `SELECT type, data - '{xml,fields,document,payload}'::text[] AS data, recorded_at FROM events WHERE stream_id = ANY($1::text[]) ORDER BY global_position`,
      [streams],
    );
    const summary = summaryOf(row);
    return { status: 'success', data: { ...summary, timeline: timelineOf(events), links: linksOf(findArea(row.area), summary) } };
  }

  /**
   * The body the caller sent, as the service recorded it when it accepted the document (#50): the `fields` of the
   * first event of its streams that carries them (AuthorityReportRequested, else DocumentSubmitted), which no later
   * step changes (an amendment is an event of its own). Only `fields`: never the area's `payload` nor the rendered
   * file. A document received was sent by no request of this account: 404 `DOCUMENT.NO_REQUEST`.
   */
  async request(tenantId: string, id: string): Promise<{ status: 'success'; data: AcceptedRequest }> {
    const rows: Array<{ direction: string; report_id: string | null }> = isUuid(id)
      ? await this.connections.dataSource.query(`SELECT direction, report_id FROM documents WHERE id = $1 AND tenant_id = $2`, [id, tenantId])
      : [];
    const row = rows[0];
    if (!row) throw notFound('DOCUMENT.NOT_FOUND', `No document ${id} in your account.`);
    if (row.direction !== 'outgoing') throw notFound('DOCUMENT.NO_REQUEST', `Document ${id} is one your supplier received: no request of yours sent it.`);
    const streams = streamsOf(id, row.report_id);
    // Accepted when the timeline's `accepted` says: the event's own time (requestedAt, submittedAt), else its recording's.
    const accepted: Array<{ body: Record<string, unknown>; at: string | Date }> = await this.connections.dataSource.query(
      `SELECT data -> 'fields' AS body, coalesce(data ->> 'requestedAt', data ->> 'submittedAt', to_json(recorded_at) #>> '{}') AS at
       FROM events WHERE stream_id = ANY($1::text[]) AND data ? 'fields' ORDER BY global_position LIMIT 1`,
      [streams],
    );
    if (!accepted[0]) throw notFound('DOCUMENT.NO_REQUEST', `Document ${id} has no recorded request.`);
    return { status: 'success', data: { document_id: id, accepted_at: new Date(accepted[0].at).toISOString(), body: accepted[0].body } };
  }

  private async exists(tenantId: string, id: string): Promise<boolean> {
    const rows: unknown[] = await this.connections.dataSource.query(`SELECT 1 FROM documents WHERE id = $1 AND tenant_id = $2`, [id, tenantId]);
    return rows.length > 0;
  }
}

/** The event streams of a document: its own and, when it is reported, its report's (the timeline and the request read both). */
function streamsOf(documentId: string, reportId: string | null): string[] {
  return [documentStreamId(documentId), ...(reportId ? [authorityReportStreamId(reportId)] : [])];
}

function summaryOf(row: SummaryRow): DocumentSummary {
  return {
    id: row.id,
    area: row.area,
    supplier_id: row.supplier_id,
    direction: row.direction,
    number: row.document_number,
    type: row.document_type,
    issue_date: row.issue_date,
    currency: row.currency,
    total: row.total,
    counterparty: { name: row.counterparty_name, id: row.counterparty_id },
    status: row.status,
    authority: authorityOf(row),
    exchange: exchangeOf(row),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
