import { AccessToken, MyInvoisCredentials, prepareDocument } from './connector';
import { sampleInvoiceJson, sampleInvoiceXml } from './fixtures/documents';
import { checkIdValue, checkTinFormat } from './identifiers';
import { SandboxMyInvois, SandboxOptions } from './sandbox';
import { rejection } from '../../../../../test/support/errors';

const credentials: MyInvoisCredentials = { clientId: 'client-1', clientSecret: 'secret', onBehalfOfTin: 'C25845632020' };


function setup(options: SandboxOptions = {}) {
  let now = Date.parse('2025-01-15T10:00:00Z');
  const sandbox = new SandboxMyInvois({ now: () => now, validationDelayMs: 2_000, ...options });
  return { sandbox, advance: (ms: number) => (now += ms) };
}

describe('MyInvois TIN formats', () => {
  it.each(['IG12345678901', 'IG123456789', 'C25845632020', 'C1234567890', 'CS1234567890', 'LE123456780', 'EI00000000010'])('accepts %s', (tin) => {
    expect(checkTinFormat(tin).ok).toBe(true);
  });

  it.each([
    ['C01234567890', 'leading zero after the prefix'],
    ['C123456789', 'non-individual TIN not ending in 0'],
    ['SG123456789', 'old individual prefix'],
    ['X1234567890', 'unknown prefix'],
    ['IG1234567890123', 'longer than 14 characters'],
    ['', 'empty'],
  ])('rejects %s (%s)', (tin) => {
    expect(checkTinFormat(tin).ok).toBe(false);
  });

  it('checks id values by type: BRN and NRIC are 12 digits', () => {
    expect(checkIdValue('BRN', '201901234567')).toBe(true);
    expect(checkIdValue('BRN', '1234567-A')).toBe(false);
    expect(checkIdValue('NRIC', '770625015324')).toBe(true);
    expect(checkIdValue('NRIC', '770625-01-5324')).toBe(false);
    expect(checkIdValue('PASSPORT', 'A12345678')).toBe(true);
  });
});

