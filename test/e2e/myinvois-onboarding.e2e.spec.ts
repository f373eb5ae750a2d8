import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { onboardingBody } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { openTestDatabase } from '../support/database';
import { FakeMyInvoisServer } from '../fakes/myinvois/server';
import { Client } from '../support/http';
import { freshTin } from '../support/myinvois';
import { AppProcess, startGateway } from '../support/stack';

describe('#4 MyInvois onboarding and TIN validation over HTTP, against a fake of the real MyInvois API', () => {
  let dataSource: DataSource;
  let fake: FakeMyInvoisServer;
  let gateway: AppProcess;
  let client: Client;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    fake = new FakeMyInvoisServer();
    await fake.start();
    const { apiKey } = await createTenant(dataSource, 'e2e myinvois');
    const started = await startGateway({ MYINVOIS_MODE: 'live', MYINVOIS_API_URL: fake.url });
    gateway = started.app;
    client = new Client(started.url, apiKey);
  });

  afterAll(async () => {
    await gateway?.stop();
    await fake?.stop();
    await dataSource?.destroy();
  });

  const count = async (sql: string, params: unknown[] = []) => Number((await dataSource.query(sql, params))[0].n);

  it('onboards after one login, keeps the secret sealed, and reuses the token for later calls', async () => {
    const clientId = `client-${Date.now()}`;
    const secret = `secret-${Math.random().toString(36).slice(2)}`;
    const onboarded = await client.post('/api/einvoice/onboard', onboardingBody({ tin_number: freshTin(), client_id: clientId, client_secret: secret }));
    expect(onboarded.status).toBe(201);
    expect(onboarded.body).toEqual({ status: 'success', message: expect.any(String), data: { supplier_uuid: expect.any(String) } });
    expect(JSON.stringify(onboarded.body)).not.toContain(secret);
    const supplier = onboarded.body.data.supplier_uuid;
    expect(fake.logins(clientId)).toBe(1);

    // Never in clear at rest: not in events, sealed in authority_credentials.
    expect(await count(`SELECT count(*) AS n FROM events WHERE data::text LIKE $1`, [`%${secret}%`])).toBe(0);
    const [stored] = await dataSource.query(`SELECT client_secret_sealed FROM authority_credentials WHERE supplier_id = $1`, [supplier]);
    expect(stored.client_secret_sealed).toMatch(/^v1\./);
    expect(stored.client_secret_sealed).not.toContain(secret);

    for (let i = 0; i < 3; i += 1) {
      const checked = await client.post('/api/einvoice/validate-tin', { tin_number: 'C20880050010', id_type: 'BRN', id_value: '199901012345' }, { supplier_uuid: supplier });
      expect(checked.status).toBe(200);
      expect(checked.body).toEqual({ status: 'success', message: expect.any(String) });
    }
    // The cached token (Redis, sealed) served every call: no second login.
    expect(fake.logins(clientId)).toBe(1);
  });

  it('a bad client id or secret is a 400 naming client_id, and nothing is stored', async () => {
    const before = await count(`SELECT count(*) AS n FROM suppliers WHERE area = 'my'`);
    const answer = await client.post('/api/einvoice/onboard', onboardingBody({ tin_number: freshTin(), client_id: 'bad-client', client_secret: 'invalid' }));
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ path: 'client_id', code: 'MYINVOIS.INVALID_CREDENTIALS' });
    expect(await count(`SELECT count(*) AS n FROM suppliers WHERE area = 'my'`)).toBe(before);
  });

  it('field rules of the supplier table: each broken field is named', async () => {
    const tooLong = await client.post('/api/einvoice/onboard', onboardingBody({ tin_number: 'C123456789012345' }));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors.map((e: { path: string }) => e.path)).toContain('tin_number');
    const msic = await client.post('/api/einvoice/onboard', onboardingBody({ tin_number: freshTin(), msic_code: '1234' }));
    expect(msic.status).toBe(400);
    expect(msic.body.errors.map((e: { path: string }) => e.path)).toContain('msic_code');
  });

  it('validate-tin: a TIN MyInvois does not know is a 404 in the one shape; a bad id_type is a 400', async () => {
    const onboarded = await client.post('/api/einvoice/onboard', onboardingBody({ tin_number: freshTin(), client_id: `client-${Date.now()}-b` }));
    const supplier = onboarded.body.data.supplier_uuid;
    const unknown = await client.post('/api/einvoice/validate-tin', { tin_number: 'C20880050010', id_type: 'BRN', id_value: '000000000000' }, { supplier_uuid: supplier });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0]).toMatchObject({ path: 'tin_number', code: 'MYINVOIS.TIN_NOT_FOUND' });
    const badType = await client.post('/api/einvoice/validate-tin', { tin_number: 'C20880050010', id_type: 'SSN', id_value: '1' }, { supplier_uuid: supplier });
    expect(badType.status).toBe(400);
    expect(badType.body.errors[0].path).toBe('id_type');
  });
});
