import { specification } from '@einvoice/domain';
import { myInvoisRejectionDecider } from './decide';
import type { MyInvoisBuyerRejectionRequestedData, MyInvoisRejectionEvent } from './events';

const request: MyInvoisBuyerRejectionRequestedData = {
  rejectionId: 'r-1',
  tenantId: 't-2',
  supplierId: 'buyer-1',
  uuid: 'U1',
  reason: 'Goods not received',
  requestedAt: '2026-03-16T09:00:00.000Z',
};
const at = '2026-03-16T09:00:01.000Z';
const requested: MyInvoisRejectionEvent = { type: 'MyInvoisBuyerRejectionRequested', data: request };
const recorded: MyInvoisRejectionEvent = { type: 'MyInvoisBuyerRejectionRecorded', data: { rejectionId: 'r-1', uuid: 'U1', rejectedAt: at } };
const notReceiver = { kind: 'forbidden' as const, error: { code: 'Forbidden', message: 'Rejection is allowed for recipient of the document only.' } };
const refused: MyInvoisRejectionEvent = { type: 'MyInvoisBuyerRejectionRefused', data: { rejectionId: 'r-1', uuid: 'U1', ...notReceiver, refusedAt: at } };

const spec = specification(myInvoisRejectionDecider);

describe('#4 MyInvois buyer rejection decider (SDK "04 reject document")', () => {
  describe('the request', () => {
    it('given nothing, when RequestBuyerRejection, then MyInvoisBuyerRejectionRequested', () => {
      spec.given([]).when({ type: 'RequestBuyerRejection', data: request }).then([requested]);
    });

    it('a reason of 300 characters is accepted; 301, empty or blank is REQUEST.INVALID naming reason', () => {
      const long = { ...request, reason: 'x'.repeat(300) };
      spec.given([]).when({ type: 'RequestBuyerRejection', data: long }).then([{ type: 'MyInvoisBuyerRejectionRequested', data: long }]);
      for (const reason of ['x'.repeat(301), '', '   ']) {
        expect(() => myInvoisRejectionDecider.decide({ type: 'RequestBuyerRejection', data: { ...request, reason } }, myInvoisRejectionDecider.initialState)).toThrow(
          expect.objectContaining({ code: 'REQUEST.INVALID', issues: [expect.objectContaining({ path: 'reason' })] }),
        );
      }
    });

    it('the reason is counted in characters as the request DTO counts them: 300 emoji pass, 301 do not', () => {
      const emoji = { ...request, reason: '🧾'.repeat(300) };
      spec.given([]).when({ type: 'RequestBuyerRejection', data: emoji }).then([{ type: 'MyInvoisBuyerRejectionRequested', data: emoji }]);
      expect(() => myInvoisRejectionDecider.decide({ type: 'RequestBuyerRejection', data: { ...request, reason: '🧾'.repeat(301) } }, myInvoisRejectionDecider.initialState)).toThrow(
        expect.objectContaining({ code: 'REQUEST.INVALID', issues: [expect.objectContaining({ path: 'reason', code: 'FIELD.TOO_LONG' })] }),
      );
    });

    it('a blank uuid is REQUEST.INVALID naming uuid', () => {
      expect(() => myInvoisRejectionDecider.decide({ type: 'RequestBuyerRejection', data: { ...request, uuid: ' ' } }, myInvoisRejectionDecider.initialState)).toThrow(
        expect.objectContaining({ code: 'REQUEST.INVALID', issues: [expect.objectContaining({ path: 'uuid' })] }),
      );
    });

    it('given a request in flight, when requested again, then MYINVOIS.REJECTION_IN_PROGRESS', () => {
      spec.given([requested]).when({ type: 'RequestBuyerRejection', data: request }).thenThrows('MYINVOIS.REJECTION_IN_PROGRESS');
    });

    it('given a rejection MyInvois recorded, when requested again, then MYINVOIS.ALREADY_REJECTED (once per document)', () => {
      spec.given([requested, recorded]).when({ type: 'RequestBuyerRejection', data: request }).thenThrows('MYINVOIS.ALREADY_REJECTED');
    });

    it('given a refused rejection, when requested again, then a new request (MyInvois decides again)', () => {
      spec.given([requested, refused]).when({ type: 'RequestBuyerRejection', data: request }).then([requested]);
    });
  });

  describe("MyInvois's answer", () => {
    it('given a request in flight, when MyInvois accepted it, then MyInvoisBuyerRejectionRecorded', () => {
      spec.given([requested]).when({ type: 'RecordBuyerRejectionAnswer', data: { rejectionId: 'r-1', at } }).then([recorded]);
    });

    it('given a request in flight, when MyInvois refused it, then MyInvoisBuyerRejectionRefused with its kind and error', () => {
      spec.given([requested]).when({ type: 'RecordBuyerRejectionAnswer', data: { rejectionId: 'r-1', refused: notReceiver, at } }).then([refused]);
    });

    it('given an answer recorded (or no request), when an answer is recorded again (redelivery), then nothing new', () => {
      spec.given([requested, recorded]).when({ type: 'RecordBuyerRejectionAnswer', data: { rejectionId: 'r-1', refused: notReceiver, at } }).then([]);
      spec.given([requested, refused]).when({ type: 'RecordBuyerRejectionAnswer', data: { rejectionId: 'r-1', at } }).then([]);
      spec.given([]).when({ type: 'RecordBuyerRejectionAnswer', data: { rejectionId: 'r-1', at } }).then([]);
    });
  });
});
