/**
 * Documents not in a final state for longer than an operator expects (`cli documents stuck`): waiting
 * for delivery (scheduled), for their authority (pending, processing, cancelling, or a report not
 * answered yet) or a Peppol copy not delivered yet; each with the last event of its streams and the
 * error it carries, if any. Also `GET /v1/operations/stuck-documents` (operations.controller.ts), paged by
 * `startingAfter`: oldest first by `created_at` then `id`, which never change, so a page holds whatever
 * moved on since.
 */
type Query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

export interface StuckDocument {
  readonly id: string;
  readonly area: string;
  readonly tenantId: string;
  readonly documentNumber: string;
  readonly state: string;
  readonly reportState: string | null;
  readonly deliveryStatus: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly lastEvent: { readonly type: string; readonly recordedAt: string } | null;
  readonly error: unknown;
}

/** `10m`, `2h`, `90s`, `1d` → milliseconds. */
export function durationMs(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) throw new Error(`not a duration: ${text} (e.g. 90s, 10m, 2h, 1d)`);
  return Number(match[1]) * { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'ms' | 's' | 'm' | 'h' | 'd'];
}

export async function stuckDocuments(query: Query, options: { readonly area?: string; readonly olderThanMs: number; readonly limit?: number; readonly startingAfter?: string }): Promise<StuckDocument[]> {
  const rows = await query<{
    id: string; area: string; tenant_id: string; document_number: string; state: string; report_state: string | null; delivery_status: string | null;
    created_at: Date; updated_at: Date; last_type: string | null; last_at: Date | null; error: unknown;
  }>(
    `WITH stuck AS (
       SELECT id, area, tenant_id, document_number, state, report_state, delivery_status, created_at, updated_at,
              ARRAY['document-' || id, 'report-' || coalesce(report_id::text, '')] AS streams, authority -> 'error' AS error
       FROM documents
       WHERE (state IN ('scheduled', 'pending', 'processing', 'cancelling') OR report_state IN ('pending', 'processing') OR delivery_status IN ('Scheduled', 'Sent'))
     )
     SELECT s.id, s.area, s.tenant_id, s.document_number, s.state, s.report_state, s.delivery_status, s.created_at, s.updated_at, s.error,
            e.type AS last_type, e.recorded_at AS last_at
     FROM stuck s
     LEFT JOIN LATERAL (SELECT type, recorded_at FROM events WHERE stream_id = ANY (s.streams) ORDER BY global_position DESC LIMIT 1) e ON true
     WHERE s.updated_at < now() - $1 * interval '1 millisecond' AND ($2::text IS NULL OR s.area = $2)
       AND ($4::uuid IS NULL OR (s.created_at, s.id) > (SELECT created_at, id FROM documents WHERE id = $4))
     ORDER BY s.created_at, s.id
     LIMIT $3`,
    [options.olderThanMs, options.area ?? null, options.limit ?? 1000, options.startingAfter ?? null],
  );
  return rows.map((r) => ({
    id: r.id, area: r.area, tenantId: r.tenant_id, documentNumber: r.document_number, state: r.state, reportState: r.report_state, deliveryStatus: r.delivery_status,
    createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString(), lastEvent: r.last_type ? { type: r.last_type, recordedAt: r.last_at!.toISOString() } : null, error: r.error ?? null,
  }));
}
