import { deterministicUuid } from '../../ids';
import { WEBHOOK_ENDPOINTS_CHANNEL } from './account-endpoints';
import type { AttemptResult } from './send';

/**
 * DataSource or UnitOfWork: the queries below run in or out of a transaction. An UPDATE that
 * must return rows is wrapped as `WITH u AS (UPDATE ... RETURNING) SELECT`: TypeORM answers a
 * bare UPDATE with `[rows, count]`, not the rows.
 */
export interface Sql {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows are typed by each caller
  query(sql: string, params?: unknown[]): Promise<any>;
}

/** A subscription as the API shows it: never the secret. */
export interface SubscriptionView {
  readonly id: string;
  readonly url: string;
  readonly events: string[];
  readonly description: string | null;
  readonly created_at: string;
  /** `disabled` once a delivery failed for its whole retry window with nothing delivered since (a 2xx ping re-enables). */
  readonly status: 'active' | 'disabled';
  readonly disabled_reason: string | null;
}

export interface NewSubscription {
  readonly id: string;
  readonly tenantId: string;
  readonly supplierId: string;
  readonly area: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly secretSealed: string;
  readonly description: string | null;
}

/** A delivery with what sending it needs. */
export interface DeliveryToSend {
  readonly id: string;
  readonly status: 'pending' | 'delivered' | 'failed';
  readonly event_id: string;
  readonly payload: string;
  /** The endpoint (subscription) it goes to: one slow or dead endpoint never delays the others' (the dispatcher's lanes). */
  readonly subscription_id: string;
  readonly url: string;
  readonly secret_sealed: string;
  /** The secret before a rotation, while it still signs (`previous_secret_expires_at` later than now), else null (#48). */
  readonly previous_secret_sealed: string | null;
  readonly subscription_deleted: boolean;
}

const VIEW = `id, url, events, description, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  CASE WHEN disabled_at IS NULL THEN 'active' ELSE 'disabled' END AS status, disabled_reason`;

/** Constraint of "the same URL and events once per supplier" (migration WebhookLimits1732200000021). */
export const WEBHOOK_ONCE_CONSTRAINT = 'webhook_subscriptions_once';

/** Subscriptions of a supplier not deleted, counted against WEBHOOK_MAX_PER_SUPPLIER. */
export async function countSubscriptions(db: Sql, supplierId: string): Promise<number> {
  const [row] = await db.query(`SELECT count(*)::int AS n FROM webhook_subscriptions WHERE supplier_id = $1 AND deleted_at IS NULL`, [supplierId]);
  return row.n;
}

/** A 2xx ping: the subscription is delivered to again. */
export async function enableSubscription(db: Sql, id: string): Promise<void> {
  await db.query(`UPDATE webhook_subscriptions SET disabled_at = NULL, disabled_reason = NULL WHERE id = $1 AND disabled_at IS NOT NULL`, [id]);
}

/**
 * After a delivery failed for good: its subscription is disabled when nothing was delivered to it
 * since that delivery was created (its endpoint failed for the whole retry window), so no new
 * deliveries pile up for a dead URL; what happened stays in its deliveries.
 */
export async function disableIfDead(db: Sql, deliveryId: string): Promise<void> {
  // An account endpoint's dispatchers keep it in memory: they are told (account-endpoints.ts).
  await db.query(
    `WITH u AS (
       UPDATE webhook_subscriptions s SET disabled_at = now(),
         disabled_reason = 'Every attempt of delivery ' || d.id || ' failed for its whole retry window; '
           || CASE s.scope WHEN 'account' THEN 'PATCH status enabled enables it again.' ELSE 'a ping answered 2xx enables it again.' END
       FROM webhook_deliveries d
       WHERE d.id = $1 AND d.status = 'failed' AND s.id = d.subscription_id AND s.disabled_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries ok WHERE ok.subscription_id = s.id AND ok.status = 'delivered' AND ok.delivered_at >= d.created_at)
       RETURNING s.tenant_id, s.scope)
     SELECT pg_notify('${WEBHOOK_ENDPOINTS_CHANNEL}', tenant_id::text) FROM u WHERE scope = 'account'`,
    [deliveryId],
  );
}

