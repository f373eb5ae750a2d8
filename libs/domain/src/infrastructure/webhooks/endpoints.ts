/**
 * Account-wide webhook endpoints (#48, `/v1/webhooks`): rows of `webhook_subscriptions` with `scope = 'account'`
 * (migration AccountWebhooks1732200001981), so their deliveries, attempts, retries, sweeper and the disabling of an
 * endpoint failing for its whole retry window are those of the seeds' supplier subscriptions (store.ts). Kept beside
 * store.ts rather than in it: the two scopes share tables, not queries, and store.ts is the dispatcher's.
 *
 * Filters as stored: `events` '{}' = every type (new ones included), `areas` / `supplier_ids` NULL = all. The API
 * shows each "all" as `null`.
 */
import type { AttemptResult } from './send';
import type { Sql } from './store';

/** An account endpoint as the API shows it: never a secret. */
export interface EndpointView {
  readonly id: string;
  readonly url: string;
  /** null: every type of the catalogue, new ones included. */
  readonly events: string[] | null;
  /** null: every area. */
  readonly areas: string[] | null;
  /** null: every supplier of the account, future ones included. */
  readonly supplier_ids: string[] | null;
  readonly description: string | null;
  readonly status: 'enabled' | 'disabled';
  readonly disabled_reason: string | null;
  /** While a rotation's previous secret still signs: until when; else null. */
  readonly previous_secret_expires_at: string | null;
  readonly created_at: string;
  readonly updated_at: string;
}

/** An endpoint with what sending to it needs (its sealed secrets). */
export interface EndpointRow extends EndpointView {
  readonly secret_sealed: string;
  /** The previous secret while it still signs (null once expired). */
  readonly previous_secret_sealed: string | null;
}

export interface NewEndpoint {
  readonly id: string;
  readonly tenantId: string;
  readonly url: string;
  /** Empty: every type. */
  readonly events: readonly string[];
  readonly areas: readonly string[] | null;
  readonly supplierIds: readonly string[] | null;
  readonly secretSealed: string;
  readonly description: string | null;
}

/** What a PATCH changes; an absent member is left as it is, `null` filters mean "all" again. */
export interface EndpointChange {
  readonly url?: string;
  readonly events?: readonly string[];
  readonly areas?: readonly string[] | null;
  readonly supplierIds?: readonly string[] | null;
  readonly description?: string | null;
  readonly enabled?: boolean;
}

/** Constraint of "the same url with the same filters once per tenant" (migration AccountWebhooks1732200001981). */
export const WEBHOOK_ENDPOINT_ONCE_CONSTRAINT = 'webhook_endpoints_once';

/** Why an endpoint the caller disabled is disabled (the contract's wording, EVENTS-CONTRACT.md). */
export const DISABLED_BY_CALLER = 'disabled by the caller';

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const ENDPOINT_VIEW = `id, url, CASE WHEN cardinality(events) = 0 THEN NULL ELSE events END AS events, areas,
  supplier_ids::text[] AS supplier_ids, description,
  CASE WHEN disabled_at IS NULL THEN 'enabled' ELSE 'disabled' END AS status, disabled_reason,
  CASE WHEN previous_secret_expires_at > now() THEN ${iso('previous_secret_expires_at')} END AS previous_secret_expires_at,
  ${iso('created_at')} AS created_at, ${iso('updated_at')} AS updated_at`;

const ENDPOINT_ROW = `${ENDPOINT_VIEW}, secret_sealed,
  CASE WHEN previous_secret_expires_at > now() THEN previous_secret_sealed END AS previous_secret_sealed`;

const LIVE = `scope = 'account' AND deleted_at IS NULL`;

/** The tenant's account endpoints not deleted, counted against WEBHOOK_MAX_PER_TENANT. */
export async function countEndpoints(db: Sql, tenantId: string): Promise<number> {
  const [row] = await db.query(`SELECT count(*)::int AS n FROM webhook_subscriptions WHERE tenant_id = $1 AND ${LIVE}`, [tenantId]);
  return row.n;
}

export async function insertEndpoint(db: Sql, e: NewEndpoint): Promise<EndpointView> {
  const [row] = await db.query(
    `INSERT INTO webhook_subscriptions (id, tenant_id, scope, url, events, areas, supplier_ids, secret_sealed, description)
     VALUES ($1, $2, 'account', $3, $4, $5, $6, $7, $8) RETURNING ${ENDPOINT_VIEW}`,
    [e.id, e.tenantId, e.url, e.events, e.areas, e.supplierIds, e.secretSealed, e.description],
  );
  return row;
}

/** The id of the tenant's live endpoint with this url and these filters (what a 409 names). */
export async function sameEndpoint(db: Sql, tenantId: string, url: string, events: readonly string[], areas: readonly string[] | null, supplierIds: readonly string[] | null): Promise<string | undefined> {
  const [row] = await db.query(
    `SELECT id FROM webhook_subscriptions
     WHERE tenant_id = $1 AND ${LIVE} AND url = $2 AND webhook_events_key(events) = webhook_events_key($3::text[])
       AND webhook_events_key(coalesce(areas, '{}')) = webhook_events_key(coalesce($4::text[], '{}'))
       AND webhook_events_key(coalesce(supplier_ids::text[], '{}')) = webhook_events_key(coalesce($5::text[], '{}'))`,
    [tenantId, url, events, areas, supplierIds],
  );
  return row?.id;
}

