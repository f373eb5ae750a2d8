// The live KSeF 2.0 client against a local KSeF speaking its wire format (testing/fake-ksef.ts): the fake
// really decrypts the token, the session key and every invoice, so a wrong algorithm, hash or size fails here.
import { randomUUID } from 'node:crypto';
import { makeTestCertificates } from '../../shared/testing/certificates';
import { type Fa3Invoice, renderFa3 } from '../fa3';
import { isKsefNumber } from '../ksef-number';
import { FakeKsef } from '../testing/fake-ksef';
import { KsefApi } from './ksef-api';
import { LiveKsef } from './live-ksef';
import type { AuthorityReport } from '../../registry/authority';
import type { KsefReceipt } from '../sandbox-ksef';

jest.setTimeout(60_000);

const NIP = '5260250274';
const TOKEN = 'ksef-token-of-5260250274';
const invoice = (number: string, extra: Partial<Fa3Invoice> = {}): Fa3Invoice => ({
  number,
  issueDate: '2026-11-25',
  currency: 'PLN',
  seller: { nip: NIP, name: 'Sprzedawca Sp. z o.o.', address: { country: 'PL', line1: 'ul. Prosta 1' } },
  buyer: { name: 'Nabywca S.A.', id: { nip: '1234563218' }, address: { country: 'PL', line1: 'ul. Krzywa 2' } },
  lines: [{ description: 'Usługa', quantity: 1, unitPrice: 100, rate: '23' }],
  createdAt: new Date('2026-11-25T10:00:00Z'),
  ...extra,
});
const report = (xml: string, supplierId = 'supplier-1'): AuthorityReport => ({ reportId: randomUUID(), tenantId: 't', supplierId, payload: {}, document: { bytes: xml, mediaType: 'application/xml', sha256: '' } });

