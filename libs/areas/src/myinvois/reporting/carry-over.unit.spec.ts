import { randomUUID } from 'node:crypto';
import { authorityReportDecider, foldEvents } from '@einvoice/domain';
import { type CarryOverContext, type LegacyEvent, carriedReportsOf } from './carry-over';

const now = new Date('2026-11-27T10:00:00.000Z');
const at = (s: number) => new Date(Date.parse('2026-11-20T08:00:00.000Z') + s * 1000).toISOString();
const context = (over: Partial<CarryOverContext> = {}): CarryOverContext => ({ existingRows: new Set(), carried: new Set(), ruleSetId: 'myinvois:document:1.1', now, ...over });

function legacyDocument(code: string, peppol?: Record<string, unknown>) {
  return { documentId: randomUUID(), invoiceCodeNumber: code, format: 'JSON', document: `{"ID":"${code}"}`, documentHash: `hash-${code}`, ...(peppol ? { peppol } : {}) };
}

const event = (type: string, data: Record<string, unknown>, schemaVersion = 1): LegacyEvent => ({ type, schemaVersion, data });

/** The states a carried report's commands lead to, folded as the store would (each command decided on the state before). */
function replay(report: ReturnType<typeof carriedReportsOf>[number]) {
  let state = foldEvents(authorityReportDecider, [] as never);
  const types: string[] = [];
  for (const command of [{ type: 'RequestAuthorityReport' as const, data: report.request }, ...report.commands]) {
    const events = authorityReportDecider.decide(command, state);
    types.push(...events.map((e) => e.type));
    state = events.reduce((s, e) => authorityReportDecider.evolve(s, e as never), state);
  }
  return { state, types };
}

