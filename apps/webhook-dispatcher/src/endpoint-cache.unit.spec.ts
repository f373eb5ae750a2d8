import type { AccountEndpoint } from '@einvoice/domain/infrastructure';
import { EndpointCache } from './endpoint-cache';

describe('#48 EndpointCache: the tenants\' account endpoints in memory', () => {
  const endpoint = (tenant: string, id: string): AccountEndpoint => ({ id, tenant_id: tenant, events: [], areas: null, supplier_ids: null, created_at: new Date(0) });

  function cache(ttlMs = 10_000) {
    let now = 0;
    const loads: string[][] = [];
    let version = 1;
    const c = new EndpointCache(
      async (tenants) => {
        loads.push([...tenants]);
        return new Map(tenants.map((t) => [t, [endpoint(t, `${t}-v${version}`)]]));
      },
      ttlMs,
      () => now,
    );
    return { c, loads, tick: (ms: number) => (now += ms), bump: () => (version += 1) };
  }

  it('reads the tenants not cached in one query, then answers from memory', async () => {
    const { c, loads } = cache();
    expect([...(await c.of(['t1', 't2', 't1'])).keys()]).toEqual(['t1', 't2']);
    await c.of(['t2', 't3']);
    expect(loads).toEqual([['t1', 't2'], ['t3']]);
  });

  it('a NOTIFY with a tenant drops that tenant, one without drops all, and the TTL bounds a lost one', async () => {
    const { c, loads, tick, bump } = cache(5_000);
    await c.of(['t1', 't2']);
    bump();
    c.invalidate('t1');
    expect((await c.of(['t1', 't2'])).get('t1')?.[0].id).toBe('t1-v2');
    expect(loads.at(-1)).toEqual(['t1']);
    c.invalidate();
    await c.of(['t1', 't2']);
    expect(loads.at(-1)).toEqual(['t1', 't2']);
    tick(5_000);
    await c.of(['t2']);
    expect(loads.at(-1)).toEqual(['t2']);
  });

  it('a load that began before an invalidation answers its caller but is not kept', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let loads = 0;
    const c = new EndpointCache(async (tenants) => {
      loads += 1;
      if (loads === 1) await gate;
      return new Map(tenants.map((t) => [t, []]));
    }, 60_000);
    const first = c.of(['t1']);
    c.invalidate('t1');
    release();
    await first;
    await c.of(['t1']);
    expect(loads).toBe(2);
  });
});
