import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { freshCuit } from '../../libs/areas/src/afip/testing/cuits';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { AppProcess, runCli, startGateway } from '../support/stack';

const today = () => new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10).replace(/-/g, '');

/**
 * #17 the operator's view of what is stuck: a voucher taken by the gateway while no reporting worker
 * runs waits for its authority; `cli documents stuck` lists it with its last event, by area and age.
 */
describe('#17 cli documents stuck and dlq list', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let client: Client;
  const cuit = freshCuit();

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e operator cli');
    const started = await startGateway({ AUTHORITY_WAIT_MS: '300' });
    gateway = started.app;
    client = new Client(started.url, apiKey);
  });

  afterAll(async () => {
    await gateway?.stop();
    await dataSource?.destroy();
  });

  it('lists a document waiting for its authority with its last event; --area and --older-than narrow it', async () => {
    expect((await client.post('/ar/einvoice/onboard', { cuit, legal_name: 'Atascada SA' })).status).toBe(201);
    const answer = await client.post('/ar/einvoice/create-voucher', {
      CantReg: 1, PtoVta: 9, CbteTipo: 11, Concepto: 1, DocTipo: 99, DocNro: 0, CbteDesde: 1, CbteHasta: 1, CbteFch: today(),
      ImpTotal: 100, ImpTotConc: 0, ImpNeto: 100, ImpOpEx: 0, ImpIVA: 0, ImpTrib: 0, MonId: 'PES', MonCotiz: 1,
    }, { cuit });
    // No reporting worker: the answer is the 202 with the status link.
    expect(answer.status).toBe(202);
    const document = { id: answer.body.data.documentId as string };

    const listed = runCli(['documents', 'stuck', '--area', 'ar', '--older-than', '0s']);
    expect(listed.status).toBe(0);
    const rows = listed.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
    expect(rows).toEqual(expect.arrayContaining([expect.objectContaining({
      id: document.id, area: 'ar', state: 'pending', reportState: 'pending', lastEvent: expect.objectContaining({ type: 'AuthorityReportRequested' }),
    })]));
    expect(rows.every((r: { area: string }) => r.area === 'ar')).toBe(true);

    const recent = runCli(['documents', 'stuck', '--area', 'ar', '--older-than', '10m']);
    expect(recent.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line).id)).not.toContain(document.id);
    expect(runCli(['documents', 'stuck', '--older-than', 'soon']).status).toBe(1);

    const dlq = runCli(['dlq', 'list']);
    expect(dlq.status).toBe(0);
    for (const line of dlq.stdout.split('\n').filter(Boolean)) expect(JSON.parse(line)).toMatchObject({ id: expect.stringMatching(/^\d+:\d+$/) });
    expect(runCli(['dlq', 'replay', 'nope']).stderr).toContain('usage: dlq replay');
  });
});
