import type { Sql } from './store';

/**
 * The account-wide endpoints (`/v1/webhooks`, scope 'account', #48) as the dispatcher matches them against the
 * account's events. The dispatcher keeps each tenant's endpoints in memory; whatever creates, changes, disables
 * or deletes one tells it with a NOTIFY on this channel, the tenant's id as payload (`notifyEndpointsChanged`,
 * in the writing transaction: PostgreSQL sends it at commit). A short time-to-live bounds what a lost
 * notification costs (apps/webhook-dispatcher/README.md).
 */
export const WEBHOOK_ENDPOINTS_CHANNEL = 'webhook_endpoints';

/** Tells every dispatcher that `tenantId`'s endpoints changed (sent at the commit of the transaction `db` runs in). */
export async function notifyEndpointsChanged(db: Sql, tenantId: string): Promise<void> {
  await db.query(`SELECT pg_notify($1, $2)`, [WEBHOOK_ENDPOINTS_CHANNEL, tenantId]);
}

/** An enabled account endpoint and its filters. */
export interface AccountEndpoint {
  readonly id: string;
  readonly tenant_id: string;
  /** Event types; empty: every type, those added later included. */
  readonly events: readonly string[];
  /** Areas; null: all. */
  readonly areas: readonly string[] | null;
  /** Suppliers; null: all. */
  readonly supplier_ids: readonly string[] | null;
  /** It is sent the events recorded from then on (not the account's history). */
  readonly created_at: Date;
}

/** What an endpoint's filters look at in an event. */
export interface EndpointFilterable {
  readonly type: string;
  readonly area: string;
  readonly supplier_id: string;
  readonly created_at: Date | string;
}

/** Whether `endpoint` wants `event` (its three filters: types, areas, suppliers, and its creation). */
export function endpointWants(endpoint: AccountEndpoint, event: EndpointFilterable): boolean {
  return (
    new Date(event.created_at).getTime() >= endpoint.created_at.getTime() &&
    (endpoint.events.length === 0 || endpoint.events.includes(event.type)) &&
    (endpoint.areas === null || endpoint.areas.includes(event.area)) &&
    (endpoint.supplier_ids === null || endpoint.supplier_ids.includes(event.supplier_id))
  );
}

/** The enabled endpoints (not deleted, not disabled) of each tenant asked for, in one query; a tenant without any maps to []. */
export async function enabledAccountEndpoints(db: Sql, tenantIds: readonly string[]): Promise<Map<string, AccountEndpoint[]>> {
  const rows: AccountEndpoint[] = await db.query(
    `SELECT id, tenant_id, events, areas, supplier_ids::text[] AS supplier_ids, created_at FROM webhook_subscriptions
     WHERE scope = 'account' AND tenant_id = ANY($1::uuid[]) AND deleted_at IS NULL AND disabled_at IS NULL ORDER BY created_at, id`,
    [[...tenantIds]],
  );
  const byTenant = new Map<string, AccountEndpoint[]>(tenantIds.map((id) => [id, []]));
  for (const row of rows) byTenant.get(row.tenant_id)?.push(row);
  return byTenant;
}