export async function insertSubscription(db: Sql, s: NewSubscription): Promise<SubscriptionView> {
  const [row] = await db.query(
    `INSERT INTO webhook_subscriptions (id, tenant_id, supplier_id, area, url, events, secret_sealed, description)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${VIEW}`,
    [s.id, s.tenantId, s.supplierId, s.area, s.url, s.events, s.secretSealed, s.description],
  );
  return row;
}

export async function listSubscriptions(db: Sql, tenantId: string, supplierId: string): Promise<SubscriptionView[]> {
  return db.query(
    `SELECT ${VIEW} FROM webhook_subscriptions WHERE tenant_id = $1 AND supplier_id = $2 AND deleted_at IS NULL ORDER BY created_at, id`,
    [tenantId, supplierId],
  );
}

export async function findSubscription(
  db: Sql,
  tenantId: string,
  supplierId: string,
  id: string,
): Promise<(SubscriptionView & { secret_sealed: string }) | undefined> {
  const [row] = await db.query(
    `SELECT ${VIEW}, secret_sealed FROM webhook_subscriptions
     WHERE id = $1 AND tenant_id = $2 AND supplier_id = $3 AND deleted_at IS NULL`,
    [id, tenantId, supplierId],
  );
  return row;
}

/** Soft delete: past deliveries keep their subscription; pending ones stop at their next attempt. */
export async function deleteSubscription(db: Sql, tenantId: string, supplierId: string, id: string): Promise<boolean> {
  const rows = await db.query(
    `WITH u AS (UPDATE webhook_subscriptions SET deleted_at = now()
                WHERE id = $1 AND tenant_id = $2 AND supplier_id = $3 AND deleted_at IS NULL RETURNING id)
     SELECT id FROM u`,
    [id, tenantId, supplierId],
  );
  return rows.length === 1;
}

