// The MyInvois reporting connector on the in-memory sandbox, its clock the test's: what the generic
// reporting pipeline gets for a caller's submission, polls, cancellations, recoveries and buyers' rejections.
import { SecretBox } from '@einvoice/domain';
import { rejection } from '../../../../../test/support/errors';
import type { AuthorityOutcome, AuthorityReport } from '../../registry/authority';
import { type MyInvoisCredentials, documentHash } from '../connector/connector';
import { sampleInvoiceXml } from '../connector/fixtures/documents';
import { SandboxMyInvois, type SandboxOptions } from '../connector/sandbox';
import { InMemoryTokenStore, TokenCache } from '../connector/token-cache';
import { MyInvoisReportingConnector, type MyInvoisReportingOptions } from './connector';
import { storedCredentials } from './from-env';
import type { MyInvoisReceipt, MyInvoisRejectionReceipt, MyInvoisReportPayload } from './report';

const supplierId = 'supplier-1';
const issuer: MyInvoisCredentials = { clientId: 'client-1', clientSecret: 'secret', onBehalfOfTin: 'C25845632020' };
const buyer: MyInvoisCredentials = { clientId: 'buyer-client', clientSecret: 'secret', onBehalfOfTin: 'C1111111110' };
const context = { heartbeat: async () => undefined };

function setup(options: { sandbox?: SandboxOptions; connector?: Partial<MyInvoisReportingOptions> } = {}) {
  let now = Date.parse('2025-01-15T10:00:00Z');
  const clock = () => now;
  const sandbox = new SandboxMyInvois({ now: clock, validationDelayMs: 2_000, ...options.sandbox });
  const store = new InMemoryTokenStore(clock);
  const connector = new MyInvoisReportingConnector({
    connector: sandbox,
    tokens: new TokenCache((credentials) => sandbox.login(credentials), { store, now: clock }),
    credentialsOf: async () => issuer,
    now: clock,
    // Waits move the clock (the sandbox's rate limits run on it too).
    sleep: async (ms) => {
      now += ms;
    },
    ...options.connector,
  });
  return {
    sandbox,
    store,
    connector,
    advance: (ms: number) => (now += ms),
    at: () => new Date(now).toISOString(),
  };
}

/** A report of one document of the caller's submission `submission-1`, numbered `number`. */
function report(number: string, bytes = sampleInvoiceXml({ id: number })): AuthorityReport<MyInvoisReportPayload> {
  return {
    reportId: `report-${number}`,
    tenantId: 'tenant-1',
    supplierId,
    payload: { submissionId: 'submission-1', kind: 'invoice', format: 'XML', invoiceCodeNumber: number },
    document: { bytes, mediaType: 'application/xml', sha256: documentHash(bytes) },
  };
}

