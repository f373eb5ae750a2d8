/**
 * MyInvois documents of the model before #8 carried onto the reporting pipeline: each document of a
 * `myinvois-<submissionId>` stream (the submission aggregate, gone since) becomes a report whose
 * commands replay what that stream recorded of it, so GET, raw, cancel and the Peppol copy work for
 * it as for a new one, and a document still in flight goes on: one never answered is sent by the
 * batch sweep (one attempted before is looked up at MyInvois first), one submitted is polled, a
 * cancellation in flight is made. Run once by `cli migrate` (ReportCarryOver).
 *
 * Where the earlier model had sent the document's PINT MY copy, the copy has a `documents` row of its
 * own (its reserved id): the report joins that row, as UAE's reports join their document's, so the
 * copy's delivery shows with it and its number is taken once. Such a document is then found by the
 * copy's id, MyInvois's uuid or its ID (its id of before answers 404).
 */
import {
  type AuthorityReportCommand,
  type AuthorityReportRequestedData,
  type PeppolCopyData,
  deterministicUuid,
} from '@einvoice/domain';
import type { ConnectorQuery } from '../../registry/area';
import type { CarriedReport, ReportCarryOver } from '../../registry/authority';
import type { AuthorityError as MyInvoisError, DocumentFormat } from '../connector/connector';
import { type MyInvoisReportPayload, type MyInvoisSubmissionKind, authorityErrorOf } from './report';

/** An event of a `myinvois-<submissionId>` stream as stored (types and shapes of before #8). */
export interface LegacyEvent {
  readonly type: string;
  readonly schemaVersion: number;
  readonly data: Record<string, unknown>;
}

/** A document of `MyInvoisDocumentsSubmitted` (schema 2; schema 1 named a copy sent at submission `peppolDocumentId`). */
interface LegacyDocument {
  readonly documentId: string;
  readonly invoiceCodeNumber: string;
  readonly format: DocumentFormat;
  readonly document: string;
  readonly documentHash: string;
  readonly peppolDocumentId?: string;
  readonly peppol?: {
    readonly documentId: string;
    readonly sentAtSubmission?: true;
    readonly documentType?: string;
    readonly senderParticipantId?: string;
    readonly receiverParticipantId?: string;
    readonly xml?: string;
    readonly fields?: Record<string, unknown>;
  };
}

interface LegacySubmitted {
  readonly submissionId: string;
  readonly tenantId: string;
  readonly supplierId: string;
  readonly kind: MyInvoisSubmissionKind;
  readonly documents: readonly LegacyDocument[];
  readonly submittedAt: string;
}

/** What the carry-over knows of the database: which documents rows exist and which already carry a report. */
export interface CarryOverContext {
  /** Ids of `documents` rows (a sent copy's reserved id among them). */
  readonly existingRows: ReadonlySet<string>;
  /** Ids of `documents` rows that already carry a report (carried before, or new). */
  readonly carried: ReadonlySet<string>;
  readonly ruleSetId: string;
  /** When a carried document still waiting for its verdict is polled first: now. */
  readonly now: Date;
}

