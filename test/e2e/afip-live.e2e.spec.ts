import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { FakeAfip } from '../../libs/areas/src/afip/testing/fake-afip';
import { freshCuit } from '../../libs/areas/src/afip/testing/cuits';
import { makeTestCertificates } from '../../libs/areas/src/shared/testing/certificates';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { AppProcess, startApp, startGateway, testEnv } from '../support/stack';

const today = () => new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10).replace(/-/g, '');
const facturaA = (n: number) => ({
  CantReg: 1, PtoVta: 4, CbteTipo: 1, Concepto: 1, DocTipo: 80, DocNro: 30712345671, CbteDesde: n, CbteHasta: n, CbteFch: today(),
  ImpTotal: 121, ImpTotConc: 0, ImpNeto: 100, ImpOpEx: 0, ImpIVA: 21, ImpTrib: 0, MonId: 'PES', MonCotiz: 1, Iva: [{ Id: 5, BaseImp: 100, Importe: 21 }],
});

/**
 * #16 live mode through the apps: the taxpayer's AFIP certificate, given at onboarding, is checked and
 * sealed; the gateway (reads) and the reporting worker (create-voucher) sign in to a WSAA speaking the
 * wire format with one CMS-signed login between them (the ticket shared in PostgreSQL), and WSFEv1 answers.
 */
describe('#16 Argentina in live mode: the WSAA/WSFEv1 client through the apps', () => {
  let dataSource: DataSource;
  let fake: FakeAfip;
  let gateway: AppProcess;
  let worker: AppProcess;
  let client: Client;
  const cuit = freshCuit();
  const certificates = makeTestCertificates(`/CN=contribuyente e2e/serialNumber=CUIT ${cuit}`);
  const headers = { cuit };

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    fake = await FakeAfip.start({ ca: certificates.ca });
    const { apiKey } = await createTenant(dataSource, 'e2e afip live');
    const live = { AFIP_MODE: 'live', AFIP_WSAA_URL: fake.wsaaUrl, AFIP_WSFE_URL: fake.wsfeUrl, AUTHORITY_WAIT_MS: '20000' };
    const started = await startGateway(live);
    gateway = started.app;
    client = new Client(started.url, apiKey);
    worker = startApp('reporting-worker', testEnv({ ...live, AUTHORITY_BATCH_SWEEP_MS: '100' }));
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.stop();
    await fake?.stop();
    await dataSource?.destroy();
  });

  it('a certificate that is not one, or not of its key, is a 400 at onboarding', async () => {
    const notPem = await client.post('/ar/einvoice/onboard', { cuit, legal_name: 'X', certificate_pem: 'nope', private_key_pem: certificates.client.key });
    expect(notPem.body.errors).toEqual([expect.objectContaining({ path: 'certificate_pem', code: 'AFIP.CERTIFICATE' })]);
    const otherKey = await client.post('/ar/einvoice/onboard', { cuit, legal_name: 'X', certificate_pem: certificates.client.cert, private_key_pem: certificates.stranger.key });
    expect(otherKey.body.errors).toEqual([expect.objectContaining({ path: 'private_key_pem', code: 'AFIP.CERTIFICATE' })]);
  });

  it('onboards with a sealed certificate; last-voucher (gateway) and create-voucher (worker) share one access ticket; AFIP\'s CAE comes back', async () => {
    const onboarded = await client.post('/ar/einvoice/onboard', { cuit, legal_name: 'Contribuyente SA', certificate_pem: certificates.client.cert, private_key_pem: certificates.client.key });
    expect(onboarded.status).toBe(201);
    expect(JSON.stringify(onboarded.body)).not.toContain('PRIVATE KEY');
    const sealed = await dataSource.query(`SELECT sealed FROM supplier_secrets WHERE supplier_id = $1`, [onboarded.body.data.supplier_uuid]);
    expect(sealed).toHaveLength(2);
    expect(sealed.every((s: { sealed: string }) => !s.sealed.includes('BEGIN'))).toBe(true);

    const last = await client.request('GET', '/ar/einvoice/last-voucher?PtoVta=4&CbteTipo=1', { headers });
    expect(last.body).toEqual({ PtoVta: 4, CbteTipo: 1, CbteNro: 0 });
    const answer = await client.post('/ar/einvoice/create-voucher', facturaA(1), headers);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ Resultado: 'A', FeDetResp: [{ CbteDesde: 1, Resultado: 'A', CAE: expect.stringMatching(/^\d{14}$/) }] });
    const held = await client.request('GET', '/ar/einvoice/get-voucher?PtoVta=4&CbteTipo=1&CbteNro=1', { headers });
    expect(held.body).toMatchObject({ CodAutorizacion: answer.body.FeDetResp[0].CAE, ImpTotal: 121 });
    const refused = await client.post('/ar/einvoice/create-voucher', { ...facturaA(2), ImpTotal: 120 }, headers);
    expect(refused.body).toMatchObject({ Resultado: 'R', Errors: [expect.objectContaining({ Code: 10048 })] });
    // Two processes, one CMS-signed login.
    expect([fake.loginAttempts, fake.logins]).toEqual([1, 1]);
    expect(fake.calls).toContain('FECAESolicitar');
  });
});
