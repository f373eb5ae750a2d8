// The live VERI*FACTU client against a local fake that speaks the AEAT's wire format (SOAP over
// mutual TLS, testing/fake-aeat.ts): per-record answers, the waiting time, a refused send, the
// service down, an answer lost and the resend answered "already held".
import type { AuthorityReport } from '../registry/authority';
import { LiveAeat } from './live-aeat';
import { type RegistrationContent, chainCancellation, chainRegistration, linkOf } from './record';
import type { VerifactuPayload } from './sandbox-aeat';
import type { InvoicingSystem } from './soap';
import { makeTestCertificates, type TestCertificates } from '../shared/testing/certificates';
import { FakeAeat } from './testing/fake-aeat';

const issuer = { nif: '89890001K', name: 'Empresa de Pruebas SL' };
const system: InvoicingSystem = { producer: { nif: 'B00000000', name: 'einvoice gateway' }, name: 'einvoice-gateway', id: 'EG', version: '1.0', installation: 'test-1' };
const content = (number: string, extra: Partial<RegistrationContent> = {}): RegistrationContent => ({
  issuer, number, issueDate: '2026-11-25', invoiceType: 'F1', description: 'Consulting', recipient: { nif: 'B00000000', name: 'Cliente SA' },
  taxLines: [{ base: '100.00', rate: '21.00', charged: '21.00' }], taxTotal: '21.00', total: '121.00', ...extra,
});

describe('#12 the live AEAT client against a wire-format fake (SOAP, mutual TLS)', () => {
  let certs: TestCertificates;
  let fake: FakeAeat;
  let url: string;
  let client: LiveAeat;
  let counter = 0;

  beforeAll(async () => {
    certs = makeTestCertificates();
    fake = new FakeAeat({ ...certs.server, ca: certs.ca, waitSeconds: 60 });
    url = await fake.start();
    client = new LiveAeat({ url, representative: { ...certs.client, ca: certs.ca }, system, timeoutMs: 10_000 });
  });

  afterAll(async () => {
    await fake?.stop();
  });

  beforeEach(() => {
    fake.mode = 'ok';
  });

  const report = (payload: VerifactuPayload, supplierId = 's'): AuthorityReport<VerifactuPayload> => ({
    reportId: `00000000-0000-4000-8000-${String((counter += 1)).padStart(12, '0')}`, tenantId: 't', supplierId, payload, document: { bytes: '', mediaType: 'application/xml', sha256: '' },
  });

  it('sends one message for the batch and reads each record\'s answer and the waiting time', async () => {
    const first = chainRegistration(content('L-1'), undefined, new Date());
    const big = chainRegistration(content('L-2', { invoiceType: 'F2', recipient: undefined, taxLines: [{ base: '4000.00', rate: '21.00', charged: '840.00' }], taxTotal: '840.00', total: '4840.00' }), linkOf(first), new Date());
    const reports = [report({ record: first }), report({ record: big })];
    const answer = await client.submitBatch(reports);
    expect(fake.received).toHaveLength(1);
    expect(fake.received[0]).toContain('<sum:RegFactuSistemaFacturacion');
    expect(answer.nextCallAfterMs).toBe(60_000);
    expect(answer.outcomes[reports[0].reportId]).toEqual({ kind: 'accepted', final: true, receipt: { estadoRegistro: 'Correcto', csv: expect.stringMatching(/^FAKE/) } });
    expect(answer.outcomes[reports[1].reportId]).toEqual({ kind: 'rejected', error: { code: '1150', message: expect.stringContaining('3.000') } });
  });

  it('an answer lost after the AEAT took the records: retriable; the resend is answered "already held" and counts as taken', async () => {
    const record = chainRegistration(content('L-3'), undefined, new Date());
    const lost = report({ record });
    fake.mode = 'lose';
    await expect(client.submitBatch([lost])).rejects.toMatchObject({ code: 'VERIFACTU.AEAT_UNAVAILABLE', retriable: true });
    fake.mode = 'ok';
    expect(await client.recover()).toBeUndefined();
    const again = await client.submitBatch([lost]);
    expect(again.outcomes[lost.reportId]).toMatchObject({ kind: 'accepted', receipt: { estadoRegistro: 'Correcto' } });
    expect(fake.records.get('89890001K|L-3|25-11-2026')).toBe('Correcta');
  });

  it('cancels a record it holds; refuses one it does not (3002)', async () => {
    const record = chainRegistration(content('L-4'), undefined, new Date());
    await client.submitBatch([report({ record })]);
    const cancel = report({ record: chainCancellation(issuer, { number: 'L-4', issueDate: '2026-11-25' }, linkOf(record), new Date()) });
    const unknown = report({ record: chainCancellation(issuer, { number: 'NONE', issueDate: '2026-11-25' }, undefined, new Date()) });
    const answer = await client.submitBatch([cancel, unknown]);
    expect(answer.outcomes[cancel.reportId]).toMatchObject({ kind: 'accepted' });
    expect(answer.outcomes[unknown.reportId]).toMatchObject({ kind: 'rejected', error: { code: '3002' } });
  });

  it('a SOAP Fault 4xxx refuses the whole send for good; the service down is retriable', async () => {
    const one = report({ record: chainRegistration(content('L-5'), undefined, new Date()) });
    fake.mode = 'fault';
    await expect(client.submitBatch([one])).rejects.toMatchObject({ code: 'VERIFACTU.4104', retriable: false });
    fake.mode = 'down';
    await expect(client.submitBatch([one])).rejects.toMatchObject({ code: 'VERIFACTU.AEAT_UNAVAILABLE', retriable: true });
  });

  it('the AEAT side refuses a client certificate it does not trust (mutual TLS)', async () => {
    const stranger = new LiveAeat({ url, representative: { ...certs.stranger, ca: certs.ca }, system, timeoutMs: 10_000 });
    const before = fake.received.length;
    await expect(stranger.submitBatch([report({ record: chainRegistration(content('L-6'), undefined, new Date()) })])).rejects.toMatchObject({ retriable: true });
    expect(fake.received).toHaveLength(before);
  });

  it('presents the issuer\'s own certificate when it gave one, else the representative\'s; with neither it waits (retriable)', async () => {
    const own = new LiveAeat({
      url,
      representative: { ...certs.stranger, ca: certs.ca },
      issuerCertificate: async (supplierId) => (supplierId === 'issuer-with-certificate' ? certs.client : undefined),
      system,
      timeoutMs: 10_000,
    });
    const mine = report({ record: chainRegistration(content('L-7'), undefined, new Date()) }, 'issuer-with-certificate');
    expect((await own.submitBatch([mine])).outcomes[mine.reportId]).toMatchObject({ kind: 'accepted' });
    const theirs = report({ record: chainRegistration(content('L-8'), undefined, new Date()) }, 'issuer-without');
    await expect(own.submitBatch([theirs])).rejects.toMatchObject({ retriable: true });
    const none = new LiveAeat({ url, representative: { ca: certs.ca }, system, timeoutMs: 10_000 });
    await expect(none.submitBatch([theirs])).rejects.toMatchObject({ code: 'VERIFACTU.NO_CERTIFICATE', retriable: true });
  });
});
