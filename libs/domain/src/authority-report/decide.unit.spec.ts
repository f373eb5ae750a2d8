import { specification } from '../test/given-when-then';
import type { AuthorityReportCommand, PollVerdict } from './commands';
import { authorityReportDecider } from './decide';
import type { AuthorityReportEvent, AuthorityReportRequestedData } from './events';
import type { AuthorityReportState } from './evolve';

const requested: AuthorityReportRequestedData = {
  reportId: 'r-1',
  documentId: 'd-1',
  tenantId: 't-1',
  supplierId: 's-1',
  area: 'toy',
  ruleSetId: 'toy:invoice:1.0',
  documentNumber: 'INV-1',
  documentType: 'invoice',
  fields: { ID: 'INV-1' },
  document: { bytes: '{}', mediaType: 'application/json', sha256: 'ab' },
  payload: {},
  requestedAt: '2026-11-24T00:00:00.000Z',
};
const attempted = (attempt: number): AuthorityReportEvent => ({
  type: 'AuthorityReportAttempted',
  data: { reportId: 'r-1', attempt, attemptedAt: `2026-11-24T00:00:0${attempt}.000Z` },
});
const accept: AuthorityReportCommand = {
  type: 'RecordAuthorityAnswer',
  data: { reportId: 'r-1', answer: { kind: 'accepted', receipt: { number: 'A-1' }, recovered: false, final: true, at: 't' } },
};
const accepted: AuthorityReportEvent = {
  type: 'AuthorityReportAccepted',
  data: { reportId: 'r-1', documentId: 'd-1', receipt: { number: 'A-1' }, recovered: false, final: true, acceptedAt: 't' },
};
/** Taken for processing: the verdict comes from polls. */
const processing: AuthorityReportEvent = {
  type: 'AuthorityReportAccepted',
  data: { reportId: 'r-1', documentId: 'd-1', receipt: { number: 'A-1' }, recovered: false, final: false, nextPollAt: 'n0', acceptedAt: 't' },
};
const poll = (pollNo: number, verdict: PollVerdict, maxPolls = 3): AuthorityReportCommand => ({
  type: 'RecordReportPoll',
  data: { reportId: 'r-1', pollNo, maxPolls, verdict, polledAt: `p${pollNo}`, nextPollAt: `n${pollNo}` },
});
const polled = (pollNo: number, nextPollAt: string | null): AuthorityReportEvent => ({
  type: 'AuthorityReportPolled',
  data: { reportId: 'r-1', documentId: 'd-1', pollNo, polledAt: `p${pollNo}`, nextPollAt },
});
const cancel: AuthorityReportCommand = { type: 'RequestReportCancellation', data: { reportId: 'r-1', reason: 'Wrong buyer', requestedAt: 'c' } };
const cancellationRequested: AuthorityReportEvent = {
  type: 'AuthorityReportCancellationRequested',
  data: { reportId: 'r-1', documentId: 'd-1', reason: 'Wrong buyer', requestedAt: 'c' },
};

const spec = specification<AuthorityReportCommand, AuthorityReportEvent, AuthorityReportState>(authorityReportDecider);
const given = (...history: AuthorityReportEvent[]) => spec.given([{ type: 'AuthorityReportRequested', data: requested }, ...history]);

