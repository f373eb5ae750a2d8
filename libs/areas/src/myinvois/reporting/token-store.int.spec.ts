// Tokens in PostgreSQL, shared by processes: two TokenCaches on one database are two processes of a
// stack (the gateway and a worker); one login serves both until its renewal time.
import { randomUUID } from 'node:crypto';
import { SecretBox } from '@einvoice/domain';
import type { DataSource } from 'typeorm';
import { openTestDatabase } from '../../../../../test/support/database';
import type { AccessToken } from '../connector/connector';
import { TokenCache } from '../connector/token-cache';
import { PostgresTokenStore } from './token-store';

describe('MyInvois access tokens in PostgreSQL, shared by processes', () => {
  let dataSource: DataSource;
  let now = Date.now();
  const box = SecretBox.fromEnv({});
  const credentials = { clientId: 'client', clientSecret: 'secret', onBehalfOfTin: 'C25845632020' };
  const store = () => new PostgresTokenStore((sql, params) => dataSource.query(sql, params), box, () => now);
  const tokenOf = (accessToken: string) => ({ accessToken, clientId: 'client', onBehalfOfTin: 'C25845632020' });

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  it('one login serves every process until its renewal time; an invalidated token is gone for all', async () => {
    const supplierId = randomUUID();
    let logins = 0;
    const login = async (): Promise<AccessToken> => ({ ...tokenOf(`token-${supplierId}-${++logins}`), expiresAt: now + 3_600_000 });
    const cacheOfAProcess = () => new TokenCache(login, { store: store(), now: () => now });
    const [gateway, worker] = [cacheOfAProcess(), cacheOfAProcess()];

    const first = await gateway.get(supplierId, credentials);
    await expect(worker.get(supplierId, credentials)).resolves.toEqual(first);
    expect(logins).toBe(1);
    const [row] = await dataSource.query(`SELECT sealed FROM myinvois_access_tokens WHERE cache_key = $1`, [supplierId]);
    expect(row.sealed).not.toContain(first.accessToken);

    now += 55 * 60_000 + 1;
    const renewed = await worker.get(supplierId, credentials);
    expect(renewed.accessToken).not.toBe(first.accessToken);
    await expect(gateway.get(supplierId, credentials)).resolves.toEqual(renewed);

    await gateway.invalidate(supplierId);
    await expect(store().get(supplierId)).resolves.toBeUndefined();
  });

  it('an entry past its time to live reads as absent', async () => {
    const supplierId = randomUUID();
    const token: AccessToken = { ...tokenOf(`token-${supplierId}`), expiresAt: now + 1_000 };
    await store().set(supplierId, { token, renewAt: now + 900 }, 1_000);
    await expect(store().get(supplierId)).resolves.toEqual({ token, renewAt: now + 900 });
    now += 1_000;
    await expect(store().get(supplierId)).resolves.toBeUndefined();
  });
});
