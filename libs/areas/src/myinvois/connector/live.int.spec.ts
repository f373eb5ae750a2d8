// Int level because it opens sockets (a local fake of MyInvois); it needs no database.
import { FakeMyInvoisServer } from '../../../../../test/fakes/myinvois/server';
import { MyInvoisCredentials, prepareDocument } from './connector';
import { sampleInvoiceXml } from './fixtures/documents';
import { LiveMyInvoisClient } from './live';
import { TokenCache } from './token-cache';
import { rejection } from '../../../../../test/support/errors';


describe('LiveMyInvoisClient against the local MyInvois fake', () => {
  let now = Date.parse('2025-01-15T10:00:00Z');
  const clock = () => now;
  let fake: FakeMyInvoisServer;
  let client: LiveMyInvoisClient;
  let seq = 0;
  let credentials: MyInvoisCredentials;

  beforeAll(async () => {
    fake = new FakeMyInvoisServer({ now: clock, validationDelayMs: 0 });
    const url = await fake.start();
    client = new LiveMyInvoisClient({ hosts: { identityBaseUrl: url, apiBaseUrl: url }, now: clock, timeoutMs: 5_000 });
  });

  afterAll(async () => {
    await fake.stop();
  });

  beforeEach(() => {
    seq += 1;
    credentials = { clientId: `client-${seq}`, clientSecret: 'secret', onBehalfOfTin: 'C25845632020' };
  });

  it('logs in as intermediary: form-encoded client credentials with the onbehalfof header', async () => {
    const token = await client.login(credentials);
    expect(token).toMatchObject({ clientId: credentials.clientId, expiresAt: now + 3_600_000 });
    const request = fake.requests.filter((r) => r.path === '/connect/token').at(-1);
    expect(request?.headers.onbehalfof).toBe('C25845632020');
    expect(request?.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({
      client_id: credentials.clientId,
      client_secret: 'secret',
      grant_type: 'client_credentials',
      scope: 'InvoicingAPI',
    });
  });

  it('Get Recent Documents: the documents this client sent since a time, newest first, paged, with uuid and submissionUid', async () => {
    const token = await client.login(credentials);
    const since = new Date(now - 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const first = await client.submitDocuments(token, [prepareDocument('XML', `R-${seq}`, sampleInvoiceXml({ id: `R-${seq}` }))]);
    now += 1_000;
    const second = await client.submitDocuments(token, [prepareDocument('XML', `S-${seq}`, sampleInvoiceXml({ id: `S-${seq}` }))]);
    const until = new Date(now + 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const page = await client.recentDocuments(token, { pageNo: 1, pageSize: 1, submissionDateFrom: since, submissionDateTo: until, invoiceDirection: 'Sent' });
    expect(page.metadata).toEqual({ totalPages: 2, totalCount: 2 });
    expect(page.result).toEqual([expect.objectContaining({ uuid: second.acceptedDocuments[0].uuid, submissionUid: second.submissionUid, internalId: `S-${seq}`, status: 'Submitted' })]);
    const next = await client.recentDocuments(token, { pageNo: 2, pageSize: 1, submissionDateFrom: since, submissionDateTo: until, invoiceDirection: 'Sent' });
    expect(next.result).toEqual([expect.objectContaining({ uuid: first.acceptedDocuments[0].uuid, submissionUid: first.submissionUid, internalId: `R-${seq}` })]);
    const request = fake.requests.filter((r) => r.path.startsWith('/api/v1.0/documents/recent?')).at(-1);
    expect(Object.fromEntries(new URL(request?.path ?? '', 'http://x').searchParams)).toEqual({ pageNo: '2', pageSize: '1', submissionDateFrom: since, submissionDateTo: until, InvoiceDirection: 'Sent' });
    const later = await client.recentDocuments(token, { submissionDateFrom: until, submissionDateTo: until, invoiceDirection: 'Sent' });
    expect(later.result).toEqual([]);
  });

  it('turns bad credentials into a final MYINVOIS.INVALID_CREDENTIALS', async () => {
    const error = await rejection(client.login({ ...credentials, clientSecret: 'invalid' }));
    expect(error).toMatchObject({ kind: 'validation', code: 'MYINVOIS.INVALID_CREDENTIALS', retriable: false, details: { authorityError: 'invalid_client' } });
  });

  it('logs in once for many calls while the token is valid, and renews before it expires', async () => {
    const cache = new TokenCache((c) => client.login(c), { now: clock });
    for (let i = 0; i < 5; i++) {
      const token = await cache.get('supplier-1', credentials);
      await expect(client.validateTin(token, { tin: 'C25845632020', idType: 'BRN', idValue: '201901234567' })).resolves.toBe(true);
    }
    expect(fake.logins(credentials.clientId)).toBe(1);
    now += 56 * 60_000;
    const renewed = await cache.get('supplier-1', credentials);
    await expect(client.validateTin(renewed, { tin: 'C25845632020', idType: 'BRN', idValue: '201901234567' })).resolves.toBe(true);
    expect(fake.logins(credentials.clientId)).toBe(2);
  });

  it('maps an unknown taxpayer (404) to false', async () => {
    const token = await client.login(credentials);
    await expect(client.validateTin(token, { tin: 'C25845632020', idType: 'NRIC', idValue: '000000000000' })).resolves.toBe(false);
  });

  it('submits base64 documents with their hash and maps accepted and rejected documents', async () => {
    const token = await client.login(credentials);
    const xml = sampleInvoiceXml({ id: `L-${seq}` });
    await client.submitDocuments(token, [prepareDocument('XML', `L-${seq}`, xml)]);
    const body = JSON.parse(fake.requests.at(-1)?.body ?? '{}');
    expect(body.documents[0]).toEqual({ format: 'XML', codeNumber: `L-${seq}`, documentHash: prepareDocument('XML', '', xml).documentHash, document: Buffer.from(xml).toString('base64') });
    expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${token.accessToken}`);

    const again = await client.submitDocuments(token, [prepareDocument('XML', `L-${seq}`, xml), prepareDocument('XML', `M-${seq}`, sampleInvoiceXml({ id: `M-${seq}` }))]);
    expect(again.acceptedDocuments).toEqual([{ uuid: expect.stringMatching(/^[0-9A-Z]{26}$/), invoiceCodeNumber: `M-${seq}` }]);
    expect(again.rejectedDocuments).toEqual([{ invoiceCodeNumber: `L-${seq}`, error: expect.objectContaining({ code: 'DV302', message: 'Duplicated submission' }) }]);
  });

  it('polls get submission from in progress to valid / partially valid', async () => {
    const token = await client.login(credentials);
    const { submissionUid } = await client.submitDocuments(token, [
      prepareDocument('XML', `P-${seq}`, sampleInvoiceXml({ id: `P-${seq}` })),
      prepareDocument('XML', `P-INVALID-${seq}`, sampleInvoiceXml({ id: `P-INVALID-${seq}` })),
    ]);
    await expect(client.getSubmission(token, submissionUid)).resolves.toMatchObject({ submissionUid, overallStatus: 'in progress', documentCount: 2 });
    const done = await client.getSubmission(token, submissionUid);
    expect(done.overallStatus).toBe('partially valid');
    expect(done.documentSummary.map((d) => d.status)).toEqual(['Valid', 'Invalid']);
    await expect(client.cancelDocument(token, done.documentSummary[0].uuid, 'Wrong amount')).resolves.toEqual({ uuid: done.documentSummary[0].uuid, status: 'Cancelled' });
  });

  it('rejection by the buyer only: the issuer gets 403 → forbidden MYINVOIS.REJECT_NOT_RECEIVER; Received lists it with the request', async () => {
    const issuer = await client.login(credentials);
    const buyerTin = 'C1111111110';
    const { submissionUid, acceptedDocuments } = await client.submitDocuments(issuer, [prepareDocument('XML', `B-${seq}`, sampleInvoiceXml({ id: `B-${seq}`, buyerTin }))]);
    await client.getSubmission(issuer, submissionUid);
    await expect(client.getSubmission(issuer, submissionUid)).resolves.toMatchObject({ overallStatus: 'valid' });
    const uuid = acceptedDocuments[0].uuid;

    const refused = await rejection(client.rejectDocument(issuer, uuid, 'Not the buyer'));
    expect(refused).toMatchObject({ kind: 'forbidden', code: 'MYINVOIS.REJECT_NOT_RECEIVER', retriable: false, details: { status: 403, authorityError: { code: 'Forbidden' } } });

    const buyer = await client.login({ clientId: `buyer-${seq}`, clientSecret: 'secret', onBehalfOfTin: buyerTin });
    await expect(client.rejectDocument(buyer, uuid, 'Goods not received')).resolves.toEqual({ uuid, status: 'Requested for Rejection' });
    const received = await client.recentDocuments(buyer, { invoiceDirection: 'Received', pageSize: 100 });
    expect(received.result).toContainEqual(
      expect.objectContaining({ uuid, receiverId: buyerTin, issuerTin: 'C25845632020', rejectRequestDateTime: expect.any(String), documentStatusReason: 'Goods not received' }),
    );
    const request = fake.requests.filter((r) => r.path.startsWith('/api/v1.0/documents/recent?')).at(-1);
    expect(new URL(request?.path ?? '', 'http://x').searchParams.get('InvoiceDirection')).toBe('Received');
  });

  it('maps 429 to a retriable rate_limited error with retryAfterMs from Retry-After', async () => {
    const token = await client.login(credentials);
    fake.failNext('getSubmission', { status: 429, retryAfterSeconds: 7 });
    const error = await rejection(client.getSubmission(token, 'ANY'));
    expect(error).toMatchObject({ kind: 'rate_limited', code: 'MYINVOIS.RATE_LIMITED', retriable: true, details: { retryAfterMs: 7_000 } });
  });

  it('maps 5xx to a retriable unavailable error and 401 to a token rejection', async () => {
    const token = await client.login(credentials);
    fake.failNext('submitDocuments', { status: 503 });
    const down = await rejection(client.submitDocuments(token, [prepareDocument('XML', 'X', sampleInvoiceXml({ id: 'X' }))]));
    expect(down).toMatchObject({ kind: 'unavailable', retriable: true, details: { status: 503 } });
    const stale = await rejection(client.getSubmission({ ...token, accessToken: 'revoked' }, 'ANY'));
    expect(stale).toMatchObject({ kind: 'unauthenticated', code: 'MYINVOIS.TOKEN_REJECTED', retriable: true });
  });

  it('maps an unreachable host to a retriable unavailable error', async () => {
    const offline = new LiveMyInvoisClient({ hosts: { identityBaseUrl: 'http://127.0.0.1:1', apiBaseUrl: 'http://127.0.0.1:1' }, timeoutMs: 2_000 });
    const error = await rejection(offline.login(credentials));
    expect(error).toMatchObject({ kind: 'unavailable', retriable: true });
  });
});
