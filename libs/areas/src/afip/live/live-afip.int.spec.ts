// The live AFIP client (WSAA + WSFEv1 over SOAP) against a local AFIP speaking the wire format
// (testing/fake-afip.ts), the access tickets in real PostgreSQL. Two `liveWsfe` on one database are two processes.
import { SecretBox } from '@einvoice/domain';
import type { DataSource } from 'typeorm';
import { openTestDatabase } from '../../../../../test/support/database';
import type { AuthorityReport } from '../../registry/authority';
import { makeTestCertificates, type TestCertificates } from '../../shared/testing/certificates';
import { AfipConnector, type AfipPayload } from '../connector';
import { afipSettings } from '../settings';
import { FakeAfip } from '../testing/fake-afip';
import { freshCuit } from '../testing/cuits';
import { afipDate, type VoucherRequest } from '../validations';
import { VoucherNumbers } from '../voucher-numbers';
import type { AfipReceipt, Wsfe } from '../wsfe';
import { liveWsfe } from './live-afip';
import type { TicketOptions } from './access-tickets';

const box = SecretBox.fromEnv({});

describe('the live AFIP client (WSAA, WSFEv1) against a wire-format AFIP', () => {
  let dataSource: DataSource;
  const query = <T>(sql: string, params?: unknown[]): Promise<T[]> => dataSource.query(sql, params);
  let fake: FakeAfip;
  let cuit: string;
  let delegated: string;
  let certificates: TestCertificates;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
  });
  afterAll(() => dataSource?.destroy());

  beforeEach(async () => {
    cuit = freshCuit();
    delegated = freshCuit('30');
    certificates = makeTestCertificates(`/CN=empresa de prueba/serialNumber=CUIT ${cuit}`);
  });
  afterEach(() => fake?.stop());

  const startFake = async (options: Partial<Parameters<typeof FakeAfip.start>[0]> = {}) => {
    fake = await FakeAfip.start({ ca: certificates.ca, relations: { [cuit]: [delegated] }, ...options });
  };
  /** One process's connector: the taxpayer's own certificate (or the one given), tickets in PostgreSQL. */
  const wsfe = (tickets: Partial<TicketOptions> = {}, certificate: { cert: string; key: string } | undefined = certificates.client) => {
    const settings = afipSettings({ AFIP_MODE: 'live', AFIP_WSAA_URL: fake.wsaaUrl, AFIP_WSFE_URL: fake.wsfeUrl, AFIP_TIMEOUT_MS: '5000' });
    return liveWsfe({ ...settings, tickets: { ...settings.tickets, ...tickets } }, { query, box, ownCertificate: async () => certificate });
  };
  const connector = (...args: Parameters<typeof wsfe>) => new AfipConnector(wsfe(...args), new VoucherNumbers(query));
  const supplier = (forCuit = cuit) => ({ id: `supplier-${forCuit}`, profile: { identifiers: [{ scheme: 'AR:CUIT', id: forCuit }] } });
  const voucher = (n: number, extra: Partial<VoucherRequest> = {}): VoucherRequest => ({
    CantReg: 1, PtoVta: 3, CbteTipo: 1, Concepto: 1, DocTipo: 80, DocNro: 30712345671, CbteDesde: n, CbteHasta: n, CbteFch: afipDate(new Date()),
    ImpTotal: 121, ImpTotConc: 0, ImpNeto: 100, ImpOpEx: 0, ImpIVA: 21, ImpTrib: 0, MonId: 'PES', MonCotiz: 1, Iva: [{ Id: 5, BaseImp: 100, Importe: 21 }], CondicionIVAReceptorId: 1, ...extra,
  });
  const report = (v: VoucherRequest, forCuit = cuit): AuthorityReport<AfipPayload> => ({
    reportId: `${forCuit}-${v.PtoVta}-${v.CbteTipo}-${v.CbteDesde}`, tenantId: 't', supplierId: `supplier-${forCuit}`,
    payload: { cuit: forCuit, voucher: v, requestedAt: new Date().toISOString() }, document: { bytes: JSON.stringify(v), mediaType: 'application/json', sha256: 'n/a' },
  });
  const submit = async (c: AfipConnector, r: AuthorityReport<AfipPayload>) => (await c.submitBatch([r])).outcomes[r.reportId];

  it('signs in with a CMS-signed TRA, then authorises a Factura A (14-digit CAE) and reads it, the numbers and a catalog back over SOAP', async () => {
    await startFake();
    const afip = connector();
    expect(await afip.read('last-voucher', { PtoVta: 3, CbteTipo: 1 }, supplier())).toEqual({ PtoVta: 3, CbteTipo: 1, CbteNro: 0 });
    const outcome = await submit(afip, report(voucher(1)));
    expect(outcome).toMatchObject({ kind: 'accepted', final: true, receipt: { Resultado: 'A', CAE: expect.stringMatching(/^\d{14}$/), CbteDesde: 1, Observaciones: [{ Code: 10217 }] } });
    const cae = (outcome as { receipt: AfipReceipt }).receipt.CAE;
    expect(await afip.read('get-voucher', { PtoVta: 3, CbteTipo: 1, CbteNro: 1 }, supplier())).toMatchObject({ CodAutorizacion: cae, Resultado: 'A', ImpTotal: 121, Iva: [{ Id: 5, BaseImp: 100, Importe: 21 }] });
    await expect(afip.read('get-voucher', { PtoVta: 3, CbteTipo: 1, CbteNro: 9 }, supplier())).rejects.toMatchObject({ code: 'AFIP.602' });
    expect(await afip.read('last-voucher', { PtoVta: 3, CbteTipo: 1 }, supplier())).toMatchObject({ CbteNro: 1 });
    expect(await afip.read('currencies', {}, supplier())).toEqual(expect.arrayContaining([expect.objectContaining({ Id: 'PES' }), expect.objectContaining({ Id: 'DOL' })]));
    expect(fake.logins).toBe(1);
    expect(fake.calls).toEqual(['FECompUltimoAutorizado', 'FECompUltimoAutorizado', 'FECAESolicitar', 'FECompConsultar', 'FECompConsultar', 'FECompUltimoAutorizado', 'FEParamGetTiposMonedas']);
    // The catalog is kept for the day.
    await afip.read('currencies', {}, supplier());
    expect(fake.calls.filter((c) => c === 'FEParamGetTiposMonedas')).toHaveLength(1);
  });

  it('AFIP\'s validations are answered with AFIP\'s codes before calling AFIP; AFIP\'s own refusal (R with Errors) is read the same way', async () => {
    await startFake();
    const afip = connector();
    const wrongTotal = await submit(afip, report(voucher(1, { ImpTotal: 120 })));
    expect(wrongTotal).toMatchObject({ kind: 'rejected', error: { code: 'R', details: [{ code: '10048' }] }, receipt: { Resultado: 'R', CAE: '' } });
    const ahead = await afip.submitBatch([{ ...report(voucher(5)), payload: { ...report(voucher(5)).payload, requestedAt: new Date(Date.now() - 60_000).toISOString() } }]);
    expect(Object.values(ahead.outcomes)).toEqual([expect.objectContaining({ kind: 'rejected', error: expect.objectContaining({ details: [expect.objectContaining({ code: '10016' })] }) })]);
    expect(fake.calls).not.toContain('FECAESolicitar');
    // Sent anyway (a number another process took between the check and the call): AFIP's R, as AFIP states it.
    expect(await wsfe().authorise({ cuit, supplierId: 's' }, voucher(7))).toMatchObject({ Resultado: 'R', CAE: '', CbteDesde: 7, Errors: [{ Code: 10016, Msg: expect.stringContaining('proximo a autorizar') }] });
  });

  it('a lost FECAESolicitar answer: recover finds the voucher by FECompConsultar, and it is never authorised twice', async () => {
    await startFake();
    const afip = connector();
    const r = report(voucher(1));
    fake.failNext('FECAESolicitar', 'lose');
    await expect(afip.submitBatch([r])).rejects.toMatchObject({ code: 'AFIP.UNAVAILABLE', retriable: true });
    const recovered = await afip.recover(r);
    expect(recovered).toMatchObject({ kind: 'accepted', receipt: { CAE: [...fake.vouchers.values()][0].cae } });
    // A voucher with other content under that number is not this one.
    expect(await afip.recover(report(voucher(1, { DocNro: 20111111112, ImpTotal: 121 })))).toBeUndefined();
    expect(await submit(afip, r)).toMatchObject({ kind: 'rejected', error: { details: [{ code: '10016' }] } });
    expect(fake.vouchers.size).toBe(1);
  });

  describe('#44 vouchers sent without numbers', () => {
    const unnumbered = (v: VoucherRequest, reportId: string): AuthorityReport<AfipPayload> => {
      const { CbteDesde: _desde, CbteHasta: _hasta, ...rest } = v;
      return { ...report(v), reportId, payload: { cuit, voucher: rest, requestedAt: new Date().toISOString() } };
    };

    it('take the next numbers at sending time, in the order requested, after those sent with theirs', async () => {
      await startFake();
      const afip = connector();
      const [a, b] = [unnumbered(voucher(0), `next-a-${cuit}`), unnumbered(voucher(0, { ImpNeto: 200, ImpIVA: 42, ImpTotal: 242, Iva: [{ Id: 5, BaseImp: 200, Importe: 42 }] }), `next-b-${cuit}`)];
      const numberedOne = report(voucher(1));
      const { outcomes } = await afip.submitBatch([a, b, numberedOne]);
      expect([outcomes[numberedOne.reportId], outcomes[a.reportId], outcomes[b.reportId]].map((o) => o.kind === 'accepted' && [o.receipt.CbteDesde, o.receipt.CbteHasta])).toEqual([[1, 1], [2, 2], [3, 3]]);
      expect([...fake.vouchers.values()].map((held) => [held.voucher.CbteDesde, held.voucher.ImpTotal])).toEqual([[1, 121], [2, 121], [3, 242]]);
    });

    it('a number another client took at AFIP between the read and the call (AFIP\'s 10016): the next one', async () => {
      await startFake();
      const inner = wsfe();
      let raced = false;
      // A point of sale outside this service authorises the same number first.
      const racing: Wsfe = {
        lastAuthorised: (...args) => inner.lastAuthorised(...args),
        consult: (...args) => inner.consult(...args),
        catalog: (...args) => inner.catalog(...args),
        authorise: async (taxpayer, v) => {
          if (!raced) {
            raced = true;
            expect(await inner.authorise(taxpayer, { ...v, DocNro: 20111111112 })).toMatchObject({ Resultado: 'A' });
          }
          return inner.authorise(taxpayer, v);
        },
      };
      const r = unnumbered(voucher(0), `next-raced-${cuit}`);
      const outcome = await submit(new AfipConnector(racing, new VoucherNumbers(query)), r);
      expect(outcome).toMatchObject({ kind: 'accepted', receipt: { Resultado: 'A', CbteDesde: 2, CbteHasta: 2 } });
      expect(await new VoucherNumbers(query).claimed(r.reportId)).toBe(2);
    });

    it('a lost answer: recover asks AFIP under the number tried (recorded before the call), and the voucher is never given another', async () => {
      await startFake();
      const afip = connector();
      const r = unnumbered(voucher(0), `next-lost-${cuit}`);
      expect(await afip.recover(r)).toBeUndefined();
      fake.failNext('FECAESolicitar', 'lose');
      await expect(afip.submitBatch([r])).rejects.toMatchObject({ code: 'AFIP.UNAVAILABLE', retriable: true });
      expect(await afip.recover(r)).toMatchObject({ kind: 'accepted', receipt: { CbteDesde: 1, CAE: [...fake.vouchers.values()][0].cae } });
      expect(fake.vouchers.size).toBe(1);
    });
  });

  it('AFIP unwell (HTTP 503, its internal error 501) is retried; a certificate of another CA is refused by WSAA, not retried', async () => {
    await startFake();
    const afip = connector();
    fake.failNext('FECompUltimoAutorizado', 'http503');
    await expect(afip.submitBatch([report(voucher(1))])).rejects.toMatchObject({ code: 'AFIP.UNAVAILABLE', retriable: true });
    fake.failNext('FECAESolicitar', 'internal');
    await expect(afip.submitBatch([report(voucher(1))])).rejects.toMatchObject({ retriable: true });
    expect(await submit(afip, report(voucher(1)))).toMatchObject({ kind: 'accepted' });
    const stranger = connector({}, certificates.stranger);
    await expect(stranger.read('last-voucher', { PtoVta: 3, CbteTipo: 1 }, supplier())).rejects.toMatchObject({ code: 'AFIP.WSAA.cms.bad', retriable: false });
  });

  it('acts for a CUIT that delegated to the certificate\'s holder; another CUIT is AFIP\'s 601, refused', async () => {
    await startFake();
    const afip = connector();
    expect(await submit(afip, report(voucher(1), delegated))).toMatchObject({ kind: 'accepted', receipt: { Cuit: Number(delegated) } });
    const stranger = freshCuit('27');
    await expect(afip.read('last-voucher', { PtoVta: 3, CbteTipo: 1 }, supplier(stranger))).rejects.toMatchObject({ code: 'AFIP.601', retriable: false });
    expect(fake.logins).toBe(1);
  });

  it('one access ticket for every process: asked for once when many calls of two processes need it at once, kept sealed', async () => {
    await startFake({ loginDelayMs: 300 });
    const [one, two] = [connector(), connector()];
    const reads = await Promise.all([one, two, one, two, one].map((c) => c.read('last-voucher', { PtoVta: 3, CbteTipo: 1 }, supplier())));
    expect(reads).toHaveLength(5);
    expect(fake.loginAttempts).toBe(1);
    // A third process finds it in PostgreSQL, sealed.
    await connector().read('last-voucher', { PtoVta: 3, CbteTipo: 1 }, supplier());
    expect(fake.loginAttempts).toBe(1);
    const rows = await dataSource.query(`SELECT ticket FROM afip_access_tickets WHERE service = 'wsfe' AND expires_at > now()`);
    const token = (fake as unknown as { tickets: Map<string, unknown> }).tickets.keys().next().value as string;
    expect(rows.some((r: { ticket: string }) => r.ticket.startsWith('v1.'))).toBe(true);
    expect(rows.some((r: { ticket: string }) => r.ticket.includes(token))).toBe(false);
  });

  it('renewed before it expires (WSAA refuses while it is valid: the current one serves), then a new one after expiry, never asked for twice at once', async () => {
    // AFIP's clock and ours, moved by the test instead of waited for.
    let now = Date.now();
    const clock = () => now;
    await startFake({ ticketTtlMs: 10_000, loginDelayMs: 200, now: clock });
    const options = { renewBeforeMs: 7_000, failureBackoffMs: 1_000, now: clock };
    const [one, two] = [connector(options), connector(options)];
    const read = (c: AfipConnector) => c.read('last-voucher', { PtoVta: 3, CbteTipo: 1 }, supplier());
    await read(one);
    expect([fake.loginAttempts, fake.logins]).toEqual([1, 1]);
    now += 3_500;
    // Due for renewal: one process asks WSAA, which refuses (alreadyAuthenticated); every call still goes through.
    await Promise.all([read(one), read(two), read(two)]);
    expect([fake.loginAttempts, fake.logins]).toEqual([2, 1]);
    now += 7_000;
    // Expired: a new ticket, asked for once although five calls of two processes wait for it.
    await Promise.all([one, two, one, two, one].map(read));
    expect([fake.loginAttempts, fake.logins]).toEqual([3, 2]);
  });

  it('AFIP no longer taking the ticket (WSFE 600) drops it: the next call signs in again', async () => {
    await startFake();
    const afip = connector();
    await afip.read('last-voucher', { PtoVta: 3, CbteTipo: 1 }, supplier());
    fake.expireTickets();
    await expect(afip.read('last-voucher', { PtoVta: 3, CbteTipo: 1 }, supplier())).rejects.toMatchObject({ code: 'AFIP.600', retriable: true });
    await afip.read('last-voucher', { PtoVta: 3, CbteTipo: 1 }, supplier());
    expect(fake.logins).toBe(2);
  });
});
