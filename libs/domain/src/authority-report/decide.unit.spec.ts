import { specification } from '../test/given-when-then';
import type { AuthorityReportCommand } from './commands';
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
  data: { reportId: 'r-1', answer: { kind: 'accepted', receipt: { number: 'A-1' }, recovered: false, at: 't' } },
};
const accepted: AuthorityReportEvent = {
  type: 'AuthorityReportAccepted',
  data: { reportId: 'r-1', documentId: 'd-1', receipt: { number: 'A-1' }, recovered: false, acceptedAt: 't' },
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

  it('records the answer once: a repeated answer (redelivery) decides nothing new', () => {
    given(attempted(1)).when(accept).then([accepted]);
    given(attempted(1), accepted).when(accept).then([]);
  });

  it('records a refusal with the authority\'s error', () => {
    given(attempted(1))
      .when({ type: 'RecordAuthorityAnswer', data: { reportId: 'r-1', answer: { kind: 'rejected', error: { code: 'E1', message: 'no' }, at: 't' } } })
      .then([{ type: 'AuthorityReportRejected', data: { reportId: 'r-1', documentId: 'd-1', error: { code: 'E1', message: 'no' }, rejectedAt: 't' } }]);
  });

  it('knows no answer or attempt for a report never requested', () => {
    spec.given([]).when(accept).thenThrows('AUTHORITY.REPORT_UNKNOWN');
  });

  it('keeps the first attempt time across attempts (recover asks the authority since then)', () => {
    const state = [attempted(1), attempted(2)].reduce(authorityReportDecider.evolve, authorityReportDecider.evolve(authorityReportDecider.initialState, { type: 'AuthorityReportRequested', data: requested }));
    expect(state).toEqual({ status: 'requested', documentId: 'd-1', attempts: 2, firstAttemptAt: '2026-11-24T00:00:01.000Z' });
  });
});
