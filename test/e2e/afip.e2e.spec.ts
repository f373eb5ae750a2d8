import * as fs from 'node:fs';
import http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { freshCuit } from '../../libs/areas/src/afip/testing/cuits';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { AppProcess, eventually, startApp, startGateway, testEnv } from '../support/stack';

/** A GET with a JSON body, as the seed's reads are sent (fetch refuses a body on GET). */
function getWithBody(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const request = http.request(url, { method: 'GET', headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c) => chunks.push(c));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') }));
    });
    request.on('error', reject);
    request.end(payload);
  });
}

const today = () => new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10).replace(/-/g, '');
const facturaA = (n: number, extra: Record<string, unknown> = {}) => ({
  CantReg: 1, PtoVta: 1, CbteTipo: 1, Concepto: 1, DocTipo: 80, DocNro: 30712345671, CbteDesde: n, CbteHasta: n, CbteFch: today(),
  ImpTotal: 121, ImpTotConc: 0, ImpNeto: 100, ImpOpEx: 0, ImpIVA: 21, ImpTrib: 0, MonId: 'PES', MonCotiz: 1, Iva: [{ Id: 5, BaseImp: 100, Importe: 21 }], ...extra,
});

/**
 * #16 Argentina over HTTP with the apps: vouchers authorised by the sandbox AFIP before the answer, in
 * number order per sequence, AFIP's validations answered as AFIP does (R with its codes), reads and catalogs.
 */