describe('#8 authority report decider', () => {
  it('given nothing, when RequestAuthorityReport, then AuthorityReportRequested; a second request is a conflict', () => {
    spec.given([]).when({ type: 'RequestAuthorityReport', data: requested }).then([{ type: 'AuthorityReportRequested', data: requested }]);
    given().when({ type: 'RequestAuthorityReport', data: requested }).thenThrows('AUTHORITY.REPORT_EXISTS');
  });

  it('records attempts while unanswered, and refuses one once answered (never sent again)', () => {
    given(attempted(1)).when({ type: 'RecordReportAttempt', data: { reportId: 'r-1', attempt: 2, attemptedAt: 'x' } }).then([
      { type: 'AuthorityReportAttempted', data: { reportId: 'r-1', attempt: 2, attemptedAt: 'x' } },
    ]);
    given(attempted(1), accepted).when({ type: 'RecordReportAttempt', data: { reportId: 'r-1', attempt: 2, attemptedAt: 'x' } }).thenThrows('AUTHORITY.REPORT_ANSWERED');
  });

  it('records a call turned away by the authority\'s rate limit once, for the attempt in flight; with every call turned away none is in doubt', () => {
    const error = { code: 'MYINVOIS.RATE_LIMITED', message: 'Too many requests' };
    const turnAway = (attempt: number): AuthorityReportCommand => ({ type: 'RecordAttemptTurnedAway', data: { reportId: 'r-1', attempt, error, turnedAwayAt: 'w' } });
    const turnedAway = (attempt: number): AuthorityReportEvent => ({ type: 'AuthorityReportAttemptTurnedAway', data: { reportId: 'r-1', attempt, error, turnedAwayAt: 'w', documentId: 'd-1' } });
    given(attempted(1)).when(turnAway(1)).then([turnedAway(1)]);
    given(attempted(1), turnedAway(1)).when(turnAway(1)).then([]);
    // A late word on an earlier attempt, or one after the answer, decides nothing.
    given(attempted(1), attempted(2)).when(turnAway(1)).then([]);
    given(attempted(1), accepted).when(turnAway(1)).then([]);
    spec.given([]).when(turnAway(1)).thenThrows('AUTHORITY.REPORT_UNKNOWN');

    const stateAfter = (...history: AuthorityReportEvent[]) =>
      [{ type: 'AuthorityReportRequested', data: requested } as AuthorityReportEvent, ...history].reduce(authorityReportDecider.evolve, authorityReportDecider.initialState);
    expect(stateAfter(attempted(1), turnedAway(1))).toMatchObject({ status: 'requested', attempts: 1, turnedAway: 1, firstAttemptAt: undefined });
    // The next call after one turned away is the first that may have reached the authority.
    expect(stateAfter(attempted(1), turnedAway(1), attempted(2))).toMatchObject({ attempts: 2, firstAttemptAt: '2026-11-24T00:00:02.000Z' });
    // A call whose answer was lost stays in doubt whatever became of the later ones.
    expect(stateAfter(attempted(1), attempted(2), turnedAway(2))).toMatchObject({ attempts: 2, turnedAway: 1, firstAttemptAt: '2026-11-24T00:00:01.000Z' });
  });

  it('records the answer once: a repeated answer (redelivery) decides nothing new', () => {
    given(attempted(1)).when(accept).then([accepted]);
    given(attempted(1), accepted).when(accept).then([]);
  });

  it('records a refusal with the authority\'s error', () => {
    given(attempted(1))
      .when({ type: 'RecordAuthorityAnswer', data: { reportId: 'r-1', answer: { kind: 'rejected', error: { code: 'E1', message: 'no' }, at: 't' } } })
      .then([{ type: 'AuthorityReportRejected', data: { reportId: 'r-1', documentId: 'd-1', error: { code: 'E1', message: 'no' }, rejectedAt: 't' } }]);
    // With what the authority said besides (MyInvois: the submission it refused it in).
    given(attempted(1))
      .when({ type: 'RecordAuthorityAnswer', data: { reportId: 'r-1', answer: { kind: 'rejected', error: { code: 'E1', message: 'no' }, receipt: { submissionUid: 'S-1' }, at: 't' } } })
      .then([{ type: 'AuthorityReportRejected', data: { reportId: 'r-1', documentId: 'd-1', error: { code: 'E1', message: 'no' }, rejectedAt: 't', receipt: { submissionUid: 'S-1' } } }]);
  });

  it('knows no answer or attempt for a report never requested', () => {
    spec.given([]).when(accept).thenThrows('AUTHORITY.REPORT_UNKNOWN');
  });

  it('keeps the first attempt time across attempts (recover asks the authority since then)', () => {
    const state = [attempted(1), attempted(2)].reduce(authorityReportDecider.evolve, authorityReportDecider.evolve(authorityReportDecider.initialState, { type: 'AuthorityReportRequested', data: requested }));
    expect(state).toEqual({ status: 'requested', documentId: 'd-1', attempts: 2, turnedAway: 0, firstAttemptAt: '2026-11-24T00:00:01.000Z' });
  });

  it('given an answer that is not final, when polled with no verdict, then Polled with the next poll; the last allowed poll asks for none', () => {
    given(attempted(1)).when({ ...accept, data: { reportId: 'r-1', answer: { kind: 'accepted', receipt: { number: 'A-1' }, recovered: false, final: false, nextPollAt: 'n0', at: 't' } } }).then([processing]);
    given(attempted(1), processing).when(poll(1, { kind: 'pending' })).then([polled(1, 'n1')]);
    given(attempted(1), processing, polled(1, 'n1'), polled(2, 'n2')).when(poll(3, { kind: 'pending' })).then([polled(3, null)]);
  });

  it('records the verdict of a poll once: valid with what the authority added, or invalid with its error', () => {
    given(processing, polled(1, 'n1')).when(poll(2, { kind: 'accepted', receipt: { longId: 'L' } })).then([
      { type: 'AuthorityReportValidated', data: { reportId: 'r-1', documentId: 'd-1', receipt: { longId: 'L' }, validatedAt: 'p2' } },
    ]);
    given(processing).when(poll(1, { kind: 'rejected', error: { code: 'E9', message: 'bad' } })).then([
      { type: 'AuthorityReportInvalidated', data: { reportId: 'r-1', documentId: 'd-1', error: { code: 'E9', message: 'bad' }, invalidatedAt: 'p1' } },
    ]);
    // A second poller's late answer, or a poll of a report with its verdict: nothing new.
    given(processing, polled(1, 'n1')).when(poll(1, { kind: 'accepted', receipt: {} })).then([]);
    given(accepted).when(poll(1, { kind: 'pending' })).then([]);
  });

  it('cancels an accepted document once at a time; a refusal leaves it accepted and cancellable again', () => {
    given(accepted).when(cancel).then([cancellationRequested]);
    given(accepted, cancellationRequested).when(cancel).thenThrows('AUTHORITY.NOT_CANCELLABLE');
    given(processing).when(cancel).thenThrows('AUTHORITY.NOT_CANCELLABLE');
    given(accepted, cancellationRequested).when({ type: 'RecordCancellationAnswer', data: { reportId: 'r-1', at: 'x' } }).then([
      { type: 'AuthorityReportCancelled', data: { reportId: 'r-1', documentId: 'd-1', cancelledAt: 'x' } },
    ]);
    const refusal = { code: 'E7', message: 'Too late' };
    const refused: AuthorityReportEvent = { type: 'AuthorityReportCancellationRefused', data: { reportId: 'r-1', documentId: 'd-1', error: refusal, refusedAt: 'x' } };
    given(accepted, cancellationRequested).when({ type: 'RecordCancellationAnswer', data: { reportId: 'r-1', refused: refusal, at: 'x' } }).then([refused]);
    given(accepted, cancellationRequested, refused).when(cancel).then([cancellationRequested]);
    // A redelivered answer finds no cancellation in flight.
    given(accepted, cancellationRequested, { type: 'AuthorityReportCancelled', data: { reportId: 'r-1', documentId: 'd-1', cancelledAt: 'x' } })
      .when({ type: 'RecordCancellationAnswer', data: { reportId: 'r-1', at: 'y' } }).then([]);
  });

  it('amends an accepted document once per request: one amendment in flight, its answer recorded once', () => {
    const change = { payment_status: 'PAID' };
    const request: AuthorityReportCommand = { type: 'RequestReportAmendment', data: { reportId: 'r-1', amendmentId: 'a-1', change, requestedAt: 'q' } };
    const requestedAmendment: AuthorityReportEvent = { type: 'AuthorityReportAmendmentRequested', data: { reportId: 'r-1', documentId: 'd-1', amendmentId: 'a-1', change, requestedAt: 'q' } };
    const answer: AuthorityReportCommand = { type: 'RecordAmendmentAnswer', data: { reportId: 'r-1', amendmentId: 'a-1', at: 'z' } };
    given(attempted(1), accepted).when(request).then([requestedAmendment]);
    given(attempted(1)).when(request).thenThrows('AUTHORITY.NOT_AMENDABLE');
    given(attempted(1), accepted, requestedAmendment).when({ ...request, data: { ...request.data, amendmentId: 'a-2' } }).thenThrows('AUTHORITY.NOT_AMENDABLE');
    given(attempted(1), accepted, requestedAmendment).when(answer).then([{ type: 'AuthorityReportAmended', data: { reportId: 'r-1', documentId: 'd-1', amendmentId: 'a-1', change, amendedAt: 'z' } }]);
    const amended: AuthorityReportEvent = { type: 'AuthorityReportAmended', data: { reportId: 'r-1', documentId: 'd-1', amendmentId: 'a-1', change, amendedAt: 'z' } };
    given(attempted(1), accepted, requestedAmendment, amended).when(answer).then([]);
    const refused = { code: 'FIRS.UPDATE_400', message: 'No.' };
    given(attempted(1), accepted, requestedAmendment).when({ ...answer, data: { ...answer.data, refused } }).then([
      { type: 'AuthorityReportAmendmentRefused', data: { reportId: 'r-1', documentId: 'd-1', amendmentId: 'a-1', error: refused, refusedAt: 'z' } },
    ]);
    given(attempted(1), accepted, requestedAmendment, amended).when({ ...request, data: { ...request.data, amendmentId: 'a-2' } }).then([{ ...requestedAmendment, data: { ...requestedAmendment.data, amendmentId: 'a-2' } } as AuthorityReportEvent]);
  });
});
