import type { AccountEndpoint } from '@einvoice/domain/infrastructure';

/**
 * Each tenant's enabled account endpoints, kept in memory by the account events tail (account-events-tail.ts):
 * a batch of 500 events asks for its tenants' endpoints, nearly always answered from here. An entry is dropped
 * when the API says the tenant's endpoints changed (NOTIFY `webhook_endpoints` with the tenant's id:
 * WEBHOOK_ENDPOINTS_CHANNEL), all of them when the listener was down (what it missed is unknown), and in any
 * case after `ttlMs`: a lost notification costs at most that long with the old filters.
 */
export class EndpointCache {
  private readonly entries = new Map<string, { readonly endpoints: AccountEndpoint[]; readonly loadedAt: number }>();
  /** Bumped by every invalidation: a load that began before one is used, not kept. */
  private generation = 0;

  constructor(
    private readonly load: (tenantIds: readonly string[]) => Promise<Map<string, AccountEndpoint[]>>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The endpoints of each tenant, those not cached (or too old) read in one query. */
  async of(tenantIds: readonly string[]): Promise<Map<string, AccountEndpoint[]>> {
    const result = new Map<string, AccountEndpoint[]>();
    const missing: string[] = [];
    const now = this.now();
    for (const id of new Set(tenantIds)) {
      const entry = this.entries.get(id);
      if (entry && now - entry.loadedAt < this.ttlMs) result.set(id, entry.endpoints);
      else missing.push(id);
    }
    if (missing.length === 0) return result;
    const generation = this.generation;
    const loaded = await this.load(missing);
    for (const id of missing) {
      const endpoints = loaded.get(id) ?? [];
      result.set(id, endpoints);
      if (generation === this.generation) this.entries.set(id, { endpoints, loadedAt: now });
    }
    return result;
  }

  /** Forgets a tenant's endpoints (a NOTIFY with its id), or everyone's (no id, or not one: the listener reconnected). */
  invalidate(tenantId?: string): void {
    this.generation += 1;
    if (tenantId && this.entries.has(tenantId)) this.entries.delete(tenantId);
    else if (!tenantId) this.entries.clear();
  }
}