function receiptOf(outcome: AuthorityOutcome<MyInvoisReceipt | MyInvoisRejectionReceipt> | undefined): MyInvoisReceipt {
  if (outcome?.kind !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(outcome)}`);
  return outcome.receipt as MyInvoisReceipt;
}

/** Submits `reports` in one batch and returns their receipts, by report id. */
async function submitted(connector: MyInvoisReportingConnector, reports: AuthorityReport<MyInvoisReportPayload>[]): Promise<Record<string, MyInvoisReceipt>> {
  const { outcomes } = await connector.submitBatch(reports, context);
  return Object.fromEntries(reports.map((r) => [r.reportId, receiptOf(outcomes[r.reportId])]));
}

describe('MyInvoisReportingConnector', () => {
  describe('submitBatch', () => {
    it('sends a caller submission in ONE Submit Documents call and answers each report by its number', async () => {
      const { sandbox, connector } = setup();
      const submit = jest.spyOn(sandbox, 'submitDocuments');
      const reports = [report('INV-1'), report('INV-2'), report('INV-3', '<Invoice/>')];

      const { outcomes } = await connector.submitBatch(reports, context);

      expect(submit).toHaveBeenCalledTimes(1);
      expect(submit.mock.calls[0][1].map((d) => d.codeNumber)).toEqual(['INV-1', 'INV-2', 'INV-3']);
      const [first, second] = [receiptOf(outcomes['report-INV-1']), receiptOf(outcomes['report-INV-2'])];
      expect(outcomes['report-INV-1']).toEqual({
        kind: 'accepted',
        final: false,
        receipt: { uuid: expect.any(String), submissionUid: expect.any(String), status: 'Submitted' },
      });
      expect(second.submissionUid).toBe(first.submissionUid);
      expect(second.uuid).not.toBe(first.uuid);
      expect(outcomes['report-INV-3']).toEqual({
        kind: 'rejected',
        error: {
          code: 'BadArgument',
          message: 'Invalid Argument',
          target: 'INV-3',
          details: [{ code: 'BadStructure', message: 'The document does not match the document type structure.', target: 'document' }],
        },
        // The submission it was refused in (GET shows its submissionUid).
        receipt: { submissionUid: first.submissionUid },
      });
    });

    it('answers a duplicate of a live document with MyInvois\'s DV302', async () => {
      const { connector } = setup();
      await submitted(connector, [report('INV-1')]);
      const { outcomes } = await connector.submitBatch([{ ...report('INV-1'), reportId: 'report-again' }], context);
      expect(outcomes['report-again']).toMatchObject({ kind: 'rejected', error: { code: 'DV302', message: 'Duplicated submission', target: 'INV-1' } });
    });

    it('throws a 429 as rate_limited with its Retry-After: the batch sweep tries the supplier again then', async () => {
      const { connector } = setup({ sandbox: { rateLimits: { submitDocuments: 1 } } });
      await submitted(connector, [report('INV-1')]);
      const error = await rejection(connector.submitBatch([report('INV-2')], context));
      expect(error).toMatchObject({ kind: 'rate_limited', retriable: true, details: { retryAfterMs: 60_000 } });
    });

    it('refuses every report with MyInvois\'s error when it refuses the call as a whole', async () => {
      const { connector } = setup();
      const tooLarge = sampleInvoiceXml({ id: 'BIG' }) + ' '.repeat(300 * 1024);
      const { outcomes } = await connector.submitBatch([report('INV-1'), report('BIG', tooLarge)], context);
      const refused = { kind: 'rejected', error: { code: 'MaximumSizeExceeded', message: expect.stringContaining('Document BIG is'), target: 'BIG' } };
      expect(outcomes).toEqual({ 'report-INV-1': refused, 'report-BIG': refused });
    });

    it('refuses every report of a supplier with no stored credentials (MYINVOIS.NO_CREDENTIALS)', async () => {
      const nothingStored = async <T>(): Promise<T[]> => [];
      const { connector } = setup({ connector: { credentialsOf: storedCredentials(nothingStored, SecretBox.fromEnv({})) } });
      const { outcomes } = await connector.submitBatch([report('INV-1'), report('INV-2')], context);
      expect(Object.values(outcomes)).toEqual([
        { kind: 'rejected', error: { code: 'MYINVOIS.NO_CREDENTIALS', message: expect.stringContaining('no MyInvois credentials') } },
        { kind: 'rejected', error: { code: 'MYINVOIS.NO_CREDENTIALS', message: expect.stringContaining('no MyInvois credentials') } },
      ]);
    });

    it('drops a token MyInvois no longer takes (retriable), so the next call logs in again', async () => {
      const { connector, store, advance } = setup();
      const { clientId, onBehalfOfTin } = issuer;
      const stale = { accessToken: 'sandbox.NOT-ISSUED', expiresAt: Date.parse('2025-01-15T11:00:00Z'), clientId, onBehalfOfTin };
      await store.set(supplierId, { token: stale, renewAt: stale.expiresAt }, 3_600_000);

      const error = await rejection(connector.submitBatch([report('INV-1')], context));
      expect(error).toMatchObject({ code: 'MYINVOIS.TOKEN_REJECTED', retriable: true });
      await expect(store.get(supplierId)).resolves.toBeUndefined();
      advance(1_000);
      await expect(connector.submitBatch([report('INV-1')], context)).resolves.toMatchObject({ outcomes: { 'report-INV-1': { kind: 'accepted' } } });
    });
  });

  describe('poll', () => {
    it('is pending while the document is Submitted, then accepted for good with its long id once Valid', async () => {
      const { connector, advance } = setup();
      const receipts = await submitted(connector, [report('INV-1')]);
      const receipt = receipts['report-INV-1'];

      await expect(connector.poll(report('INV-1'), receipt, context)).resolves.toEqual({ kind: 'pending' });
      advance(2_000);
      const verdict = await connector.poll(report('INV-1'), receipt, context);

      expect(verdict).toEqual({ kind: 'accepted', final: true, receipt: { ...receipt, status: 'Valid', longId: expect.stringMatching(/^[A-Z0-9]{44}$/) } });
    });

    it('rejects an Invalid document with MyInvois\'s reason', async () => {
      const { connector, advance } = setup();
      const receipt = (await submitted(connector, [report('INV-INVALID')]))['report-INV-INVALID'];
      await connector.poll(report('INV-INVALID'), receipt, context);
      advance(2_000);
      await expect(connector.poll(report('INV-INVALID'), receipt, context)).resolves.toEqual({
        kind: 'rejected',
        error: { code: 'Invalid', message: 'Sandbox: internal id marked INVALID' },
      });
    });

    it('asks Get Submission once for the polls of one submission\'s documents within pollAnswerMs', async () => {
      const { sandbox, connector, advance } = setup({ connector: { pollAnswerMs: 1_000 } });
      const reports = [report('INV-1'), report('INV-2'), report('INV-3')];
      const receipts = await submitted(connector, reports);
      const getSubmission = jest.spyOn(sandbox, 'getSubmission');

      for (const r of reports) await expect(connector.poll(r, receipts[r.reportId], context)).resolves.toEqual({ kind: 'pending' });
      expect(getSubmission).toHaveBeenCalledTimes(1);

      advance(2_000);
      const verdicts = [];
      for (const r of reports) verdicts.push(await connector.poll(r, receipts[r.reportId], context));
      expect(getSubmission).toHaveBeenCalledTimes(2);
      expect(verdicts.map((v) => v.kind)).toEqual(['accepted', 'accepted', 'accepted']);
    });
  });

  describe('cancel', () => {
    async function validDocument(over: Parameters<typeof setup>[0] = {}) {
      const world = setup(over);
      const receipt = (await submitted(world.connector, [report('INV-1')]))['report-INV-1'];
      await world.connector.poll(report('INV-1'), receipt, context);
      world.advance(2_000);
      expect(await world.connector.poll(report('INV-1'), receipt, context)).toMatchObject({ kind: 'accepted', final: true });
      return { ...world, receipt };
    }

    it('cancels a valid document; asked again after a lost answer, it is cancelled all the same', async () => {
      const { connector, receipt } = await validDocument();
      await expect(connector.cancel(report('INV-1'), receipt, 'Wrong buyer', context)).resolves.toEqual({ kind: 'cancelled' });
      await expect(connector.cancel(report('INV-1'), receipt, 'Wrong buyer', context)).resolves.toEqual({ kind: 'cancelled' });
    });

    it('is refused with OperationPeriodOver 72 h after the validation', async () => {
      const { connector, receipt, advance } = await validDocument();
      advance(72 * 3_600_000 + 1);
      await expect(connector.cancel(report('INV-1'), receipt, 'Too late', context)).resolves.toEqual({
        kind: 'refused',
        error: { code: 'OperationPeriodOver', message: 'The 72-hour window after validation has passed.', target: receipt.uuid },
      });
    });

    it('is refused with IncorrectState for a document that is not valid', async () => {
      const { connector, advance } = setup();
      const receipt = (await submitted(connector, [report('INV-INVALID')]))['report-INV-INVALID'];
      await connector.poll(report('INV-INVALID'), receipt, context);
      advance(2_000);
      await connector.poll(report('INV-INVALID'), receipt, context);
      await expect(connector.cancel(report('INV-INVALID'), receipt, 'Wrong buyer', context)).resolves.toEqual({
        kind: 'refused',
        error: { code: 'IncorrectState', message: 'The document is Invalid.' },
      });
    });
  });

  describe('recover', () => {
    it('finds what a lost answer accepted, with one Get Recent Documents scan for the whole batch; nothing for a document never sent', async () => {
      const { sandbox, connector, advance, at } = setup();
      const firstAttemptAt = at();
      advance(500);
      const receipts = await submitted(connector, [report('INV-1'), report('INV-2')]);
      advance(5_000);
      const recentDocuments = jest.spyOn(sandbox, 'recentDocuments');

      const found = [];
      for (const number of ['INV-1', 'INV-2', 'INV-9']) found.push(await connector.recover(report(number), firstAttemptAt, context));

      expect(found).toEqual([
        { kind: 'accepted', final: false, receipt: receipts['report-INV-1'] },
        { kind: 'accepted', final: false, receipt: receipts['report-INV-2'] },
        undefined,
      ]);
      expect(recentDocuments).toHaveBeenCalledTimes(1);
      expect(recentDocuments.mock.calls[0][1]).toMatchObject({ invoiceDirection: 'Sent', pageSize: 100, submissionDateFrom: '2025-01-15T09:59:00Z' });
    });

    it('waits out a 429 up to maxRetryAfterMs, heartbeating; a longer one goes to the caller', async () => {
      const limited = { sandbox: { rateLimits: { recentDocuments: 1 } } };
      const patient = setup({ ...limited, connector: { maxRetryAfterMs: 60_000, recoveryScanMs: 0 } });
      await submitted(patient.connector, [report('INV-1')]);
      const heartbeat = jest.fn(async () => undefined);
      const firstAttemptAt = '2025-01-15T10:00:00.000Z';
      await expect(patient.connector.recover(report('INV-1'), firstAttemptAt, context)).resolves.toMatchObject({ kind: 'accepted' });
      await expect(patient.connector.recover(report('INV-1'), firstAttemptAt, { heartbeat })).resolves.toMatchObject({ kind: 'accepted' });
      expect(heartbeat).toHaveBeenCalledTimes(60);

      const hurried = setup({ ...limited, connector: { recoveryScanMs: 0 } });
      await hurried.connector.recover(report('INV-1'), firstAttemptAt, context);
      const error = await rejection(hurried.connector.recover(report('INV-1'), firstAttemptAt, context));
      expect(error).toMatchObject({ kind: 'rate_limited', details: { retryAfterMs: 60_000 } });
    });
  });

  describe('buyerRejections', () => {
    it('finds, in one scan, the documents whose buyer asked MyInvois to reject them, with the reason', async () => {
      const { sandbox, connector, advance, at } = setup();
      const toBuyer = (number: string) => report(number, sampleInvoiceXml({ id: number, buyerTin: buyer.onBehalfOfTin }));
      const reports = [toBuyer('INV-1'), toBuyer('INV-2')];
      const receipts = await submitted(connector, reports);
      for (const r of reports) await connector.poll(r, receipts[r.reportId], context);
      advance(2_000);
      for (const r of reports) await connector.poll(r, receipts[r.reportId], context);
      const acceptedAt = at();
      advance(60_000);
      const rejectedAt = at();
      await sandbox.rejectDocument(await sandbox.login(buyer), receipts['report-INV-1'].uuid, 'Goods not received');
      const recentDocuments = jest.spyOn(sandbox, 'recentDocuments');

      const documents = reports.map((r) => ({ reportId: r.reportId, receipt: receipts[r.reportId], acceptedAt }));
      const rejections = await connector.buyerRejections(supplierId, documents, context);

      expect(rejections).toEqual([{ reportId: 'report-INV-1', reason: 'Goods not received', requestedAt: rejectedAt }]);
      expect(recentDocuments).toHaveBeenCalledTimes(1);
      expect(connector.buyerRejectionWindowMs).toBe(72 * 3_600_000);
    });
  });
});