describe('#16 Argentina: AFIP vouchers over HTTP', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let worker: AppProcess | undefined;
  let client: Client;
  let other: Client;
  let url: string;
  let apiKey: string;
  const cuit = freshCuit();
  const headers = () => ({ cuit });
  // #44: the apps run as from a clone or the image, with no official artefacts beside them.
  const noConformance = fs.mkdtempSync(path.join(os.tmpdir(), 'no-conformance-'));
  const appEnv = (extra: Record<string, string> = {}) => testEnv({ CONFORMANCE_ORACLE_DIR: noConformance, ...extra });

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    ({ apiKey } = await createTenant(dataSource, 'e2e afip'));
    const { apiKey: otherKey } = await createTenant(dataSource, 'e2e afip other');
    const started = await startGateway({ AUTHORITY_WAIT_MS: '20000', CONFORMANCE_ORACLE_DIR: noConformance });
    gateway = started.app;
    url = started.url;
    client = new Client(started.url, apiKey);
    other = new Client(started.url, otherKey);
    worker = startApp('reporting-worker', appEnv({ AUTHORITY_BATCH_SWEEP_MS: '100' }));
    const onboarded = await client.post('/ar/einvoice/onboard', { cuit, legal_name: 'Comercio SRL', points_of_sale: [1, 2] });
    expect(onboarded.status).toBe(201);
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.stop();
    await dataSource?.destroy();
    fs.rmSync(noConformance, { recursive: true, force: true });
  });

  const last = async (PtoVta: number, CbteTipo: number) => (await client.request('GET', `/ar/einvoice/last-voucher?PtoVta=${PtoVta}&CbteTipo=${CbteTipo}`, { headers: headers() })).body.CbteNro as number;

  it('onboarding checks the CUIT; the cuit header must be a valid, onboarded CUIT of this tenant', async () => {
    const bad = await client.post('/ar/einvoice/onboard', { cuit: '20111111113', legal_name: 'X' });
    expect(bad.body.errors).toEqual([expect.objectContaining({ path: 'cuit', code: 'AFIP.CUIT' })]);
    expect((await client.get('/ar/einvoice/voucher-types', { cuit: '20111111113' })).status).toBe(400);
    expect((await client.get('/ar/einvoice/voucher-types', { cuit: freshCuit() })).status).toBe(404);
    expect((await other.get('/ar/einvoice/voucher-types', headers())).status).toBe(404);
  });

  it('last-voucher from the query and from a JSON body; Factura A authorised with a 14-digit CAE; get-voucher returns it', async () => {
    const n = await last(1, 1);
    const withBody = await getWithBody(`${url}/ar/einvoice/last-voucher`, { ...headers(), 'x-svc-auth-key': apiKey }, { PtoVta: 1, CbteTipo: 1 });
    expect(withBody.body).toEqual({ PtoVta: 1, CbteTipo: 1, CbteNro: n });
    const answer = await client.post('/ar/einvoice/create-voucher', facturaA(n + 1), headers());
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ Cuit: Number(cuit), PtoVta: 1, CbteTipo: 1, CantReg: 1, Resultado: 'A', Errors: [], FeDetResp: [{ CbteDesde: n + 1, CbteHasta: n + 1, Resultado: 'A', CAE: expect.stringMatching(/^\d{14}$/), CAEFchVto: expect.stringMatching(/^\d{8}$/) }] });
    expect(answer.body.QrLink).toMatch(/^https:\/\/www\.afip\.gob\.ar\/fe\/qr\/\?p=/);
    const voucher = await client.request('GET', `/ar/einvoice/get-voucher?PtoVta=1&CbteTipo=1&CbteNro=${n + 1}`, { headers: headers() });
    expect(voucher.body).toMatchObject({ CbteDesde: n + 1, Resultado: 'A', CodAutorizacion: answer.body.FeDetResp[0].CAE, ImpTotal: 121 });
    expect(await last(1, 1)).toBe(n + 1);
    expect((await client.request('GET', `/ar/einvoice/get-voucher?PtoVta=1&CbteTipo=1&CbteNro=${n + 1000}`, { headers: headers() })).status).toBe(404);
  });

  it('Factura B and C with their arithmetic; CondicionIVAReceptorId derived for a final consumer', async () => {
    const b = await last(1, 6);
    const facturaB = await client.post('/ar/einvoice/create-voucher', facturaA(b + 1, { CbteTipo: 6, DocTipo: 99, DocNro: 0 }), headers());
    expect(facturaB.body).toMatchObject({ Resultado: 'A' });
    const c = await last(2, 11);
    const facturaC = await client.post('/ar/einvoice/create-voucher', facturaA(c + 1, { PtoVta: 2, CbteTipo: 11, DocTipo: 99, DocNro: 0, ImpIVA: 0, ImpTotal: 100, Iva: undefined }), headers());
    expect(facturaC.body).toMatchObject({ Resultado: 'A' });
  });

  it('each AFIP validation is Resultado R with its code (HTTP 200), and the number stays free', async () => {
    const n = await last(1, 1);
    const cases: Array<[number, Record<string, unknown>]> = [
      [10016, { CbteDesde: n + 5, CbteHasta: n + 5, CbteFch: '20200101' }],
      [10013, { DocTipo: 96 }],
      [10048, { ImpTotal: 120 }],
      [10023, { Iva: [{ Id: 5, BaseImp: 100, Importe: 20 }] }],
      [10039, { MonCotiz: 2 }],
      [10049, { Concepto: 2 }],
    ];
    for (const [code, change] of cases) {
      const answer = await client.post('/ar/einvoice/create-voucher', facturaA(n + 1, change), headers());
      expect([code, answer.status, answer.body.Resultado]).toEqual([code, 200, 'R']);
      expect(answer.body.Errors.map((e: { Code: number }) => e.Code)).toContain(code);
    }
    expect((await client.post('/ar/einvoice/create-voucher', facturaA(n + 1), headers())).body.Resultado).toBe('A');
    const notAVoucher = await client.post('/ar/einvoice/create-voucher', { ...facturaA(n + 2), ImpTotal: '121' }, headers());
    expect(notAVoucher.status).toBe(400);
    expect(notAVoucher.body.errors).toEqual([expect.objectContaining({ path: 'ImpTotal' })]);
  });

  it('20 concurrent creates for one sequence: numbers n+1…n+20, each authorised once, in order', async () => {
    const n = await last(2, 1);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => client.post('/ar/einvoice/create-voucher', facturaA(n + 1 + i, { PtoVta: 2 }), headers())));
    expect(answers.map((a) => a.body.Resultado)).toEqual(Array.from({ length: 20 }, () => 'A'));
    const rows = await dataSource.query(`SELECT cbte_nro FROM afip_sandbox_vouchers WHERE cuit = $1 AND pto_vta = 2 AND cbte_tipo = 1 ORDER BY cbte_nro`, [cuit]);
    expect(rows.map((r: { cbte_nro: number }) => r.cbte_nro)).toEqual(Array.from({ length: n + 20 }, (_, i) => i + 1).slice(n));
    expect(await last(2, 1)).toBe(n + 20);
  });

  /** A voucher sent without its numbers (#44): the gateway takes the sequence's next at sending time. */
  const unnumbered = (voucher: Record<string, unknown>) => ({ ...voucher, CbteDesde: undefined, CbteHasta: undefined });
  const facturaB = (extra: Record<string, unknown> = {}) => unnumbered(facturaA(0, { PtoVta: 2, CbteTipo: 6, DocTipo: 99, DocNro: 0, ...extra }));
  const sandboxNumbers = async (PtoVta: number, CbteTipo: number, after: number) =>
    (await dataSource.query(`SELECT cbte_nro FROM afip_sandbox_vouchers WHERE cuit = $1 AND pto_vta = $2 AND cbte_tipo = $3 AND cbte_nro > $4 ORDER BY cbte_nro`, [cuit, PtoVta, CbteTipo, after]))
      .map((r: { cbte_nro: number }) => r.cbte_nro);

  it('#44 ten vouchers sent without CbteDesde/CbteHasta at once: ten consecutive numbers, each once, answered in FeDetResp', async () => {
    const n = await last(2, 6);
    const answers = await Promise.all(Array.from({ length: 10 }, () => client.post('/ar/einvoice/create-voucher', facturaB(), headers())));
    expect(answers.map((a) => [a.status, a.body.Resultado])).toEqual(Array.from({ length: 10 }, () => [200, 'A']));
    const numbers = answers.map((a) => a.body.FeDetResp[0].CbteDesde as number);
    expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => n + 1 + i));
    for (const a of answers) {
      const [detail] = a.body.FeDetResp;
      expect(detail).toMatchObject({ CbteHasta: detail.CbteDesde, Resultado: 'A', CAE: expect.stringMatching(/^\d{14}$/) });
      expect(a.body.Cantidad).toBe(1);
      expect(JSON.parse(Buffer.from(new URL(a.body.QrLink).searchParams.get('p') as string, 'base64').toString('utf8'))).toMatchObject({ nroCmp: detail.CbteDesde });
    }
    expect(await sandboxNumbers(2, 6, n)).toEqual(Array.from({ length: 10 }, (_, i) => n + 1 + i));
    expect(await last(2, 6)).toBe(n + 10);
    // The seed's form goes on from there in the same sequence; a number without the other is a 400 naming it.
    expect((await client.post('/ar/einvoice/create-voucher', facturaA(n + 11, { PtoVta: 2, CbteTipo: 6, DocTipo: 99, DocNro: 0 }), headers())).body.Resultado).toBe('A');
    const half = await client.post('/ar/einvoice/create-voucher', { ...facturaB(), CbteDesde: n + 12 }, headers());
    expect([half.status, half.body.errors]).toEqual([400, [expect.objectContaining({ path: 'CbteHasta', code: 'FIELD.REQUIRED' })]]);
  });

  it('#44 a voucher without numbers retried with its Idempotency-Key is the same voucher under the same number, taken once', async () => {
    const n = await last(2, 6);
    const key = `afip-next-${Date.now()}`;
    const [first, raced] = await Promise.all([0, 1].map(() => client.post('/ar/einvoice/create-voucher', facturaB({ ImpNeto: 200, ImpIVA: 42, ImpTotal: 242, Iva: [{ Id: 5, BaseImp: 200, Importe: 42 }] }), { ...headers(), 'Idempotency-Key': key })));
    const retried = await client.post('/ar/einvoice/create-voucher', facturaB({ ImpNeto: 200, ImpIVA: 42, ImpTotal: 242, Iva: [{ Id: 5, BaseImp: 200, Importe: 42 }] }), { ...headers(), 'Idempotency-Key': key });
    // The first answer is AFIP's; a replay is the recorded one, naming the voucher (its link).
    const numberOf = async (answer: { status: number; body: any }) => // eslint-disable-line @typescript-eslint/no-explicit-any
      answer.status === 200 ? answer.body.FeDetResp[0].CbteDesde : (await client.get(answer.body.data.href, headers())).body.FeDetResp[0].CbteDesde;
    expect(await Promise.all([first, raced, retried].map(numberOf))).toEqual([n + 1, n + 1, n + 1]);
    expect(await sandboxNumbers(2, 6, n)).toEqual([n + 1]);
    expect(await last(2, 6)).toBe(n + 1);
  });

  it('serves the seven catalogs from the project\'s own data (#44: no shared/conformance beside the apps)', async () => {
    for (const name of ['voucher-types', 'concept-types', 'document-types', 'rates', 'currencies', 'options-types', 'tax-types']) {
      const answer = await client.get(`/ar/einvoice/${name}`, headers());
      expect([name, answer.status]).toEqual([name, 200]);
      expect(answer.body[0]).toEqual({ Id: expect.anything(), Desc: expect.any(String), FchDesde: expect.stringMatching(/^\d{8}$/), FchHasta: expect.any(String) });
    }
    expect((await client.get('/ar/einvoice/rates', headers())).body.find((r: { Id: number }) => r.Id === 5)).toMatchObject({ Desc: '21%' });
    expect((await client.get('/ar/einvoice/nope-types', headers())).status).toBe(404);
    // A name every object has is no catalog either.
    expect((await client.get('/ar/einvoice/constructor', headers())).status).toBe(404);
  });

  it('AFIP down (sandbox DocNro 99999999901) is retried and then answered; a refused cuit header names it', async () => {
    const n = await last(1, 6);
    const answer = await client.post('/ar/einvoice/create-voucher', facturaA(n + 1, { CbteTipo: 6, DocTipo: 80, DocNro: 99999999901, CondicionIVAReceptorId: 1 }), headers());
    expect([200, 202]).toContain(answer.status);
    await eventually('authorised after AFIP came back', async () => ((await last(1, 6)) === n + 1 ? true : undefined));
    const malformed = await client.get('/ar/einvoice/rates', { cuit: 'abc' });
    expect(malformed.body.errors).toEqual([expect.objectContaining({ path: 'headers.cuit' })]);
  });

  it('a worker killed (kill -9) after AFIP authorised a voucher, before its answer: each number authorised once', async () => {
    await worker?.stop();
    const slow = startApp('reporting-worker', appEnv({ AUTHORITY_BATCH_SWEEP_MS: '100', AFIP_SANDBOX_DELAY_MS: '4000' }));
    worker = slow;
    const n = await last(1, 11);
    const pending = client.post('/ar/einvoice/create-voucher', facturaA(n + 1, { CbteTipo: 11, DocTipo: 99, DocNro: 0, ImpIVA: 0, ImpTotal: 100, Iva: undefined }), headers());
    await eventually('AFIP authorised it', async () => ((await last(1, 11)) === n + 1 ? true : undefined));
    await slow.crash();
    worker = startApp('reporting-worker', appEnv({ AUTHORITY_BATCH_SWEEP_MS: '100' }));
    const answer = await pending;
    expect([200, 202]).toContain(answer.status);
    const [doc] = await dataSource.query(`SELECT id FROM documents WHERE area = 'ar' AND fields->>'Cuit' = $1 AND document_number = $2`, [cuit, `00001-011-${String(n + 1).padStart(8, '0')}`]);
    await eventually('answered A', async () => ((await client.get(`/ar/einvoice/vouchers/${doc.id}`, headers())).body.Resultado === 'A' ? true : undefined), 60_000);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM afip_sandbox_vouchers WHERE cuit = $1 AND pto_vta = 1 AND cbte_tipo = 11 AND cbte_nro = $2`, [cuit, n + 1])).toEqual([{ n: 1 }]);
    expect(await last(1, 11)).toBe(n + 1);
  });

  it('#44 a worker killed (kill -9) after AFIP authorised a voucher sent without numbers: found under the number tried, never given another', async () => {
    await worker?.stop();
    const slow = startApp('reporting-worker', appEnv({ AUTHORITY_BATCH_SWEEP_MS: '100', AFIP_SANDBOX_DELAY_MS: '4000' }));
    worker = slow;
    const n = await last(1, 11);
    const pending = client.post('/ar/einvoice/create-voucher', unnumbered(facturaA(0, { CbteTipo: 11, DocTipo: 99, DocNro: 0, ImpIVA: 0, ImpTotal: 100, Iva: undefined })), headers());
    await eventually('AFIP authorised it', async () => ((await last(1, 11)) === n + 1 ? true : undefined));
    await slow.crash();
    worker = startApp('reporting-worker', appEnv({ AUTHORITY_BATCH_SWEEP_MS: '100' }));
    const answer = await pending;
    const href = answer.status === 202 ? (answer.body.data.href as string) : undefined;
    const final = href ? await eventually('answered A', async () => {
      const read = await client.get(href, headers());
      return read.body.Resultado === 'A' ? read.body : undefined;
    }, 60_000) : answer.body;
    expect(final).toMatchObject({ Resultado: 'A', FeDetResp: [{ CbteDesde: n + 1, CbteHasta: n + 1 }] });
    expect(await sandboxNumbers(1, 11, n)).toEqual([n + 1]);
    expect(await last(1, 11)).toBe(n + 1);
  });
});