describe('MyInvois carry-over (documents of before #8 as reports)', () => {
  const submissionId = randomUUID();
  const tenantId = randomUUID();
  const supplierId = randomUUID();
  const copyXml = { documentType: '380', senderParticipantId: 'iso6523-actorid-upis::0230:C1', receiverParticipantId: 'iso6523-actorid-upis::0230:C2', xml: '<Invoice/>', fields: { ID: 'D' } };
  const valid = legacyDocument('A');
  const invalid = legacyDocument('B');
  const refused = legacyDocument('C');
  const waiting = legacyDocument('D', { documentId: randomUUID(), ...copyXml });
  const sentCopy = legacyDocument('E', { documentId: randomUUID(), ...copyXml, fields: { ID: 'E' } });
  const attempted = legacyDocument('F');
  const documents = [valid, invalid, refused, waiting, sentCopy, attempted];
  const uuid = (code: string) => `UUID-${code}`;
  const stream: LegacyEvent[] = [
    event('MyInvoisDocumentsSubmitted', { submissionId, tenantId, supplierId, kind: 'invoice', documents, submittedAt: at(0) }, 2),
    event('MyInvoisSubmissionAttempted', { submissionId, attempt: 1, attemptedAt: at(1), codeNumbers: ['A', 'B', 'C', 'D', 'E', 'F'] }),
    event('MyInvoisSubmissionAccepted', {
      submissionId,
      submissionUid: 'SUB-1',
      acceptedDocuments: [valid, invalid, waiting, sentCopy].map((d) => ({ documentId: d.documentId, uuid: uuid(d.invoiceCodeNumber), invoiceCodeNumber: d.invoiceCodeNumber })),
      rejectedDocuments: [{ documentId: refused.documentId, invoiceCodeNumber: 'C', error: { code: 'DS302', message: 'Duplicate', target: 'C', propertyPath: null, details: null } }],
      acceptedAt: at(2),
    }),
    event('MyInvoisSubmissionPolled', { submissionId, pollNo: 1, polledAt: at(3), nextPollAt: at(6) }),
    event('MyInvoisDocumentValidated', { submissionId, documentId: valid.documentId, uuid: uuid('A'), longId: 'LONG-A', validatedAt: at(6) }),
    event('MyInvoisDocumentInvalidated', { submissionId, documentId: invalid.documentId, uuid: uuid('B'), reason: 'Bad TIN', invalidatedAt: at(6) }),
    event('MyInvoisDocumentValidated', { submissionId, documentId: sentCopy.documentId, uuid: uuid('E'), longId: 'LONG-E', validatedAt: at(6) }),
    event('MyInvoisDocumentCancellationRequested', { submissionId, documentId: sentCopy.documentId, uuid: uuid('E'), reason: 'Wrong buyer', requestedAt: at(10) }),
  ];
  const copyId = (sentCopy.peppol as { documentId: string }).documentId;
  const reports = carriedReportsOf(stream, context({ existingRows: new Set([copyId]) }));
  const byNumber = (code: string) => reports.find((r) => r.request.documentNumber === code)!;

  it('carries every document of the submission, in its order, as a report with its batch key, payload and exact bytes', () => {
    expect(reports.map((r) => r.request.documentNumber)).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    expect(byNumber('A').request).toMatchObject({
      documentId: valid.documentId,
      tenantId,
      supplierId,
      area: 'my',
      documentType: 'invoice',
      batchKey: submissionId,
      requestedAt: at(0),
      payload: { submissionId, kind: 'invoice', format: 'JSON', invoiceCodeNumber: 'A' },
      document: { bytes: '{"ID":"A"}', mediaType: 'application/json', sha256: 'hash-A' },
    });
    // The same report ids on every run: a second carry-over meets the streams of the first.
    expect(carriedReportsOf(stream, context({ existingRows: new Set([copyId]) })).map((r) => r.request.reportId)).toEqual(reports.map((r) => r.request.reportId));
  });

  it('replays each document to where the earlier model left it', () => {
    expect(replay(byNumber('A'))).toMatchObject({ state: { status: 'accepted' }, types: ['AuthorityReportRequested', 'AuthorityReportAttempted', 'AuthorityReportAccepted', 'AuthorityReportValidated'] });
    expect(byNumber('A').commands.at(-1)).toMatchObject({ data: { verdict: { kind: 'accepted', receipt: { status: 'Valid', longId: 'LONG-A' } }, polledAt: at(6) } });
    expect(replay(byNumber('B')).types.at(-1)).toBe('AuthorityReportInvalidated');
    expect(byNumber('B').commands.at(-1)).toMatchObject({ data: { verdict: { kind: 'rejected', error: { code: 'Invalid', message: 'Bad TIN' } } } });
    expect(byNumber('C').commands.at(-1)).toMatchObject({ data: { answer: { kind: 'rejected', error: { code: 'DS302', message: 'Duplicate', target: 'C' } } } });
    // Still waiting for its verdict: polled at once by the pipeline, its copy released when valid.
    expect(replay(byNumber('D')).state).toMatchObject({ status: 'processing' });
    expect(byNumber('D').commands.at(-1)).toMatchObject({ data: { answer: { kind: 'accepted', final: false, nextPollAt: now.toISOString(), receipt: { uuid: 'UUID-D', submissionUid: 'SUB-1' } } } });
    expect(byNumber('D').request).toMatchObject({ documentId: waiting.documentId, peppolCopy: { xml: '<Invoice/>' }, fields: { ID: 'D' } });
    // A cancellation in flight goes on; its copy went over Peppol already: the report joins the copy's row.
    expect(replay(byNumber('E')).state).toMatchObject({ status: 'accepted', cancelling: true });
    expect(byNumber('E').request.documentId).toBe(copyId);
    // Attempted, never answered: the attempt marker (the batch sweep recovers it at MyInvois first).
    expect(replay(byNumber('F'))).toMatchObject({ state: { status: 'requested', attempts: 1 }, types: ['AuthorityReportRequested', 'AuthorityReportAttempted'] });
  });

  it('leaves out documents carried already, and refuses a whole rejected submission document by document', () => {
    const carried = new Set([valid.documentId, copyId]);
    expect(carriedReportsOf(stream, context({ existingRows: new Set([copyId]), carried })).map((r) => r.request.documentNumber)).toEqual(['B', 'C', 'D', 'F']);

    const other = [legacyDocument('G'), legacyDocument('H')];
    const rejectedWhole = carriedReportsOf(
      [
        event('MyInvoisDocumentsSubmitted', { submissionId: randomUUID(), tenantId, supplierId, kind: 'consolidated', documents: other, submittedAt: at(0) }),
        event('MyInvoisSubmissionRejected', { submissionId, error: { code: 'BadStructure', message: 'No' }, rejectedAt: at(1) }),
      ],
      context(),
    );
    expect(rejectedWhole.map((r) => replay(r).types.at(-1))).toEqual(['AuthorityReportRejected', 'AuthorityReportRejected']);
  });

  it('reads a copy sent at submission (schema 1: peppolDocumentId) as a sent copy', () => {
    const old = { ...legacyDocument('S1'), peppolDocumentId: randomUUID() };
    const [report] = carriedReportsOf(
      [event('MyInvoisDocumentsSubmitted', { submissionId: randomUUID(), tenantId, supplierId, kind: 'invoice', documents: [old], submittedAt: at(0) }, 1)],
      context({ existingRows: new Set([old.peppolDocumentId]) }),
    );
    expect(report.request.documentId).toBe(old.peppolDocumentId);
    expect(report.request.peppolCopy).toBeUndefined();
  });
});