/** One submission stream's documents as carried reports, in the submission's order. */
export function carriedReportsOf(events: readonly LegacyEvent[], context: CarryOverContext): CarriedReport[] {
  const submitted = events.find((e) => e.type === 'MyInvoisDocumentsSubmitted')?.data as LegacySubmitted | undefined;
  if (!submitted) return [];
  const tracks = submitted.documents.map((document) => trackOf(submitted, document, context));
  const byDocument = new Map(tracks.map((t) => [t.legacyId, t]));
  const byCode = new Map(tracks.map((t) => [t.request.documentNumber, t]));
  const answer = (track: Track | undefined, command: AuthorityReportCommand) => {
    if (!track) return;
    track.commands.push(command);
    if (command.type === 'RecordAuthorityAnswer') track.answered = true;
  };
  for (const { type, data } of events) {
    const d = data as Record<string, never>;
    const track = byDocument.get(d.documentId);
    switch (type) {
      case 'MyInvoisSubmissionAttempted':
        for (const code of d.codeNumbers as readonly string[]) {
          const attempted = byCode.get(code);
          if (attempted && !attempted.answered) {
            attempted.attempts += 1;
            attempted.commands.push({ type: 'RecordReportAttempt', data: { reportId: attempted.request.reportId, attempt: attempted.attempts, attemptedAt: d.attemptedAt } });
          }
        }
        break;
      case 'MyInvoisSubmissionAccepted': {
        const accepted = d.acceptedDocuments as ReadonlyArray<{ documentId: string; uuid: string; submissionUid?: string; recovered?: boolean }>;
        for (const doc of accepted) {
          const receipt = { uuid: doc.uuid, submissionUid: doc.submissionUid ?? (d.submissionUid as string), status: 'Submitted' };
          const nextPollAt = context.now.toISOString();
          answer(byDocument.get(doc.documentId), {
            type: 'RecordAuthorityAnswer',
            data: { reportId: reportIdOf(doc.documentId), answer: { kind: 'accepted', receipt, recovered: doc.recovered === true, final: false, nextPollAt, at: d.acceptedAt } },
          });
        }
        for (const doc of d.rejectedDocuments as ReadonlyArray<{ documentId: string; error: MyInvoisError }>) {
          answer(byDocument.get(doc.documentId), rejection(doc.documentId, doc.error, d.acceptedAt));
        }
        break;
      }
      case 'MyInvoisSubmissionRejected':
        for (const open of tracks.filter((t) => !t.answered)) answer(open, rejection(open.legacyId, d.error, d.rejectedAt));
        break;
      case 'MyInvoisDocumentValidated':
        answer(track, poll(d.documentId, d.validatedAt, { kind: 'accepted', receipt: { status: 'Valid', longId: d.longId } }));
        break;
      case 'MyInvoisDocumentInvalidated':
        answer(track, poll(d.documentId, d.invalidatedAt, { kind: 'rejected', error: { code: 'Invalid', message: (d.reason as string) || 'Invalid' } }));
        break;
      case 'MyInvoisDocumentCancellationRequested':
        answer(track, { type: 'RequestReportCancellation', data: { reportId: reportIdOf(d.documentId), reason: d.reason, requestedAt: d.requestedAt } });
        break;
      case 'MyInvoisDocumentCancelled':
        answer(track, { type: 'RecordCancellationAnswer', data: { reportId: reportIdOf(d.documentId), at: d.cancelledAt } });
        break;
      case 'MyInvoisDocumentCancellationRefused':
        answer(track, { type: 'RecordCancellationAnswer', data: { reportId: reportIdOf(d.documentId), refused: authorityErrorOf(d.error), at: d.refusedAt } });
        break;
      case 'MyInvoisDocumentRejectedByBuyer':
        answer(track, { type: 'RecordBuyerRejection', data: { reportId: reportIdOf(d.documentId), reason: d.reason, requestedAt: d.requestedAt } });
        break;
      case 'MyInvoisPeppolCopyWithheld':
        answer(track, { type: 'WithholdPeppolCopy', data: { reportId: reportIdOf(d.documentId), reason: authorityErrorOf(d.reason), withheldAt: d.withheldAt } });
        break;
      // Deferrals and polls without a verdict: the pipeline keeps its own (the first poll comes at once).
      default:
        break;
    }
  }
  return tracks.filter((t) => !context.carried.has(t.request.documentId)).map(({ request, commands }) => ({ request, commands }));
}

interface Track {
  /** The document's id in the earlier model (its events name it). */
  readonly legacyId: string;
  readonly request: AuthorityReportRequestedData;
  readonly commands: AuthorityReportCommand[];
  answered: boolean;
  attempts: number;
}

/** The same report id on every run: a second carry-over of a document meets its stream (and is skipped). */
function reportIdOf(legacyDocumentId: string): string {
  return deterministicUuid(`myinvois-carry-over/${legacyDocumentId}`);
}

function rejection(legacyDocumentId: string, error: MyInvoisError, at: string): AuthorityReportCommand {
  return { type: 'RecordAuthorityAnswer', data: { reportId: reportIdOf(legacyDocumentId), answer: { kind: 'rejected', error: authorityErrorOf(error), at } } };
}

function poll(legacyDocumentId: string, at: string, verdict: Extract<AuthorityReportCommand, { type: 'RecordReportPoll' }>['data']['verdict']): AuthorityReportCommand {
  return { type: 'RecordReportPoll', data: { reportId: reportIdOf(legacyDocumentId), pollNo: 1, maxPolls: 1, verdict, polledAt: at, nextPollAt: at } };
}