/** What createDeliveries needs of a unit of work: a read, and writes sent with its commit. */
export interface DeliveryWrites {
  read(sql: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>;
  write(sql: string, params?: unknown[], options?: { readonly row?: string }): Promise<void>;
}

/**
 * One delivery per live subscription of the supplier that wants this event type (listing
 * `eventType` or one of its `synonyms`, e.g. `PeppolReceived` for `DocumentReceived`). The id is
 * derived from (subscription, event) and the pair is unique, so nothing is created twice. Run it
 * in the unit of work that records the event processed (UnitOfWork.recordProcessed): the inserts
 * travel with that mark. Returns the ids of the deliveries (an id that existed already, recorded by
 * another consumer group, comes back too: enqueueing it again is a no-op, and a delivery no longer
 * pending is never sent again).
 */
export async function createDeliveries(
  db: DeliveryWrites,
  supplierId: string,
  eventId: string,
  eventType: string,
  payload: string,
  synonyms: readonly string[] = [],
): Promise<string[]> {
  return insertDeliveries(db, await subscribersOf(db, supplierId, eventType, synonyms), eventId, eventType, payload);
}

/** The live subscriptions of the supplier that want `eventType` (or one of its `synonyms`). */
export async function subscribersOf(db: Pick<DeliveryWrites, 'read'>, supplierId: string, eventType: string, synonyms: readonly string[] = []): Promise<string[]> {
  const [ids] = await subscribersOfEach(db, [{ supplierId, names: [eventType, ...synonyms] }]);
  return ids;
}

/** Whose subscriptions to look up: a supplier, and the event's name with its synonyms. */
export interface SubscribersQuestion {
  readonly supplierId: string;
  readonly names: readonly string[];
}

/**
 * subscribersOf for several events at once, in one query (the dispatcher asks for the events it
 * handles at the same moment together: TickBatch); the answers in the questions' order. A
 * subscription wants an event when its `events` list one of the names.
 */
export async function subscribersOfEach(db: Pick<DeliveryWrites, 'read'>, questions: readonly SubscribersQuestion[]): Promise<string[][]> {
  const rows = (await db.read(
    `SELECT id, supplier_id, events FROM webhook_subscriptions WHERE supplier_id = ANY($1::uuid[]) AND deleted_at IS NULL AND disabled_at IS NULL ORDER BY created_at, id`,
    [[...new Set(questions.map((q) => q.supplierId))]],
  )) as Array<{ id: string; supplier_id: string; events: string[] }>;
  return questions.map(({ supplierId, names }) =>
    rows.filter((row) => row.supplier_id === supplierId && row.events.some((event) => names.includes(event))).map((row) => row.id),
  );
}

/** createDeliveries for subscriptions already looked up (subscribersOf): one delivery each, ids derived from (subscription, event). */
export async function insertDeliveries(db: Pick<DeliveryWrites, 'write'>, subscriptionIds: readonly string[], eventId: string, eventType: string, payload: string): Promise<string[]> {
  const ids: string[] = [];
  for (const id of subscriptionIds) {
    const deliveryId = deterministicUuid(`webhook-delivery:${id}:${eventId}`);
    // ON CONFLICT: another consumer group (a second deployment) may record the same event. The row is
    // named (its id derives from the pair the other unique key holds), so the deliveries of events
    // handled at the same moment share a statement and a commit (commit-groups.ts).
    await db.write(
      `INSERT INTO webhook_deliveries (id, subscription_id, event_id, event_type, payload) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      [deliveryId, id, eventId, eventType, payload],
      { row: `webhook_deliveries/${deliveryId}` },
    );
    ids.push(deliveryId);
  }
  return ids;
}

export async function loadDelivery(db: Sql, id: string): Promise<DeliveryToSend | undefined> {
  const [row] = await loadDeliveries(db, [id]);
  return row;
}

/** Several deliveries in one query (those sent at the same moment), each with what sending it needs; a missing one is left out. */
export function loadDeliveries(db: Sql, ids: readonly string[]): Promise<DeliveryToSend[]> {
  return db.query(
    `SELECT d.id, d.status, d.event_id, d.payload, d.subscription_id, s.url, s.secret_sealed,
            CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret_sealed END AS previous_secret_sealed,
            s.deleted_at IS NOT NULL AS subscription_deleted
     FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id WHERE d.id = ANY($1::uuid[])`,
    [ids],
  );
}

/** One attempt to record: its delivery, what the POST came to, and whether it was the delivery's last. */
export interface AttemptRecord {
  readonly deliveryId: string;
  readonly result: AttemptResult;
  readonly final: boolean;
  /** When a failed attempt that is not the last is tried again, from now (the retry schedule's wait): `next_attempt_at`. */
  readonly retryInMs?: number;
}

/**
 * Records one attempt and moves the delivery on in one statement: `delivered` on 2xx, `failed`
 * when `final`, else still `pending`. Only a pending delivery changes, so nothing is marked
 * delivered twice. Returns the attempt number, or undefined when the delivery was not pending.
 */
export async function recordAttempt(db: Sql, deliveryId: string, result: AttemptResult, final: boolean, retryInMs?: number): Promise<number | undefined> {
  const [attempt] = await recordAttempts(db, [{ deliveryId, result, final, retryInMs }]);
  return attempt;
}

/**
 * recordAttempt for the attempts of several deliveries in ONE statement and commit (the first attempts
 * a dispatcher sends at the same moment, issue 11: one commit each was most of the webhook path's WAL
 * flushes); the attempt numbers in the records' order. The deliveries must differ: an UPDATE changes a
 * row once per statement. The statement is atomic: if it fails (e.g. a deadlock with another process
 * recording the same deliveries, which the first attempts' bookkeeping makes rare), nothing was recorded.
 */
export async function recordAttempts(db: Sql, records: readonly AttemptRecord[]): Promise<Array<number | undefined>> {
  const ids = records.map((r) => r.deliveryId);
  if (new Set(ids).size !== ids.length) throw new Error('recordAttempts: a delivery twice in one statement');
  const rows: Array<{ delivery_id: string; attempt: number }> = await db.query(
    `WITH a AS (
       SELECT * FROM unnest($1::uuid[], $2::bool[], $3::bool[], $4::int[], $5::int[], $6::text[], $7::text[], $8::int[])
         AS a (id, ok, final, status_code, duration_ms, error, response_body, retry_in_ms)
     ), d AS (
       UPDATE webhook_deliveries w
       SET attempt_count = w.attempt_count + 1, updated_at = now(),
           status = CASE WHEN a.ok THEN 'delivered' WHEN a.final THEN 'failed' ELSE w.status END,
           delivered_at = CASE WHEN a.ok THEN now() ELSE w.delivered_at END,
           next_attempt_at = CASE WHEN a.ok OR a.final OR a.retry_in_ms IS NULL THEN NULL ELSE now() + make_interval(secs => a.retry_in_ms / 1000.0) END
       FROM a WHERE w.id = a.id AND w.status = 'pending'
       RETURNING w.id, w.attempt_count, a.status_code, a.duration_ms, a.error, a.response_body)
     INSERT INTO webhook_delivery_attempts (delivery_id, attempt, status_code, duration_ms, error, response_body)
     SELECT id, attempt_count, status_code, duration_ms, error, response_body FROM d RETURNING delivery_id, attempt`,
    [
      ids,
      records.map((r) => r.result.acknowledged),
      records.map((r) => r.final),
      records.map((r) => r.result.statusCode),
      records.map((r) => r.result.durationMs),
      records.map((r) => r.result.error?.slice(0, 1000) ?? null),
      records.map((r) => r.result.responseBody ?? null),
      records.map((r) => (r.retryInMs === undefined ? null : Math.round(r.retryInMs))),
    ],
  );
  const attempts = new Map(rows.map((row) => [row.delivery_id, row.attempt]));
  for (const r of records) if (attempts.has(r.deliveryId) && r.final && !r.result.acknowledged) await disableIfDead(db, r.deliveryId);
  return records.map((r) => attempts.get(r.deliveryId));
}

/** Gives up on a pending delivery (its subscription was deleted). */
export async function failDelivery(db: Sql, deliveryId: string): Promise<void> {
  await db.query(`UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, updated_at = now() WHERE id = $1 AND status = 'pending'`, [deliveryId]);
}

/** A `failed` delivery back to `pending` (re-send); false when it is not failed. */
export async function reopenDelivery(db: Sql, subscriptionId: string, deliveryId: string): Promise<'reopened' | 'not_found' | 'not_failed'> {
  const rows = await db.query(
    `WITH u AS (UPDATE webhook_deliveries SET status = 'pending', updated_at = now()
                WHERE id = $1 AND subscription_id = $2 AND status = 'failed' RETURNING id)
     SELECT id FROM u`,
    [deliveryId, subscriptionId],
  );
  if (rows.length === 1) return 'reopened';
  const exists = await db.query(`SELECT 1 FROM webhook_deliveries WHERE id = $1 AND subscription_id = $2`, [deliveryId, subscriptionId]);
  return exists.length === 1 ? 'not_failed' : 'not_found';
}

export interface DeliveryView {
  readonly id: string;
  readonly event_id: string;
  readonly event_type: string;
  readonly status: string;
  readonly created_at: string;
  readonly delivered_at: string | null;
  readonly attempts: Array<{ attempt: number; status_code: number | null; duration_ms: number; error: string | null; attempted_at: string }>;
}

/** The deliveries of a subscription, newest first, each with its attempts in order. */
export async function listDeliveries(db: Sql, subscriptionId: string, limit = 100): Promise<DeliveryView[]> {
  return db.query(
    `SELECT d.id, d.event_id, d.event_type, d.status, d.created_at, d.delivered_at,
            COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'status_code', a.status_code, 'duration_ms', a.duration_ms,
                                                        'error', a.error, 'attempted_at', a.attempted_at) ORDER BY a.attempt)
                      FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id), '[]') AS attempts
     FROM webhook_deliveries d WHERE d.subscription_id = $1 ORDER BY d.created_at DESC, d.id LIMIT $2`,
    [subscriptionId, limit],
  );
}

/** Pending deliveries not touched for `quietMs`: candidates for the sweeper. */
export async function stalePendingDeliveries(db: Sql, quietMs: number, limit = 500): Promise<string[]> {
  const rows: Array<{ id: string }> = await db.query(
    `SELECT id FROM webhook_deliveries WHERE status = 'pending' AND updated_at < now() - make_interval(secs => $1) ORDER BY created_at LIMIT $2`,
    [quietMs / 1000, limit],
  );
  return rows.map((r) => r.id);
}
