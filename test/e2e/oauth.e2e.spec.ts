import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { AppProcess, runCli, startGateway } from '../support/stack';

const run = Date.now().toString(36);

/**
 * #10 OAuth 2.0 client credentials over HTTP: clients created by API (and by the CLI), tokens by JSON,
 * form and HTTP Basic, RFC 6749 errors, tokens accepted as Bearer (and in x-svc-auth-key) wherever a
 * key is, expiry, and revocation by deleting the client.
 */
describe('#10 OAuth 2.0 client credentials', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let client: Client;
  let anonymous: Client;
  let other: Client;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const started = await startGateway();
    gateway = started.app;
    client = new Client(started.url, (await createTenant(dataSource, `e2e oauth ${run}`)).apiKey);
    other = new Client(started.url, (await createTenant(dataSource, `e2e oauth other ${run}`)).apiKey);
    anonymous = new Client(started.url);
  });

  afterAll(async () => {
    await gateway?.stop();
    await dataSource?.destroy();
  });

  const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    anonymous.request('POST', '/v1/oauth/token', { raw: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  /** A route any authenticated caller may read: the participant lookup (404 for an unknown participant, 401 without credentials). */
  const probe = (headers: Record<string, string>) => anonymous.get(`/1.0/participant/lookup?pid=${encodeURIComponent('iso6523-actorid-upis::0208:0123456749')}`, headers);

  it('creates a client (secret shown once, stored as a hash) and gives tokens for JSON, form and HTTP Basic requests', async () => {
    const created = await client.post('/v1/oauth/clients', undefined);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ client_id: expect.stringMatching(/^client_[0-9a-f]{24}$/), client_secret: expect.stringMatching(/^cs_/) });
    const { client_id, client_secret } = created.body;
    const stored = await dataSource.query(`SELECT secret_hash FROM oauth_clients WHERE client_id = $1`, [client_id]);
    expect(stored[0].secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(client_secret);

    const json = await anonymous.post('/v1/oauth/token', { grant_type: 'client_credentials', client_id, client_secret });
    expect(json.status).toBe(200);
    expect(json.body).toEqual({ access_token: expect.stringMatching(/^at_/), token_type: 'Bearer', expires_in: 3600 });
    expect(json.headers.get('cache-control')).toBe('no-store');
    const byForm = await form({ grant_type: 'client_credentials', client_id, client_secret });
    expect(byForm.status).toBe(200);
    const byBasic = await form({ grant_type: 'client_credentials' }, { authorization: basic(client_id, client_secret) });
    expect(byBasic.status).toBe(200);
    const tokens = await dataSource.query(`SELECT token_hash FROM oauth_tokens WHERE client_id = $1`, [client_id]);
    expect(tokens).toHaveLength(3);
    expect(JSON.stringify(tokens)).not.toContain(json.body.access_token);

    expect((await probe(bearer(json.body.access_token))).status).toBe(404);
    expect((await probe({ 'x-svc-auth-key': byForm.body.access_token })).status).toBe(404);
    expect((await probe(bearer(client.apiKey as string))).status).toBe(404);
    expect((await probe({})).status).toBe(401);
    const unknown = await probe(bearer('at_unknown'));
    expect(unknown.status).toBe(401);
    expect(unknown.body.errors[0].code).toBe('AUTH.INVALID_TOKEN');
  });

  it('answers RFC 6749 errors: invalid_request, unsupported_grant_type, invalid_client (with WWW-Authenticate for Basic)', async () => {
    const { client_id, client_secret } = (await client.post('/v1/oauth/clients', undefined)).body;
    const missing = await anonymous.post('/v1/oauth/token', { client_id, client_secret });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'invalid_request', error_description: expect.any(String), request_id: expect.any(String) });
    const repeated = await anonymous.request('POST', '/v1/oauth/token', {
      raw: `grant_type=client_credentials&client_id=${client_id}&client_id=${client_id}&client_secret=${client_secret}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(repeated.body.error).toBe('invalid_request');
    expect((await anonymous.post('/v1/oauth/token', { grant_type: 'password', client_id, client_secret })).body.error).toBe('unsupported_grant_type');
    const wrong = await anonymous.post('/v1/oauth/token', { grant_type: 'client_credentials', client_id, client_secret: 'cs_wrong' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    const wrongBasic = await form({ grant_type: 'client_credentials' }, { authorization: basic(client_id, 'cs_wrong') });
    expect(wrongBasic.status).toBe(401);
    expect(wrongBasic.headers.get('www-authenticate')).toContain('Basic');
    const malformed = await anonymous.request('POST', '/v1/oauth/token', { raw: '{"grant_type":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('invalid_request');
    // Other routes still take JSON only.
    const formElsewhere = await client.request('POST', '/v1/oauth/clients', { raw: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(formElsewhere.status).toBe(415);
  });

  it('refuses an expired token, and revokes every token of a deleted client at once; another tenant cannot delete it', async () => {
    const { client_id, client_secret } = (await client.post('/v1/oauth/clients', undefined)).body;
    const token = async () => (await anonymous.post('/v1/oauth/token', { grant_type: 'client_credentials', client_id, client_secret })).body.access_token as string;
    const expiring = await token();
    await dataSource.query(`UPDATE oauth_tokens SET expires_at = now() - interval '1 second' WHERE client_id = $1`, [client_id]);
    const expired = await probe(bearer(expiring));
    expect(expired.status).toBe(401);
    expect(expired.body.errors[0].code).toBe('AUTH.TOKEN_EXPIRED');

    const live = await token();
    expect((await probe(bearer(live))).status).toBe(404); // cached from here on
    expect((await other.request('DELETE', `/v1/oauth/clients/${client_id}`)).status).toBe(404);
    expect((await client.request('DELETE', `/v1/oauth/clients/${client_id}`)).status).toBe(204);
    const revoked = await probe(bearer(live));
    expect(revoked.status).toBe(401);
    expect((await anonymous.post('/v1/oauth/token', { grant_type: 'client_credentials', client_id, client_secret })).status).toBe(401);
    expect((await client.request('DELETE', `/v1/oauth/clients/${client_id}`)).status).toBe(404);
  });

  it('creates a client from the CLI: `clients create <tenant name>` prints client_id and client_secret on one line', async () => {
    const printed = runCli(['clients', 'create', `e2e oauth ${run}`]);
    expect(printed.status).toBe(0);
    const [clientId, clientSecret, ...more] = printed.stdout.trim().split(' ');
    expect(more).toEqual([]);
    const answer = await form({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
    expect(answer.status).toBe(200);
    expect(runCli(['clients', 'create', `nobody ${run}`]).status).not.toBe(0);
  });
});
