import { authorityReportDecider, foldEvents } from '@einvoice/domain';
import { type BuyerRejectionAsked, buyerRejectionRequest, rejectionReportId } from './buyer-rejection';
import { carriedRejectionsOf } from './carry-over-rejections';
import { isRejectionPayload } from './report';

const asked: BuyerRejectionAsked = {
  tenantId: 't-2',
  buyerId: 'buyer-1',
  uuid: 'U1',
  reason: 'Goods not received',
  ruleSetId: 'myinvois:document:1.1',
  requestedAt: '2026-03-16T09:00:00.000Z',
};
const request = (over: Partial<BuyerRejectionAsked> = {}, earlier: readonly string[] = []) => buyerRejectionRequest({ ...asked, ...over }, earlier);

describe('#4/#8 MyInvois buyer rejection as a report of the generic pipeline (SDK "04 reject document")', () => {
  describe('the request', () => {
    it('is a report of direction incoming about the received document, for the buyer, in a batch of its own, its payload the Reject Document call', () => {
      const report = request();
      expect(report).toMatchObject({
        reportId: rejectionReportId('buyer-1', 'U1', 0),
        documentId: rejectionReportId('buyer-1', 'U1', 0),
        tenantId: 't-2',
        supplierId: 'buyer-1',
        area: 'my',
        direction: 'incoming',
        documentNumber: 'U1',
        documentType: 'rejection',
        fields: { uuid: 'U1', reason: 'Goods not received' },
        payload: { action: 'reject', uuid: 'U1', reason: 'Goods not received' },
        batchKey: `rejection:${rejectionReportId('buyer-1', 'U1', 0)}`,
      });
      expect(JSON.parse(report.document.bytes)).toEqual({ status: 'rejected', reason: 'Goods not received' });
      expect(report.document.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(isRejectionPayload(report.payload as never)).toBe(true);
      // The generic decider takes it as any report.
      expect(authorityReportDecider.decide({ type: 'RequestAuthorityReport', data: report }, authorityReportDecider.initialState)).toEqual([{ type: 'AuthorityReportRequested', data: report }]);
    });

    it('a reason of 300 characters is accepted; 301, empty or blank is REQUEST.INVALID naming reason', () => {
      expect(request({ reason: 'x'.repeat(300) }).fields).toEqual({ uuid: 'U1', reason: 'x'.repeat(300) });
      for (const reason of ['x'.repeat(301), '', '   ']) {
        expect(() => request({ reason })).toThrow(expect.objectContaining({ code: 'REQUEST.INVALID', issues: [expect.objectContaining({ path: 'reason' })] }));
      }
    });

    it('the reason is counted in characters as the request DTO counts them: 300 emoji pass, 301 do not', () => {
      expect(request({ reason: '🧾'.repeat(300) }).payload).toMatchObject({ reason: '🧾'.repeat(300) });
      expect(() => request({ reason: '🧾'.repeat(301) })).toThrow(
        expect.objectContaining({ code: 'REQUEST.INVALID', issues: [expect.objectContaining({ path: 'reason', code: 'FIELD.TOO_LONG' })] }),
      );
    });

    it('a blank uuid is REQUEST.INVALID naming uuid', () => {
      expect(() => request({ uuid: ' ' })).toThrow(expect.objectContaining({ code: 'REQUEST.INVALID', issues: [expect.objectContaining({ path: 'uuid' })] }));
    });

    it('given a request in flight, when requested again, then MYINVOIS.REJECTION_IN_PROGRESS', () => {
      expect(() => request({}, ['pending'])).toThrow(expect.objectContaining({ code: 'MYINVOIS.REJECTION_IN_PROGRESS', kind: 'conflict' }));
      expect(() => request({}, ['rejected', 'pending'])).toThrow(expect.objectContaining({ code: 'MYINVOIS.REJECTION_IN_PROGRESS' }));
    });

    it('given a rejection MyInvois recorded, when requested again, then MYINVOIS.ALREADY_REJECTED (once per document)', () => {
      expect(() => request({}, ['reported'])).toThrow(expect.objectContaining({ code: 'MYINVOIS.ALREADY_REJECTED', kind: 'conflict' }));
    });

    it('given refused rejections, when requested again, then a new report (MyInvois decides again), numbered after them', () => {
      expect(request({}, ['rejected', 'rejected']).reportId).toBe(rejectionReportId('buyer-1', 'U1', 2));
      // Two requests at once number alike: they meet on one stream, and the second is refused there.
      expect(request({}, ['rejected']).reportId).toBe(request({}, ['rejected']).reportId);
      expect(rejectionReportId('buyer-1', 'U1', 1)).not.toBe(rejectionReportId('buyer-2', 'U1', 1));
    });
  });

  describe('carried over from the rejection streams of before #8', () => {
    const requested = (reason: string, requestedAt: string) => ({
      type: 'MyInvoisBuyerRejectionRequested', schemaVersion: 1, data: { rejectionId: 'r-1', tenantId: 't-2', supplierId: 'buyer-1', uuid: 'U1', reason, requestedAt },
    });
    const error = { code: 'Forbidden', message: 'Rejection is allowed for recipient of the document only.' };
    const refused = { type: 'MyInvoisBuyerRejectionRefused', schemaVersion: 1, data: { rejectionId: 'r-1', uuid: 'U1', kind: 'forbidden', error, refusedAt: 't1' } };
    const recorded = { type: 'MyInvoisBuyerRejectionRecorded', schemaVersion: 1, data: { rejectionId: 'r-1', uuid: 'U1', rejectedAt: 't3' } };
    const fold = (carried: ReturnType<typeof carriedRejectionsOf>[number]) => {
      let state = authorityReportDecider.initialState;
      const events = [];
      for (const command of [{ type: 'RequestAuthorityReport' as const, data: carried.request }, ...carried.commands]) {
        const decided = authorityReportDecider.decide(command, state);
        events.push(...decided);
        state = foldEvents(authorityReportDecider, events as never);
      }
      return { state, events };
    };

    it('each request is the report the gateway makes now, numbered in the stream\'s order, with MyInvois\'s answer (a refusal keeps how and MyInvois\'s error)', () => {
      const carried = carriedRejectionsOf([requested('Wrong', 't0'), refused, requested('Goods not received', 't2'), recorded], 'myinvois:document:1.1');
      expect(carried.map((c) => c.request.reportId)).toEqual([rejectionReportId('buyer-1', 'U1', 0), rejectionReportId('buyer-1', 'U1', 1)]);
      expect(carried[1].request).toEqual(buyerRejectionRequest({ ...asked, requestedAt: 't2' }, ['rejected']));
      const [first, second] = carried.map(fold);
      expect(first.state.status).toBe('rejected');
      expect(first.events.at(-1)).toMatchObject({
        type: 'AuthorityReportRejected',
        data: { error, receipt: { refusal: 'forbidden' }, rejectedAt: 't1' },
      });
      expect(second.state.status).toBe('accepted');
      expect(second.events.at(-1)).toMatchObject({ type: 'AuthorityReportAccepted', data: { final: true, receipt: {}, acceptedAt: 't3' } });
    });

    it('a request MyInvois never answered stays requested (the batch sweep sends it)', () => {
      const [carried] = carriedRejectionsOf([requested('Not ordered', 't0')], 'myinvois:document:1.1');
      expect(carried.commands).toEqual([]);
      expect(fold(carried).state.status).toBe('requested');
    });
  });
});
