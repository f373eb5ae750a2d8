// The sandbox on its PostgreSQL state: two SandboxMyInvois instances on one database are two
// processes of a stack (gateway and worker, or a worker and its restarted successor).
import type { DataSource } from 'typeorm';
import { openTestDatabase } from '../../../../../test/support/database';
import { rejection } from '../../../../../test/support/errors';
import { freshTin } from '../../../../../test/support/myinvois';
import { MyInvoisCredentials, prepareDocument } from './connector';
import { sampleInvoiceXml } from './fixtures/documents';
import { SandboxMyInvois } from './sandbox';
import { PostgresSandboxState } from './sandbox-state-postgres';

describe('MyInvois sandbox state in PostgreSQL, shared by processes', () => {
  const run = Date.now().toString(36);
  let dataSource: DataSource;
  let now = Date.now();
  let seq = 0;
  let credentials: MyInvoisCredentials;
  const id = (name: string) => `${name}-${run}-${seq}`;
  /** A sandbox instance on the shared database: one more "process". */
  const instance = () => new SandboxMyInvois({ now: () => now, validationDelayMs: 2_000, state: new PostgresSandboxState((sql, params) => dataSource.query(sql, params)) });
  const invoice = (name: string, buyerTin?: string) => prepareDocument('XML', id(name), sampleInvoiceXml({ id: id(name), supplierTin: credentials.onBehalfOfTin, buyerTin }));

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  beforeEach(() => {
    seq += 1;
    credentials = { clientId: `client-${run}-${seq}`, clientSecret: 'secret', onBehalfOfTin: freshTin() };
  });

  it('a token one instance issued is accepted by another; an unknown or expired one is not', async () => {
    const [gateway, worker] = [instance(), instance()];
    const token = await gateway.login(credentials);
    await expect(worker.validateTin(token, { tin: 'C25845632020', idType: 'BRN', idValue: '201901234567' })).resolves.toBe(true);
    const unknown = await rejection(worker.validateTin({ ...token, accessToken: 'sandbox.NOT-ISSUED' }, { tin: 'C25845632020', idType: 'BRN', idValue: '201901234567' }));
    expect(unknown).toMatchObject({ code: 'MYINVOIS.TOKEN_REJECTED' });
    now += 3_600_000;
    const expired = await rejection(worker.validateTin(token, { tin: 'C25845632020', idType: 'BRN', idValue: '201901234567' }));
    expect(expired).toMatchObject({ code: 'MYINVOIS.TOKEN_REJECTED' });
  });

  it('a login prunes the tokens that have expired', async () => {
    const sandbox = instance();
    const old = await sandbox.login(credentials);
    const count = async (token: string) => Number((await dataSource.query(`SELECT count(*) AS n FROM myinvois_sandbox_tokens WHERE access_token = $1`, [token]))[0].n);
    expect(await count(old.accessToken)).toBe(1);
    now += 3_600_000;
    await sandbox.login(credentials);
    expect(await count(old.accessToken)).toBe(0);
  });

  it('#DV302 holds across instances: the second instance gets DV302 naming the first document; another invoice passes', async () => {
    const [first, second] = [instance(), instance()];
    const original = await first.submitDocuments(await first.login(credentials), [invoice('INV')]);
    const again = await second.submitDocuments(await second.login(credentials), [invoice('INV'), invoice('OTHER')]);
    expect(again.rejectedDocuments).toEqual([{ invoiceCodeNumber: id('INV'), error: expect.objectContaining({ code: 'DV302' }) }]);
    expect(again.rejectedDocuments[0].error.details?.[0].message).toContain(original.acceptedDocuments[0].uuid);
    expect(again.acceptedDocuments.map((d) => d.invoiceCodeNumber)).toEqual([id('OTHER')]);
  });

  it('#DV302 within one submission: the same invoice twice is stored once, the second names the first; the submission is written in one statement', async () => {
    const sandbox = instance();
    const token = await sandbox.login(credentials);
    const statements: string[] = [];
    const counted = new SandboxMyInvois({
      now: () => now,
      validationDelayMs: 2_000,
      state: new PostgresSandboxState((sql, params) => {
        statements.push(sql);
        return dataSource.query(sql, params);
      }),
    });
    const answer = await counted.submitDocuments(token, [invoice('TWICE'), invoice('ONCE'), invoice('TWICE')]);
    expect(answer.acceptedDocuments.map((d) => d.invoiceCodeNumber)).toEqual([id('TWICE'), id('ONCE')]);
    expect(answer.rejectedDocuments).toEqual([{ invoiceCodeNumber: id('TWICE'), error: expect.objectContaining({ code: 'DV302' }) }]);
    expect(answer.rejectedDocuments[0].error.details?.[0].message).toContain(answer.acceptedDocuments[0].uuid);
    // Its documents in submission order, as Get Submission lists them.
    const listed = await instance().getSubmission(token, answer.submissionUid);
    expect(listed.documentSummary.map((d) => d.uuid)).toEqual(answer.acceptedDocuments.map((d) => d.uuid));
    // Token lookup, the submission, its documents: one statement for the documents, not one each.
    expect(statements.filter((sql) => sql.includes('INSERT INTO myinvois_sandbox_documents'))).toHaveLength(1);

    statements.length = 0;
    now += 2_000;
    const validated = await counted.getSubmission(token, answer.submissionUid);
    expect(validated.documentSummary.map((d) => d.status)).toEqual(['Valid', 'Valid']);
    expect(statements.filter((sql) => sql.includes('UPDATE myinvois_sandbox_documents d SET summary'))).toHaveLength(1);
  });

  it('#DV302 concurrent submissions of one invoice by several instances: exactly one is accepted, the others name it', async () => {
    const sandboxes = Array.from({ length: 6 }, instance);
    const tokens = await Promise.all(sandboxes.map((s) => s.login(credentials)));
    const answers = await Promise.all(sandboxes.map((s, i) => s.submitDocuments(tokens[i], [invoice('RACE')])));
    const accepted = answers.flatMap((a) => a.acceptedDocuments);
    expect(accepted).toHaveLength(1);
    const rejected = answers.flatMap((a) => a.rejectedDocuments);
    expect(rejected).toHaveLength(5);
    for (const r of rejected) expect(r.error.details?.[0].message).toContain(accepted[0].uuid);
  });

  it('a second instance polls what the first submitted; polling at once, both see Valid with one long id', async () => {
    const [first, second] = [instance(), instance()];
    const token = await first.login(credentials);
    const { submissionUid, acceptedDocuments } = await first.submitDocuments(token, [invoice('POLL'), invoice('POLL-INVALID')]);
    await expect(second.getSubmission(token, submissionUid)).resolves.toMatchObject({ overallStatus: 'in progress' });
    now += 2_000;
    const [a, b] = await Promise.all([first.getSubmission(token, submissionUid), second.getSubmission(token, submissionUid)]);
    expect(a.overallStatus).toBe('partially valid');
    expect(a.documentSummary[0]).toMatchObject({ uuid: acceptedDocuments[0].uuid, status: 'Valid', longId: expect.stringMatching(/^[A-Z0-9]{44}$/) });
    expect(b.documentSummary).toEqual(a.documentSummary);
    const later = await instance().getSubmission(token, submissionUid);
    expect(later.documentSummary[0].longId).toBe(a.documentSummary[0].longId);
    // Another client id does not see it.
    const stranger = await second.login({ ...credentials, clientId: `other-${run}-${seq}` });
    expect(await rejection(second.getSubmission(stranger, submissionUid))).toMatchObject({ kind: 'not_found' });
  });

  it('a cancel through the second instance frees the invoice\'s DV302 key for the first; a second cancel is refused', async () => {
    const [first, second] = [instance(), instance()];
    const token = await first.login(credentials);
    const { submissionUid, acceptedDocuments } = await first.submitDocuments(token, [invoice('CANCEL')]);
    await first.getSubmission(token, submissionUid);
    now += 2_000;
    await first.getSubmission(token, submissionUid);
    const blocked = await first.submitDocuments(token, [invoice('CANCEL')]);
    expect(blocked.rejectedDocuments[0]?.error.code).toBe('DV302');

    await expect(second.cancelDocument(token, acceptedDocuments[0].uuid, 'Wrong buyer')).resolves.toEqual({ uuid: acceptedDocuments[0].uuid, status: 'Cancelled' });
    expect(await rejection(first.cancelDocument(token, acceptedDocuments[0].uuid, 'Again'))).toMatchObject({ code: 'MYINVOIS.INCORRECT_STATE' });
    const resubmitted = await first.submitDocuments(token, [invoice('CANCEL')]);
    expect(resubmitted.acceptedDocuments).toHaveLength(1);
  });

  it('Get Recent Documents through a fresh instance: Sent newest first for the client id; Received by the buyer, with its rejection request', async () => {
    const first = instance();
    const token = await first.login(credentials);
    const buyerTin = freshTin();
    const older = await first.submitDocuments(token, [invoice('OLD', buyerTin)]);
    now += 1_000;
    const newer = await first.submitDocuments(token, [invoice('NEW')]);

    const restarted = instance();
    const sent = await restarted.recentDocuments(token, { invoiceDirection: 'Sent', pageSize: 1 });
    expect(sent.metadata).toEqual({ totalPages: 2, totalCount: 2 });
    expect(sent.result.map((d) => d.uuid)).toEqual([newer.acceptedDocuments[0].uuid]);
    const page2 = await restarted.recentDocuments(token, { invoiceDirection: 'Sent', pageSize: 1, pageNo: 2 });
    expect(page2.result.map((d) => d.uuid)).toEqual([older.acceptedDocuments[0].uuid]);

    const buyer = await restarted.login({ clientId: `buyer-${run}-${seq}`, clientSecret: 'secret', onBehalfOfTin: buyerTin });
    await expect(restarted.recentDocuments(buyer, { invoiceDirection: 'Received' })).resolves.toMatchObject({ metadata: { totalCount: 0 } });
    await first.getSubmission(token, older.submissionUid);
    now += 2_000;
    await first.getSubmission(token, older.submissionUid);
    const uuid = older.acceptedDocuments[0].uuid;
    expect(await rejection(restarted.rejectDocument(token, uuid, 'Issuer'))).toMatchObject({ kind: 'forbidden', code: 'MYINVOIS.REJECT_NOT_RECEIVER' });
    await restarted.rejectDocument(buyer, uuid, 'Goods not received');
    const received = await first.recentDocuments(buyer, { invoiceDirection: 'Received' });
    expect(received.result).toEqual([expect.objectContaining({ uuid, receiverId: buyerTin, status: 'Valid', documentStatusReason: 'Goods not received', rejectRequestDateTime: expect.any(String) })]);
  });
});
