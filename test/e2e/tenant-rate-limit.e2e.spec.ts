import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { AppProcess, startGateway } from '../support/stack';

describe('Per-tenant request limits (README "Request limits"): 429 with Retry-After in the one error shape, one tenant never uses up another\'s allowance', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let flooding: Client;
  let quiet: Client;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    // 2 requests per second sustained, 4 at once.
    const started = await startGateway({ TENANT_RATE_LIMIT_PER_S: '2', TENANT_RATE_BURST: '4' });
    gateway = started.app;
    flooding = new Client(started.url, (await createTenant(dataSource, 'e2e rate limit flooding')).apiKey);
    quiet = flooding.withKey((await createTenant(dataSource, 'e2e rate limit quiet')).apiKey);
  });

  afterAll(async () => {
    await gateway?.stop();
    await dataSource?.destroy();
  });

  const read = (client: Client) => client.get(`/api/einvoice/documents/${randomUUID()}`);

  it('the burst passes, the next request is a 429 naming the limit with Retry-After; the other tenant is served at once; after Retry-After the first is served again', async () => {
    const burst = await Promise.all(Array.from({ length: 10 }, () => read(flooding)));
    const refused = burst.filter((a) => a.status === 429);
    // 4 at once, maybe one more refilled while they ran: never all, never none.
    expect(burst.length - refused.length).toBeGreaterThanOrEqual(4);
    expect(burst.length - refused.length).toBeLessThanOrEqual(5);
    expect(refused[0].body).toEqual({
      status: 'too_many_requests',
      message: expect.stringContaining('at most 2 per second'),
      errors: [{ path: '', code: 'RATE_LIMIT.EXCEEDED', message: expect.any(String), severity: 'error' }],
      // #47: the limiter's answer names its request as every other error does.
      request_id: refused[0].headers.get('x-request-id'),
    });
    const retryAfter = Number(refused[0].headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);

    // The other tenant's allowance is its own.
    expect((await read(quiet)).status).not.toBe(429);

    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    expect((await read(flooding)).status).not.toBe(429);
  });

  it('an unknown key is a 401, never a 429 (the limit counts tenants, after their key is known)', async () => {
    const stranger = flooding.withKey('sk_unknown_key');
    const answers = await Promise.all(Array.from({ length: 8 }, () => read(stranger)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(401));
  });
});
