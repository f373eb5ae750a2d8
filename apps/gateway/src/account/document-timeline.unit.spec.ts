import { timelineOf } from './document-timeline';
import { authorityOf, exchangeOf } from '@einvoice/domain';

const at = new Date('2026-11-25T10:00:00Z');
const event = (type: string, data: Record<string, unknown>) => ({ type, data, recorded_at: at });

describe('#47 a document\'s timeline and tracks (GET /v1/documents/{id})', () => {
  it('a failed delivery carries its reason and the receiver\'s MLS; bookkeeping events are left out', () => {
    const mls = { responseCode: 'RE', receivedAt: '2026-11-25T10:00:05.000Z', reasonCode: 'BV' };
    expect(
      timelineOf([
        event('DocumentSubmitted', { receiverParticipantId: '0208:0843766574', submittedAt: '2026-11-25T10:00:00.000Z' }),
        event('DocumentChained', {}),
        event('DocumentDeliveryFailed', { reason: { code: 'PEPPOL.REJECTED_BY_RECEIVER', message: 'BR-16' }, mls, failedAt: '2026-11-25T10:00:05.000Z' }),
      ]),
    ).toEqual([
      { type: 'accepted', at: '2026-11-25T10:00:00.000Z', detail: { track: 'exchange', receiver: '0208:0843766574' } },
      { type: 'failed', at: '2026-11-25T10:00:05.000Z', detail: { track: 'exchange', code: 'PEPPOL.REJECTED_BY_RECEIVER', message: 'BR-16', mls } },
    ]);
  });

  it('a report refused with the authority\'s codes, then a Peppol copy scheduled after a report is not a second "accepted"', () => {
    const error = { code: '1102', message: 'NIF no identificado', details: [{ code: '1102', message: 'NIF' }] };
    const timeline = timelineOf([
      event('AuthorityReportRequested', { requestedAt: '2026-11-25T10:00:00.000Z' }),
      event('AuthorityReportAttempted', { attemptedAt: '2026-11-25T10:00:01.000Z' }),
      event('AuthorityReportAccepted', { final: false, receipt: { referenceNumber: 'R-1' }, nextPollAt: '2026-11-25T11:00:00.000Z', acceptedAt: '2026-11-25T10:00:02.000Z' }),
      event('AuthorityReportInvalidated', { error, invalidatedAt: '2026-11-25T10:00:03.000Z' }),
      event('DocumentSubmitted', { receiverParticipantId: null }),
    ]);
    expect(timeline.map((t) => [t.type, t.at])).toEqual([
      ['accepted', '2026-11-25T10:00:00.000Z'],
      ['submitted', '2026-11-25T10:00:02.000Z'],
      ['refused', '2026-11-25T10:00:03.000Z'],
      ['scheduled', at.toISOString()],
    ]);
    expect(timeline[1].detail).toEqual({ track: 'authority', reference: 'R-1' });
    expect(timeline[2].detail).toEqual({ track: 'authority', code: '1102', message: 'NIF no identificado', details: error.details });
  });

  it('the tracks of a row: the authority\'s state and reference, the exchange\'s, a copy not released yet', () => {
    const row = { direction: 'outgoing' as const, report_state: 'invalid', delivery_status: null, peppol_copy: true, receipt: { referenceNumber: 'R-1', ksefNumber: 'K-1' } };
    expect(authorityOf(row)).toEqual({ status: 'refused', reference: 'K-1' });
    expect(exchangeOf(row)).toEqual({ status: 'pending' });
    expect(exchangeOf({ ...row, peppol_copy: null })).toEqual({ status: 'none' });
    expect(exchangeOf({ ...row, delivery_status: 'Sent' })).toEqual({ status: 'sent' });
    expect(exchangeOf({ ...row, direction: 'incoming' })).toEqual({ status: 'received' });
    expect(authorityOf({ ...row, report_state: null, receipt: null })).toEqual({ status: 'none' });
  });
});