describe('the live KSeF 2.0 client against a wire-format KSeF', () => {
  const pair = makeTestCertificates().server;
  let fake: FakeKsef & { url: string };
  let client: LiveKsef;
  const tokens = new Map([['supplier-1', TOKEN], ['no-token', undefined], ['wrong-token', 'not-a-token']]);

  beforeEach(async () => {
    fake = await FakeKsef.start(pair);
    fake.grantToken(NIP, TOKEN);
    client = new LiveKsef({ baseUrl: fake.url, tokenOf: async (id) => tokens.get(id), authPollMs: 10, sessionIdleMs: 60_000 });
  });
  afterEach(async () => {
    await client.close();
    await fake.stop();
  });

  /** Polls as the reporting worker does until KSeF's verdict. */
  async function verdict(r: AuthorityReport, receipt: KsefReceipt) {
    for (;;) {
      const answer = await client.poll(r, receipt);
      if (answer.kind !== 'pending') return answer;
    }
  }

  it('signs in with the encrypted token, opens one session for two invoices, and each is accepted with a KSeF number', async () => {
    const first = report(renderFa3(invoice('FV/1')));
    const second = report(renderFa3(invoice('FV/2')));
    const sent = await Promise.all([client.submit(first), client.submit(second)]);
    expect(sent.map((s) => s.kind)).toEqual(['accepted', 'accepted']);
    const receipts = sent.map((s) => (s as { receipt: KsefReceipt }).receipt);
    expect(receipts[0].sessionReferenceNumber).toBe(receipts[1].sessionReferenceNumber);
    // The fake decrypted each invoice and found the very XML we rendered.
    expect(fake.sentInvoices().map((i) => i.xml)).toEqual(expect.arrayContaining([first.document.bytes, second.document.bytes]));
    const [a, b] = [await verdict(first, receipts[0]), await verdict(second, receipts[1])];
    expect(a).toMatchObject({ kind: 'accepted', final: true, receipt: { ksefNumber: expect.stringMatching(new RegExp(`^${NIP}-`)) } });
    expect(isKsefNumber((a as { receipt: KsefReceipt }).receipt.ksefNumber as string)).toBe(true);
    expect(b).toMatchObject({ kind: 'accepted', final: true });
    expect(fake.calls.filter((c) => c === 'POST /auth/ksef-token')).toHaveLength(1);
    expect(fake.calls.filter((c) => c === 'POST /sessions/online')).toHaveLength(1);
  });

  it('refreshes the access token with the refresh token instead of signing in again', async () => {
    fake.accessTtlMs = 30_000; // within the client's margin: used once, then refreshed
    await client.submit(report(renderFa3(invoice('FV/R1'))));
    await client.submit(report(renderFa3(invoice('FV/R2'))));
    expect(fake.calls.filter((c) => c === 'POST /auth/ksef-token')).toHaveLength(1);
    expect(fake.calls.filter((c) => c === 'POST /auth/token/refresh').length).toBeGreaterThanOrEqual(1);
  });

  it('a send whose answer was lost: recover finds the invoice by its hash (paging through sessions and invoices), and it is in KSeF once', async () => {
    fake.pageSize = 1;
    await client.submit(report(renderFa3(invoice('FV/L0'))));
    const lost = report(renderFa3(invoice('FV/L1')));
    fake.loseNextSendAnswer();
    await expect(client.submit(lost)).rejects.toMatchObject({ code: 'KSEF.UNAVAILABLE', retriable: true });
    const found = await client.recover(lost, new Date().toISOString());
    expect(found).toMatchObject({ kind: 'accepted', final: false, receipt: { referenceNumber: expect.any(String), sessionReferenceNumber: expect.any(String) } });
    expect(await verdict(lost, (found as { receipt: KsefReceipt }).receipt)).toMatchObject({ kind: 'accepted', final: true });
    // Asked again once numbered: the verdict itself.
    expect(await client.recover(lost, new Date().toISOString())).toMatchObject({ kind: 'accepted', final: true, receipt: { ksefNumber: expect.any(String) } });
    expect(fake.sentInvoices().filter((i) => i.invoiceNumber === 'FV/L1')).toHaveLength(1);
    expect(await client.recover(report(renderFa3(invoice('FV/NEVER-SENT'))), new Date().toISOString())).toBeUndefined();
  });

  it('a resend KSeF calls a duplicate of this very invoice is accepted with the original KSeF number; another invoice with the same number is refused 440', async () => {
    const xml = renderFa3(invoice('FV/D1'));
    const once = report(xml);
    const original = await verdict(once, ((await client.submit(once)) as { receipt: KsefReceipt }).receipt);
    const again = report(xml);
    const resent = await verdict(again, ((await client.submit(again)) as { receipt: KsefReceipt }).receipt);
    expect(resent).toMatchObject({ kind: 'accepted', final: true, receipt: { ksefNumber: (original as { receipt: KsefReceipt }).receipt.ksefNumber } });
    const other = report(renderFa3(invoice('FV/D1', { lines: [{ description: 'Inna', quantity: 2, unitPrice: 50, rate: '8' }] })));
    expect(await verdict(other, ((await client.submit(other)) as { receipt: KsefReceipt }).receipt)).toMatchObject({ kind: 'rejected', error: { code: '440', message: expect.stringContaining('originalKsefNumber') } });
  });

  it('an invoice KSeF finds invalid is refused 450 with its reason', async () => {
    const bad = report(renderFa3(invoice('FV/X1')).replace('<P_2>FV/X1</P_2>', '<P_2></P_2>'));
    expect(await verdict(bad, ((await client.submit(bad)) as { receipt: KsefReceipt }).receipt)).toMatchObject({ kind: 'rejected', error: { code: '450' } });
  });

  it('429 is a retriable rate limit with KSeF\'s Retry-After; a refused send opens a new session next time; 5xx is retriable', async () => {
    await client.submit(report(renderFa3(invoice('FV/W1'))));
    fake.failNext('POST /sessions/online/', 429, 1, 7);
    await expect(client.submit(report(renderFa3(invoice('FV/W2'))))).rejects.toMatchObject({ kind: 'rate_limited', retriable: true, details: { retryAfterMs: 7000 } });
    fake.failNext('POST /sessions/online/', 400);
    await expect(client.submit(report(renderFa3(invoice('FV/W3'))))).rejects.toMatchObject({ retriable: true });
    fake.failNext('POST /sessions/online/', 503);
    await expect(client.submit(report(renderFa3(invoice('FV/W4'))))).rejects.toMatchObject({ code: 'KSEF.UNAVAILABLE', retriable: true });
    expect(await client.submit(report(renderFa3(invoice('FV/W5'))))).toMatchObject({ kind: 'accepted' });
    expect(fake.calls.filter((c) => c === 'POST /sessions/online')).toHaveLength(2);
  });

  it('signs in again when KSeF refuses the access token (401)', async () => {
    await client.submit(report(renderFa3(invoice('FV/U1'))));
    fake.failNext('POST /sessions/online/', 401);
    expect(await client.submit(report(renderFa3(invoice('FV/U2'))))).toMatchObject({ kind: 'accepted' });
    expect(fake.calls.filter((c) => c === 'POST /auth/ksef-token')).toHaveLength(2);
  });

  it('a supplier without a token, or with one KSeF refuses, gets a final error naming why', async () => {
    await expect(client.submit(report(renderFa3(invoice('FV/T1')), 'no-token'))).rejects.toMatchObject({ code: 'KSEF.NO_TOKEN', retriable: false });
    await expect(client.submit(report(renderFa3(invoice('FV/T2')), 'wrong-token'))).rejects.toMatchObject({ code: 'KSEF.AUTH_450', retriable: false });
  });

  it('closes its sessions when stopped and when idle; the UPO and the invoice can then be downloaded', async () => {
    const r = report(renderFa3(invoice('FV/C1')));
    const receipt = ((await client.submit(r)) as { receipt: KsefReceipt }).receipt;
    const accepted = (await verdict(r, receipt)) as { receipt: KsefReceipt };
    await client.close();
    const session = fake.sessions.get(receipt.sessionReferenceNumber as string);
    expect(session?.open).toBe(false);
    expect(fake.calls).toContain(`POST /sessions/online/${receipt.sessionReferenceNumber}/close`);

    const api = new KsefApi(fake.url);
    const idle = new LiveKsef({ baseUrl: fake.url, tokenOf: async () => TOKEN, authPollMs: 10, sessionIdleMs: 60_000 });
    const second = ((await idle.submit(report(renderFa3(invoice('FV/C2'))))) as { receipt: KsefReceipt }).receipt;
    await idle.closeIdleSessions();
    expect(fake.sessions.get(second.sessionReferenceNumber as string)?.open).toBe(true);
    await idle.closeIdleSessions(Date.now() + 60_000);
    expect(fake.sessions.get(second.sessionReferenceNumber as string)?.open).toBe(false);
    await idle.close();

    const challenge = await api.challenge();
    expect(challenge.timestampMs).toBeGreaterThan(0);
    // The UPO and the invoice as KSeF keeps it, with a fresh sign-in of the API itself.
    const reader = new LiveKsef({ baseUrl: fake.url, tokenOf: async () => TOKEN, authPollMs: 10 });
    const access = await (reader as unknown as { credentialsOf(s: string, n: string): Promise<{ access: { token: string } }> }).credentialsOf('supplier-1', NIP);
    const upo = await api.invoiceUpo(access.access.token, receipt.sessionReferenceNumber as string, receipt.referenceNumber);
    expect(upo).toContain(`<NumerKSeFDokumentu>${accepted.receipt.ksefNumber}</NumerKSeFDokumentu>`);
    expect(await api.downloadInvoice(access.access.token, accepted.receipt.ksefNumber as string)).toBe(r.document.bytes);
    expect((await api.sessionStatus(access.access.token, receipt.sessionReferenceNumber as string)).status.code).toBe(200);
    await reader.close();
  });
});
