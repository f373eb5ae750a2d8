import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { isKsefNumber } from '../../libs/areas/src/ksef/ksef-number';
import { conformanceDir } from '../../libs/areas/src/conformance/location';
import { appsAlone, exitOf, startAppIn, startGatewayIn } from '../support/apps-alone';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { type AppProcess, eventually, freePort, testEnv } from '../support/stack';

const run = Date.now().toString(36).toUpperCase();
const emptyFolder = () => mkdtempSync(path.join(os.tmpdir(), 'einvoice-empty-'));

/**
 * The apps' environment with no official artefacts within reach: CONFORMANCE_DIR unset, and the tests'
 * oracle location (which the apps must never read) an empty folder, so nothing can fall back to it.
 */
function withoutArtefacts(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = testEnv({ CONFORMANCE_ORACLE_DIR: emptyFolder(), LOG_LEVEL: 'info' });
  delete env.CONFORMANCE_DIR;
  return { ...env, ...extra };
}

/**
 * #44 The service reads nothing outside its repository at run time: the apps as the image holds them,
 * with no `../shared` beside them and no CONFORMANCE_DIR, take a Polish invoice to Accepted with its
 * KSeF number and a Spanish record to Correcto at the sandbox AEAT (the sandboxes' own checks), and
 * each app says in one line that the official checks are off.
 */
describe('#44 the apps alone: no ../shared, no CONFORMANCE_DIR', () => {
  let dataSource: DataSource;
  let gateway: AppProcess & { output(): string };
  let worker: AppProcess & { output(): string };
  let client: Client;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const folder = appsAlone();
    const env = withoutArtefacts({ AUTHORITY_POLL_SWEEP_MS: '100', AUTHORITY_BATCH_SWEEP_MS: '100', KSEF_SANDBOX_LIMITS: '1000/10000/100000', VERIFACTU_SANDBOX_WAIT_S: '1' });
    const started = await startGatewayIn(folder, env);
    gateway = started.app;
    client = new Client(started.url, (await createTenant(dataSource, `e2e alone ${run}`)).apiKey);
    worker = startAppIn(folder, 'reporting-worker', env);
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.stop();
    await dataSource?.destroy();
  });

  it('a Polish invoice reaches Accepted with its KSeF number', async () => {
    const onboarded = await client.post('/pl/einvoice/onboard', {
      registered_name: 'Sprzedawca Sp. z o.o.', identifiers: [{ scheme: 'PL:NIP', id: '5260250274' }], street: 'ul. Prosta 1', city: 'Warszawa', postal_code: '00-001', country: 'PL',
    });
    expect(onboarded.status).toBe(201);
    const headers = { supplier_uuid: onboarded.body.data.supplier_uuid, transport_mode: 'ksef' };
    const answer = await client.post('/pl/einvoice/generate/invoice', {
      ID: `FV/ALONE/${run}`,
      DocumentType: 'Invoice',
      IssueDate: '2026-11-25',
      CustomerParty: { RegisteredName: 'Nabywca S.A.', address: { Street: 'ul. Krzywa 2', ZipCode: '30-001', City: 'Kraków', Country: 'PL' }, Identifiers: [{ Scheme: 'PL:NIP', ID: '1234563218' }] },
      InvoiceLines: [{ Description: 'Usługa doradcza', PriceAmount: 100, InvoicedQuantity: 2, TaxType: { TaxRate: 23, TaxType: 'standard', TaxCountry: 'PL' } }],
      TotalIncludingVat: 246,
    }, headers);
    expect(answer.status).toBe(202);
    const verdict = await eventually("KSeF's verdict", async () => {
      const s = (await client.get(`/pl/einvoice/status/${answer.body.data.DocumentID}`, headers)).body.data;
      return s?.Status === 'Submitted' ? undefined : s;
    });
    expect(verdict).toMatchObject({ Status: 'Accepted' });
    expect(isKsefNumber(verdict.KsefNumber)).toBe(true);
  });

  it('a Spanish record is accepted (Correcto) by the sandbox AEAT', async () => {
    const onboarded = await client.post('/es/verifactu/onboard', { nif: '89890001K', name: 'Empresa de Pruebas SL' });
    expect(onboarded.status).toBe(201);
    const headers = { 'participant-id': onboarded.body.data.participant_id };
    const answer = await client.post('/es/verifactu/generate', {
      document_identifier: `ALONE-${run}`,
      issue_date: '2026-11-25',
      invoice_type: 'F1',
      description: 'Consulting, November',
      recipient: { nif: 'B00000000', name: 'Cliente SA' },
      taxlines: [{ tax_base: 100, tax_rate: 21, repercutida_quota: '21.00' }],
      total_amount: '121.00',
    }, headers);
    expect(answer.status).toBe(200);
    const record = await eventually("the AEAT's answer", async () => {
      const r = (await client.get(`/es/verifactu/records/${answer.body.message.uuid}`, headers)).body.data;
      return r?.aeat_status === 'Pendiente' ? undefined : r;
    });
    expect(record).toMatchObject({ aeat_status: 'Correcto', aeat_csv: expect.any(String) });
  });

  it('each app said once, at its start, that the official checks are off', () => {
    for (const app of [gateway, worker]) expect(app.output().match(/official conformance checks off/g)).toHaveLength(1);
  });
});