/**
 * One page of the tenant's endpoints, newest first (the index webhook_endpoints_tenant): `limit + 1` rows, the
 * extra one saying there is more. undefined when `startingAfter` is not one of the tenant's live endpoints.
 */
export async function listEndpoints(db: Sql, tenantId: string, limit: number, startingAfter?: string): Promise<EndpointView[] | undefined> {
  const params: unknown[] = [tenantId, limit + 1];
  let after = '';
  if (startingAfter) {
    const [cursor] = await db.query(`SELECT 1 FROM webhook_subscriptions WHERE id = $1 AND tenant_id = $2 AND ${LIVE}`, [startingAfter, tenantId]);
    if (!cursor) return undefined;
    params.push(startingAfter);
    after = `AND (created_at, id) < (SELECT created_at, id FROM webhook_subscriptions WHERE id = $3)`;
  }
  return db.query(
    `SELECT ${ENDPOINT_VIEW} FROM webhook_subscriptions WHERE tenant_id = $1 AND ${LIVE} ${after}
     ORDER BY created_at DESC, id DESC LIMIT $2`,
    params,
  );
}

/** The tenant's live endpoint, with its sealed secrets; another tenant's or a supplier subscription is undefined. */
export async function findEndpoint(db: Sql, tenantId: string, id: string): Promise<EndpointRow | undefined> {
  const [row] = await db.query(`SELECT ${ENDPOINT_ROW} FROM webhook_subscriptions WHERE id = $1 AND tenant_id = $2 AND ${LIVE}`, [id, tenantId]);
  return row;
}

/**
 * Applies a PATCH in one statement. Enabling clears the disabling (either reason); disabling keeps the reason of an
 * endpoint already disabled by its failures and says `disabled by the caller` otherwise.
 */
export async function updateEndpoint(db: Sql, tenantId: string, id: string, change: EndpointChange): Promise<EndpointView | undefined> {
  const params: unknown[] = [id, tenantId];
  const sets = ['updated_at = now()'];
  const set = (column: string, value: unknown, cast = '') => {
    params.push(value);
    sets.push(`${column} = $${params.length}${cast}`);
  };
  if (change.url !== undefined) set('url', change.url);
  if (change.events !== undefined) set('events', change.events, '::text[]');
  if (change.areas !== undefined) set('areas', change.areas, '::text[]');
  if (change.supplierIds !== undefined) set('supplier_ids', change.supplierIds, '::uuid[]');
  if (change.description !== undefined) set('description', change.description);
  if (change.enabled === true) sets.push('disabled_at = NULL', 'disabled_reason = NULL');
  if (change.enabled === false) {
    params.push(DISABLED_BY_CALLER);
    sets.push('disabled_at = coalesce(disabled_at, now())', `disabled_reason = CASE WHEN disabled_at IS NULL THEN $${params.length} ELSE disabled_reason END`);
  }
  const [row] = await db.query(
    `WITH u AS (UPDATE webhook_subscriptions SET ${sets.join(', ')} WHERE id = $1 AND tenant_id = $2 AND ${LIVE} RETURNING *)
     SELECT ${ENDPOINT_VIEW} FROM u`,
    params,
  );
  return row;
}

/** Soft delete, as the supplier subscriptions': past deliveries stay, pending ones stop at their next attempt. */
export async function deleteEndpoint(db: Sql, tenantId: string, id: string): Promise<boolean> {
  const rows = await db.query(
    `WITH u AS (UPDATE webhook_subscriptions SET deleted_at = now(), updated_at = now() WHERE id = $1 AND tenant_id = $2 AND ${LIVE} RETURNING id)
     SELECT id FROM u`,
    [id, tenantId],
  );
  return rows.length === 1;
}

/**
 * A new secret: the current one becomes the previous one and keeps signing (next to the new one) for
 * `graceSeconds`; a previous secret of an earlier rotation is dropped. Returns until when the old one signs.
 */
export async function rotateEndpointSecret(db: Sql, tenantId: string, id: string, secretSealed: string, graceSeconds: number): Promise<{ previous_secret_expires_at: string } | undefined> {
  const [row] = await db.query(
    `WITH u AS (UPDATE webhook_subscriptions
                SET previous_secret_sealed = secret_sealed, secret_sealed = $3,
                    previous_secret_expires_at = now() + make_interval(secs => $4), updated_at = now()
                WHERE id = $1 AND tenant_id = $2 AND ${LIVE} RETURNING previous_secret_expires_at)
     SELECT ${iso('previous_secret_expires_at')} AS previous_secret_expires_at FROM u`,
    [id, tenantId, secretSealed, graceSeconds],
  );
  return row;
}

