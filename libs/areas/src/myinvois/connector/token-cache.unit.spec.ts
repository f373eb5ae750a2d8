import { AppError } from '@einvoice/domain';
import { AccessToken, MyInvoisCredentials } from './connector';
import { invalidCredentials } from './errors';
import { InMemoryTokenStore, TokenCache } from './token-cache';

const credentials: MyInvoisCredentials = { clientId: 'client-1', clientSecret: 'secret', onBehalfOfTin: 'C25845632020' };
const HOUR = 3_600_000;

function setup(lifetimeMs = HOUR) {
  let now = 1_000_000;
  let logins = 0;
  const login = jest.fn(async (c: MyInvoisCredentials): Promise<AccessToken> => {
    logins += 1;
    return { accessToken: `t${logins}`, expiresAt: now + lifetimeMs, clientId: c.clientId, onBehalfOfTin: c.onBehalfOfTin };
  });
  const clock = () => now;
  const cache = new TokenCache(login, { now: clock, store: new InMemoryTokenStore(clock) });
  return { cache, login, advance: (ms: number) => (now += ms) };
}

describe('TokenCache', () => {
  it('logs in once and reuses the token for every call while it is valid', async () => {
    const { cache, login, advance } = setup();
    const first = await cache.get('supplier-1', credentials);
    advance(54 * 60_000);
    const again = await cache.get('supplier-1', credentials);
    expect(again).toBe(first);
    expect(login).toHaveBeenCalledTimes(1);
  });

  it('renews 5 minutes before a 60-minute token expires', async () => {
    const { cache, login, advance } = setup();
    await cache.get('supplier-1', credentials);
    advance(55 * 60_000);
    const renewed = await cache.get('supplier-1', credentials);
    expect(renewed.accessToken).toBe('t2');
    expect(login).toHaveBeenCalledTimes(2);
  });

  it('renews a short-lived token at 90% of its lifetime', async () => {
    const { cache, login, advance } = setup(2_000);
    await cache.get('k', credentials);
    advance(1_700);
    await cache.get('k', credentials);
    expect(login).toHaveBeenCalledTimes(1);
    advance(100);
    await cache.get('k', credentials);
    expect(login).toHaveBeenCalledTimes(2);
  });

  it('shares one login between concurrent callers of a key (single flight)', async () => {
    const { cache, login } = setup();
    const tokens = await Promise.all(Array.from({ length: 10 }, () => cache.get('supplier-1', credentials)));
    expect(new Set(tokens.map((t) => t.accessToken)).size).toBe(1);
    expect(login).toHaveBeenCalledTimes(1);
  });

  it('keeps one token per supplier', async () => {
    const { cache, login } = setup();
    const a = await cache.get('supplier-a', credentials);
    const b = await cache.get('supplier-b', { ...credentials, clientId: 'client-2' });
    expect(a.accessToken).not.toBe(b.accessToken);
    expect(login).toHaveBeenCalledTimes(2);
  });

  it('stores nothing when the login fails, and rejects every waiting caller', async () => {
    const login = jest.fn(async (): Promise<AccessToken> => {
      throw invalidCredentials('invalid_client');
    });
    const store = new InMemoryTokenStore();
    const cache = new TokenCache(login, { store });
    const results = await Promise.allSettled([cache.get('s', credentials), cache.get('s', credentials)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
    expect(login).toHaveBeenCalledTimes(1);
    await expect(store.get('s')).resolves.toBeUndefined();
  });

  it('logs in again after invalidate (the authority answered 401)', async () => {
    const { cache, login } = setup();
    await cache.get('s', credentials);
    await cache.invalidate('s');
    await cache.get('s', credentials);
    expect(login).toHaveBeenCalledTimes(2);
  });
});