/**
 * #44 A configured but missing artefact is an error at start: the app refuses to start with a message
 * saying what is missing and what to do, instead of failing every request or retrying for ever.
 */
describe('#44 CONFORMANCE_DIR configured but missing: the app refuses to start', () => {
  let folder: string;
  const started: AppProcess[] = [];
  /** The app from the copy, on a free port (a gateway that did start must not take another's). */
  const start = async (name: 'gateway' | 'reporting-worker', extra: Record<string, string>) => {
    const app = startAppIn(folder, name, withoutArtefacts({ PORT: String(await freePort()), ...extra }));
    started.push(app);
    return app;
  };
  beforeAll(() => {
    folder = appsAlone();
  });
  afterAll(async () => {
    for (const app of started) await app.stop();
  });

  it.each(['gateway', 'reporting-worker'] as const)('%s with CONFORMANCE_DIR naming an empty folder: exits 1 naming the folder and the files it lacks', async (name) => {
    const empty = emptyFolder();
    const app = await start(name, { CONFORMANCE_DIR: empty });
    expect(await exitOf(app)).toBe(1);
    const message = /lacks official files the checks it turns on need: ([^.]*(?:\.[^ .][^.]*)*)\. Put them there/.exec(app.output());
    expect(app.output()).toContain(`CONFORMANCE_DIR=${empty} lacks official files`);
    expect(message?.[1].split(', ')).toEqual(expect.arrayContaining(['ksef/FA/schemat_FA(3)_v1-0E.xsd', 'ksef/FA/bazowe/KodyKrajow_v10-0E.xsd', 'verifactu/SuministroLR.xsd']));
  });

  it('the gateway with CONFORMANCE_DIR naming no folder: exits 1 saying so', async () => {
    const missing = path.join(emptyFolder(), 'nowhere');
    const app = await start('gateway', { CONFORMANCE_DIR: missing });
    expect(await exitOf(app)).toBe(1);
    expect(app.output()).toContain(`CONFORMANCE_DIR=${missing} is not a folder`);
  });

  it('the gateway with UAE_OFFICIAL_SCHEMATRON=true and no CONFORMANCE_DIR: exits 1 saying the setting needs it', async () => {
    const app = await start('gateway', { UAE_OFFICIAL_SCHEMATRON: 'true' });
    expect(await exitOf(app)).toBe(1);
    expect(app.output()).toContain('UAE_OFFICIAL_SCHEMATRON=true (PINT AE Schematron (UAE_OFFICIAL_SCHEMATRON)) needs CONFORMANCE_DIR');
  });

  it('with CONFORMANCE_DIR naming the official artefacts, the gateway starts and says in one line which checks are on, and from where', async () => {
    const { app } = await startGatewayIn(folder, withoutArtefacts({ CONFORMANCE_DIR: conformanceDir, UAE_OFFICIAL_SCHEMATRON: 'true' }));
    try {
      const line = app.output().split('\n').filter((l) => l.includes('official conformance checks'));
      expect(line).toHaveLength(1);
      expect(JSON.parse(line[0])).toMatchObject({
        message: 'official conformance checks on',
        conformanceDir: path.resolve(conformanceDir),
        checks: expect.arrayContaining(['KSeF FA(3) XSD', 'VeriFactu SuministroLR XSD', 'PINT AE Schematron (UAE_OFFICIAL_SCHEMATRON)']),
      });
    } finally {
      await app.stop();
    }
  });
});