/** An attempt made by the API itself (a test send), recorded as a delivery of its own with that one attempt. */
export interface SentDelivery {
  readonly id: string;
  readonly endpointId: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly payload: string;
  /** Its `responseBody` is the first 4 KiB of the answer (sendWebhook keeps no more). */
  readonly result: AttemptResult;
}

/**
 * Records a delivery sent at once and its attempt: `delivered` on 2xx, else `failed` (a test is a probe, not
 * retried; a resend retries it). Returns the attempt as the deliveries list shows it.
 */
export async function recordSentDelivery(db: Sql, d: SentDelivery): Promise<AttemptView> {
  await db.query(
    `INSERT INTO webhook_deliveries (id, subscription_id, event_id, event_type, payload, status, attempt_count, delivered_at)
     VALUES ($1, $2, $3, $4, $5, $6, 1, CASE WHEN $6 = 'delivered' THEN now() END)`,
    [d.id, d.endpointId, d.eventId, d.eventType, d.payload, d.result.acknowledged ? 'delivered' : 'failed'],
  );
  const [attempt] = await db.query(
    `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, status_code, duration_ms, error, response_body)
     VALUES ($1, 1, $2, $3, $4, $5) RETURNING ${ATTEMPT_VIEW}`,
    [d.id, d.result.statusCode, d.result.durationMs, d.result.error?.slice(0, 1000) ?? null, d.result.responseBody ?? null],
  );
  return attempt;
}

export interface AttemptView {
  readonly attempt: number;
  readonly at: string;
  readonly status_code: number | null;
  readonly duration_ms: number;
  readonly response_body: string | null;
  readonly error: string | null;
}

const ATTEMPT_VIEW = `attempt, ${iso('attempted_at')} AS at, status_code, duration_ms, response_body, error`;

export interface EndpointDeliveryView {
  readonly id: string;
  readonly event_id: string;
  readonly event_type: string;
  readonly status: 'pending' | 'delivered' | 'failed';
  /** The body POSTed, as JSON. */
  readonly request_body: unknown;
  readonly attempts: AttemptView[];
  readonly next_attempt_at: string | null;
  readonly created_at: string;
  readonly delivered_at: string | null;
}

export interface DeliveryFilter {
  readonly status?: string;
  readonly eventType?: string;
  readonly limit: number;
  readonly startingAfter?: string;
}

/**
 * One page of an endpoint's deliveries, newest first, each with every attempt in order: `limit + 1` rows (the extra
 * says there is more); undefined when `startingAfter` is not one of this endpoint's deliveries.
 */
export async function listEndpointDeliveries(db: Sql, endpointId: string, filter: DeliveryFilter): Promise<EndpointDeliveryView[] | undefined> {
  const params: unknown[] = [endpointId, filter.limit + 1];
  const where = ['d.subscription_id = $1'];
  if (filter.status) {
    params.push(filter.status);
    where.push(`d.status = $${params.length}`);
  }
  if (filter.eventType) {
    params.push(filter.eventType);
    where.push(`d.event_type = $${params.length}`);
  }
  if (filter.startingAfter) {
    const [cursor] = await db.query(`SELECT 1 FROM webhook_deliveries WHERE id = $1 AND subscription_id = $2`, [filter.startingAfter, endpointId]);
    if (!cursor) return undefined;
    params.push(filter.startingAfter);
    where.push(`(d.created_at, d.id) < (SELECT created_at, id FROM webhook_deliveries WHERE id = $${params.length})`);
  }
  return db.query(
    `SELECT d.id, d.event_id, d.event_type, d.status, d.payload::json AS request_body,
            COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'at', ${iso('a.attempted_at')}, 'status_code', a.status_code,
                                                        'duration_ms', a.duration_ms, 'response_body', a.response_body, 'error', a.error) ORDER BY a.attempt)
                      FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id), '[]') AS attempts,
            CASE WHEN d.status = 'pending' THEN ${iso('d.next_attempt_at')} END AS next_attempt_at,
            ${iso('d.created_at')} AS created_at, ${iso('d.delivered_at')} AS delivered_at
     FROM webhook_deliveries d WHERE ${where.join(' AND ')}
     ORDER BY d.created_at DESC, d.id DESC LIMIT $2`,
    params,
  );
}

/**
 * A delivery of the endpoint, in any state, back to `pending` to be sent again now (the same delivery, so the same
 * event id: `webhook-id` stays, as Standard Webhooks wants for a re-send). Returns the state it was in, or
 * undefined when the endpoint has no such delivery.
 */
export async function reopenEndpointDelivery(db: Sql, endpointId: string, deliveryId: string): Promise<'pending' | 'delivered' | 'failed' | undefined> {
  const [row] = await db.query(
    `WITH before AS (SELECT id, status FROM webhook_deliveries WHERE id = $1 AND subscription_id = $2 FOR UPDATE),
          u AS (UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = now(), updated_at = now() FROM before WHERE d.id = before.id RETURNING d.id)
     SELECT before.status FROM before JOIN u ON u.id = before.id`,
    [deliveryId, endpointId],
  );
  return row?.status;
}