function trackOf(submitted: LegacySubmitted, document: LegacyDocument, context: CarryOverContext): Track {
  // Schema 1: a copy sent at submission, by its id only.
  const peppol = document.peppol ?? (document.peppolDocumentId ? { documentId: document.peppolDocumentId, sentAtSubmission: true as const } : undefined);
  const copySent = peppol !== undefined && context.existingRows.has(peppol.documentId);
  const payload: MyInvoisReportPayload = { submissionId: submitted.submissionId, kind: submitted.kind, format: document.format, invoiceCodeNumber: document.invoiceCodeNumber };
  const copy: PeppolCopyData | undefined =
    peppol?.xml && peppol.documentType && peppol.senderParticipantId && peppol.receiverParticipantId
      ? { documentType: peppol.documentType, senderParticipantId: peppol.senderParticipantId, receiverParticipantId: peppol.receiverParticipantId, xml: peppol.xml }
      : undefined;
  const request: AuthorityReportRequestedData = {
    reportId: reportIdOf(document.documentId),
    documentId: copySent ? peppol.documentId : document.documentId,
    tenantId: submitted.tenantId,
    supplierId: submitted.supplierId,
    area: 'my',
    ruleSetId: context.ruleSetId,
    documentNumber: document.invoiceCodeNumber,
    documentType: submitted.kind,
    fields: peppol?.fields ?? {},
    document: { bytes: document.document, mediaType: document.format === 'XML' ? 'application/xml' : 'application/json', sha256: document.documentHash },
    payload: { ...payload },
    requestedAt: submitted.submittedAt,
    batchKey: submitted.submissionId,
    ...(copy ? { peppolCopy: copy } : {}),
  };
  return { legacyId: document.documentId, request, commands: [], answered: false, attempts: 0 };
}

/** Submission streams read and carried together: a page's events are in memory at once (100 documents a stream at most). */
const STREAMS_PER_PAGE = 50;

/** Every submission stream of before #8 (not the buyers' rejections, `myinvois-rejection-*`), oldest first. */
async function legacyStreamIds(query: ConnectorQuery): Promise<string[]> {
  const rows = await query<{ stream_id: string }>(
    `SELECT stream_id FROM events
     WHERE stream_id LIKE 'myinvois-%' AND stream_id NOT LIKE 'myinvois-rejection-%' AND stream_position = 1
     ORDER BY global_position`,
  );
  return rows.map((r) => r.stream_id);
}

/** The events of these streams, each stream's in order, the streams in the order given. */
export async function legacyEvents(query: ConnectorQuery, streamIds: readonly string[]): Promise<LegacyEvent[][]> {
  const rows = await query<{ stream_id: string; type: string; schema_version: number; data: Record<string, unknown> }>(
    // One probe of the primary key per stream, as EventStore.readStreams (no sequential scan where events has no statistics).
    `SELECT e.stream_id, e.type, e.schema_version, e.data FROM unnest($1::text[]) AS s(id)
     CROSS JOIN LATERAL (SELECT * FROM events WHERE stream_id = s.id ORDER BY stream_position) AS e
     ORDER BY e.stream_id, e.stream_position`,
    [[...new Set(streamIds)]],
  );
  const streams = new Map<string, LegacyEvent[]>(streamIds.map((id) => [id, []]));
  for (const row of rows) streams.get(row.stream_id)?.push({ type: row.type, schemaVersion: Number(row.schema_version), data: row.data });
  return [...streams.values()];
}

/** The documents rows these streams name, their own and their copies' (reserved ids): which exist, which carry a report. */
async function rowsNamedBy(query: ConnectorQuery, streams: readonly LegacyEvent[][]): Promise<Array<{ id: string; carried: boolean }>> {
  const ids = streams.flatMap((events) => {
    const submitted = events.find((e) => e.type === 'MyInvoisDocumentsSubmitted')?.data as LegacySubmitted | undefined;
    return (submitted?.documents ?? []).flatMap((d) => [d.documentId, d.peppol?.documentId ?? d.peppolDocumentId].filter((id): id is string => Boolean(id)));
  });
  return query<{ id: string; carried: boolean }>(`SELECT id, report_id IS NOT NULL AS carried FROM documents WHERE id = ANY($1::uuid[])`, [ids]);
}

/** MyInvois's carry-over: its submission streams' documents, those not carried yet, oldest submission first, STREAMS_PER_PAGE streams a page. */
export function myInvoisCarryOver(ruleSetId: string): ReportCarryOver {
  return {
    name: 'myinvois:submissions-to-reports',
    // A cancellation asked for before the upgrade and not answered yet: the reporting worker still makes it.
    publish: ['AuthorityReportCancellationRequested'],
    async *reports(query, now) {
      const streamIds = await legacyStreamIds(query);
      for (let at = 0; at < streamIds.length; at += STREAMS_PER_PAGE) {
        const streams = await legacyEvents(query, streamIds.slice(at, at + STREAMS_PER_PAGE));
        const rows = await rowsNamedBy(query, streams);
        const context: CarryOverContext = {
          existingRows: new Set(rows.map((r) => r.id)),
          carried: new Set(rows.filter((r) => r.carried).map((r) => r.id)),
          ruleSetId,
          now,
        };
        yield streams.flatMap((events) => carriedReportsOf(events, context));
      }
    },
  };
}