describe('SandboxMyInvois', () => {
  describe('login', () => {
    it('issues a 60-minute token for plausible credentials', async () => {
      const { sandbox } = setup();
      const token = await sandbox.login(credentials);
      expect(token.expiresAt - Date.parse('2025-01-15T10:00:00Z')).toBe(3_600_000);
      expect(token).toMatchObject({ clientId: 'client-1', onBehalfOfTin: 'C25845632020' });
    });

    it.each([
      { clientId: 'bad-client', clientSecret: 'secret' },
      { clientId: 'client-1', clientSecret: 'invalid' },
      { clientId: '', clientSecret: 'secret' },
    ])('rejects %o with a final MYINVOIS.INVALID_CREDENTIALS', async (c) => {
      const { sandbox } = setup();
      const error = await rejection(sandbox.login({ ...credentials, ...c }));
      expect(error).toMatchObject({ kind: 'validation', code: 'MYINVOIS.INVALID_CREDENTIALS', retriable: false });
    });

    it('refuses an expired token with a retriable MYINVOIS.TOKEN_REJECTED', async () => {
      const { sandbox, advance } = setup();
      const token = await sandbox.login(credentials);
      advance(3_600_000);
      const error = await rejection(sandbox.getSubmission(token, 'X'));
      expect(error).toMatchObject({ kind: 'unauthenticated', code: 'MYINVOIS.TOKEN_REJECTED', retriable: true });
    });
  });

  describe('validateTin', () => {
    it('is true for a well-formed TIN and id, false for an unknown one', async () => {
      const { sandbox } = setup();
      const token = await sandbox.login(credentials);
      await expect(sandbox.validateTin(token, { tin: 'C25845632020', idType: 'BRN', idValue: '201901234567' })).resolves.toBe(true);
      await expect(sandbox.validateTin(token, { tin: 'C2584563202', idType: 'BRN', idValue: '201901234567' })).resolves.toBe(false);
      await expect(sandbox.validateTin(token, { tin: 'IG12345678901', idType: 'NRIC', idValue: '000000000000' })).resolves.toBe(false);
    });
  });

  describe('submitDocuments and getSubmission', () => {
    it('assigns a 26-character submission uid and document uuids, then validates on a later poll', async () => {
      const { sandbox, advance } = setup();
      const token = await sandbox.login(credentials);
      const response = await sandbox.submitDocuments(token, [prepareDocument('XML', 'INV-1', sampleInvoiceXml({ id: 'INV-1' })), prepareDocument('XML', 'INV-2', sampleInvoiceXml({ id: 'INV-2' }))]);
      expect(response.submissionUid).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(response.acceptedDocuments.map((d) => d.invoiceCodeNumber)).toEqual(['INV-1', 'INV-2']);
      expect(response.acceptedDocuments[0].uuid).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(response.rejectedDocuments).toEqual([]);

      const first = await sandbox.getSubmission(token, response.submissionUid);
      expect(first.overallStatus).toBe('in progress');
      expect(first.documentSummary.map((d) => d.status)).toEqual(['Submitted', 'Submitted']);
      advance(2_000);
      const second = await sandbox.getSubmission(token, response.submissionUid);
      expect(second).toMatchObject({ overallStatus: 'valid', documentCount: 2 });
      expect(second.documentSummary[0]).toMatchObject({ status: 'Valid', internalId: 'INV-1', typeName: 'Invoice', issuerTin: 'C25845632020' });
      expect(second.documentSummary[0].longId).toMatch(/^[A-Z0-9]{44}$/);
    });

    it('marks documents whose internal id contains INVALID as Invalid (partially valid submission)', async () => {
      const { sandbox, advance } = setup();
      const token = await sandbox.login(credentials);
      const { submissionUid } = await sandbox.submitDocuments(token, [
        prepareDocument('JSON', 'INV-OK', sampleInvoiceJson({ id: 'INV-OK' })),
        prepareDocument('JSON', 'INV-INVALID', sampleInvoiceJson({ id: 'INV-INVALID' })),
      ]);
      await sandbox.getSubmission(token, submissionUid);
      advance(2_000);
      const status = await sandbox.getSubmission(token, submissionUid);
      expect(status.overallStatus).toBe('partially valid');
      expect(status.documentSummary.map((d) => d.status)).toEqual(['Valid', 'Invalid']);
    });

    it('#DV302 rejects a document with the same type, version, issue date/time, internal id and supplier TIN', async () => {
      const { sandbox } = setup();
      const token = await sandbox.login(credentials);
      const first = await sandbox.submitDocuments(token, [prepareDocument('XML', 'INV-1', sampleInvoiceXml({ id: 'INV-1' }))]);
      const again = await sandbox.submitDocuments(token, [
        prepareDocument('XML', 'INV-1', sampleInvoiceXml({ id: 'INV-1' })),
        prepareDocument('XML', 'INV-1b', sampleInvoiceXml({ id: 'INV-1', issueTime: '10:00:01Z' })),
      ]);
      expect(again.rejectedDocuments).toEqual([
        { invoiceCodeNumber: 'INV-1', error: expect.objectContaining({ code: 'DV302', message: 'Duplicated submission' }) },
      ]);
      expect(again.rejectedDocuments[0].error.details?.[0].message).toContain(first.acceptedDocuments[0].uuid);
      expect(again.acceptedDocuments.map((d) => d.invoiceCodeNumber)).toEqual(['INV-1b']);
    });

    it('#DV302 compares the buyer TIN for self-billed documents (types 11–14)', async () => {
      const { sandbox } = setup();
      const token = await sandbox.login(credentials);
      await sandbox.submitDocuments(token, [prepareDocument('XML', 'SB-1', sampleInvoiceXml({ id: 'SB-1', typeCode: '11', buyerTin: 'C1111111110', supplierTin: 'IG12345678901' }))]);
      const otherSupplier = await sandbox.submitDocuments(token, [prepareDocument('XML', 'SB-1', sampleInvoiceXml({ id: 'SB-1', typeCode: '11', buyerTin: 'C1111111110', supplierTin: 'IG99999999901' }))]);
      expect(otherSupplier.rejectedDocuments[0]?.error.code).toBe('DV302');
      const otherBuyer = await sandbox.submitDocuments(token, [prepareDocument('XML', 'SB-1', sampleInvoiceXml({ id: 'SB-1', typeCode: '11', buyerTin: 'C2222222220', supplierTin: 'IG12345678901' }))]);
      expect(otherBuyer.acceptedDocuments).toHaveLength(1);
    });

    it('rejects a document whose hash does not match its bytes', async () => {
      const { sandbox } = setup();
      const token = await sandbox.login(credentials);
      const doc = prepareDocument('XML', 'INV-1', sampleInvoiceXml({ id: 'INV-1' }));
      const response = await sandbox.submitDocuments(token, [{ ...doc, documentHash: '0'.repeat(64) }]);
      expect(response.rejectedDocuments[0].error.details?.[0].message).toBe('Document hash is not valid');
    });

    it.each([
      ['more than 100 documents', () => Array.from({ length: 101 }, (_, i) => prepareDocument('XML', `I${i}`, sampleInvoiceXml({ id: `I${i}` })))],
      ['a document over 300 KB', () => [prepareDocument('XML', 'BIG', sampleInvoiceXml({ id: 'BIG' }) + ' '.repeat(300 * 1024))]],
      ['a submission over 5 MB', () => Array.from({ length: 20 }, (_, i) => prepareDocument('XML', `M${i}`, sampleInvoiceXml({ id: `M${i}` }) + ' '.repeat(290 * 1024)))],
    ])('refuses %s with MaximumSizeExceeded', async (_label, documents) => {
      const { sandbox } = setup();
      const token = await sandbox.login(credentials);
      const error = await rejection(sandbox.submitDocuments(token, documents()));
      expect(error).toMatchObject({ kind: 'too_large', code: 'MYINVOIS.MAXIMUM_SIZE_EXCEEDED', retriable: false });
      expect(error.details.authorityError).toMatchObject({ code: 'MaximumSizeExceeded' });
    });

    it('answers 429 with a retry-after once the per-minute limit is used up', async () => {
      const { sandbox, advance } = setup({ rateLimits: { submitDocuments: 2 } });
      const token = await sandbox.login(credentials);
      await sandbox.submitDocuments(token, [prepareDocument('XML', 'A', sampleInvoiceXml({ id: 'A' }))]);
      await sandbox.submitDocuments(token, [prepareDocument('XML', 'B', sampleInvoiceXml({ id: 'B' }))]);
      const error = await rejection(sandbox.submitDocuments(token, [prepareDocument('XML', 'C', sampleInvoiceXml({ id: 'C' }))]));
      expect(error).toMatchObject({ kind: 'rate_limited', code: 'MYINVOIS.RATE_LIMITED', retriable: true, details: { retryAfterMs: 30_000 } });
      advance(30_000);
      await expect(sandbox.submitDocuments(token, [prepareDocument('XML', 'C', sampleInvoiceXml({ id: 'C' }))])).resolves.toMatchObject({ acceptedDocuments: [expect.anything()] });
    });
  });

  describe('cancelDocument', () => {
    async function validDocument(sandbox: SandboxMyInvois, advance: (ms: number) => number): Promise<{ token: AccessToken; uuid: string; submissionUid: string }> {
      const token = await sandbox.login(credentials);
      const response = await sandbox.submitDocuments(token, [prepareDocument('XML', 'INV-1', sampleInvoiceXml({ id: 'INV-1' }))]);
      await sandbox.getSubmission(token, response.submissionUid);
      advance(2_000);
      await sandbox.getSubmission(token, response.submissionUid);
      return { token, uuid: response.acceptedDocuments[0].uuid, submissionUid: response.submissionUid };
    }

    it('cancels within 72 hours of validation, and the same invoice may then be submitted again', async () => {
      const { sandbox, advance } = setup();
      const { token, uuid, submissionUid } = await validDocument(sandbox, advance);
      await expect(sandbox.cancelDocument(token, uuid, 'Wrong buyer')).resolves.toEqual({ uuid, status: 'Cancelled' });
      expect((await sandbox.getSubmission(token, submissionUid)).documentSummary[0]).toMatchObject({ status: 'Cancelled', documentStatusReason: 'Wrong buyer' });
      const again = await sandbox.submitDocuments(token, [prepareDocument('XML', 'INV-1', sampleInvoiceXml({ id: 'INV-1' }))]);
      expect(again.acceptedDocuments).toHaveLength(1);
    });

    it('refuses after 72 hours with OperationPeriodOver', async () => {
      const { sandbox, advance } = setup();
      const { uuid } = await validDocument(sandbox, advance);
      advance(72 * 3_600_000 + 1);
      const fresh = await sandbox.login(credentials);
      const error = await rejection(sandbox.cancelDocument(fresh, uuid, 'Too late'));
      expect(error).toMatchObject({ kind: 'conflict', code: 'MYINVOIS.OPERATION_PERIOD_OVER', retriable: false });
    });

    it('is not_found for an unknown uuid', async () => {
      const { sandbox } = setup();
      const token = await sandbox.login(credentials);
      const error = await rejection(sandbox.cancelDocument(token, 'NOPE', 'reason'));
      expect(error).toMatchObject({ kind: 'not_found', code: 'MYINVOIS.NOT_FOUND' });
    });
  });

  describe('buyer side: rejectDocument and Received documents', () => {
    const buyer: MyInvoisCredentials = { clientId: 'buyer-client', clientSecret: 'secret', onBehalfOfTin: 'C1111111110' };

    /** A document of `credentials` (issuer) to buyer C1111111110, validated. */
    async function issuedToBuyer(sandbox: SandboxMyInvois, advance: (ms: number) => number, id = 'INV-B1'): Promise<{ issuer: AccessToken; uuid: string }> {
      const issuer = await sandbox.login(credentials);
      const response = await sandbox.submitDocuments(issuer, [prepareDocument('XML', id, sampleInvoiceXml({ id, buyerTin: buyer.onBehalfOfTin }))]);
      await sandbox.getSubmission(issuer, response.submissionUid);
      advance(2_000);
      await sandbox.getSubmission(issuer, response.submissionUid);
      return { issuer, uuid: response.acceptedDocuments[0].uuid };
    }

    it('the receiver (token acting for the buyer TIN) may reject; the issuer sees the request in Get Recent Documents', async () => {
      const { sandbox, advance } = setup();
      const { issuer, uuid } = await issuedToBuyer(sandbox, advance);
      const token = await sandbox.login(buyer);
      await expect(sandbox.rejectDocument(token, uuid, 'Goods not received')).resolves.toEqual({ uuid, status: 'Requested for Rejection' });
      const sent = await sandbox.recentDocuments(issuer, { invoiceDirection: 'Sent' });
      expect(sent.result).toEqual([
        expect.objectContaining({ uuid, status: 'Valid', receiverId: 'C1111111110', rejectRequestDateTime: '2025-01-15T10:00:02.000Z', documentStatusReason: 'Goods not received' }),
      ]);
      const again = await rejection(sandbox.rejectDocument(token, uuid, 'Twice'));
      expect(again).toMatchObject({ kind: 'conflict', code: 'MYINVOIS.INCORRECT_STATE' });
    });

    it('anyone else, the issuer included, is refused: forbidden MYINVOIS.REJECT_NOT_RECEIVER, not retriable, nothing recorded', async () => {
      const { sandbox, advance } = setup();
      const { issuer, uuid } = await issuedToBuyer(sandbox, advance);
      const stranger = await sandbox.login({ ...buyer, clientId: 'stranger', onBehalfOfTin: 'C2222222220' });
      for (const token of [issuer, stranger]) {
        const error = await rejection(sandbox.rejectDocument(token, uuid, 'Not mine'));
        expect(error).toMatchObject({ kind: 'forbidden', code: 'MYINVOIS.REJECT_NOT_RECEIVER', retriable: false, details: { authorityError: { code: 'Forbidden' } } });
      }
      const [document] = (await sandbox.recentDocuments(issuer, {})).result;
      expect(document).toMatchObject({ uuid, rejectRequestDateTime: null, documentStatusReason: null });
      // Checked before the document's state: a stranger learns nothing (not even that it was cancelled).
      await sandbox.cancelDocument(issuer, uuid, 'Wrong buyer');
      expect(await rejection(sandbox.rejectDocument(stranger, uuid, 'Not mine'))).toMatchObject({ code: 'MYINVOIS.REJECT_NOT_RECEIVER' });
    });

    it('Received lists the validated documents whose receiver is the token\'s taxpayer, from any issuer; Sent only the own', async () => {
      const { sandbox, advance } = setup();
      const { uuid } = await issuedToBuyer(sandbox, advance);
      const issuer = await sandbox.login(credentials);
      await sandbox.submitDocuments(issuer, [prepareDocument('XML', 'INV-OTHER', sampleInvoiceXml({ id: 'INV-OTHER', buyerTin: 'C2222222220' }))]);
      const token = await sandbox.login(buyer);
      const received = await sandbox.recentDocuments(token, { invoiceDirection: 'Received' });
      expect(received).toEqual({ result: [expect.objectContaining({ uuid, receiverId: 'C1111111110', issuerTin: 'C25845632020' })], metadata: { totalPages: 1, totalCount: 1 } });
      await expect(sandbox.recentDocuments(token, { invoiceDirection: 'Sent' })).resolves.toEqual({ result: [], metadata: { totalPages: 0, totalCount: 0 } });
      const notValidatedYet = await sandbox.submitDocuments(issuer, [prepareDocument('XML', 'INV-B2', sampleInvoiceXml({ id: 'INV-B2', buyerTin: buyer.onBehalfOfTin }))]);
      expect(notValidatedYet.acceptedDocuments).toHaveLength(1);
      expect((await sandbox.recentDocuments(token, { invoiceDirection: 'Received' })).metadata.totalCount).toBe(1);
    });
  });
});
