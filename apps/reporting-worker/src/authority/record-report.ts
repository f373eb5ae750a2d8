import {
  type AuthorityErrorData,
  type AuthorityReportCommand,
  type AuthorityReportRequestedData,
  type DocumentSubmittedData,
  type EventMetadata,
  type RecordAttemptTurnedAway,
  type RecordedEvent,
  type WithholdPeppolCopy,
  authorityReportDecider,
  authorityReportStreamId,
  documentDecider,
  documentStreamId,
  isRateLimited,
  retryAfterMsOf,
} from '@einvoice/domain';
import { type EventStore, type UnitOfWork, handleCommand } from '@einvoice/domain/infrastructure';

/**
 * Records what the worker learnt about a report (an attempt, the authority's answer, a poll's
 * verdict) and, when that is the authority's acceptance for good of a document that asked for a
 * Peppol copy (`peppolCopy`, Poland and Malaysia `transport_mode: peppol`), releases the copy in the
 * same transaction: its `DocumentSubmitted`, which the delivery worker delivers as any Peppol document.
 * Exactly once: the acceptance is recorded once (the report's decider), and the copy's stream is
 * new (`newStream`), so a second release would fail the whole transaction.
 *
 * A number this supplier already sent over Peppol (an earlier document with it, accepted, its copy
 * sent, since cancelled: its number is free again at the authority, MyInvois takes it for the
 * replacement) withholds the copy instead (`WithholdPeppolCopy`): Peppol document ids are unique per
 * sender, and a buyer holds the first already.
 */
export async function recordReport(
  uow: UnitOfWork,
  request: AuthorityReportRequestedData,
  command: AuthorityReportCommand,
  metadata: EventMetadata,
  options: { readonly history?: readonly RecordedEvent[] } = {},
): Promise<RecordedEvent[]> {
  const recorded = await handleCommand(uow, authorityReportDecider, authorityReportStreamId(request.reportId), command, metadata, options);
  const acceptedAt = acceptanceOf(recorded);
  if (!acceptedAt || !request.peppolCopy) return recorded;
  if (await numberSentOverPeppol(uow, request)) {
    const reason = idAlreadySent(request.documentNumber);
    const withheld: WithholdPeppolCopy = { type: 'WithholdPeppolCopy', data: { reportId: request.reportId, reason, withheldAt: acceptedAt } };
    return [...recorded, ...(await handleCommand(uow, authorityReportDecider, authorityReportStreamId(request.reportId), withheld, metadata))];
  }
  const copy = { type: 'SubmitDocument' as const, data: peppolDocumentOf(request, acceptedAt) };
  await handleCommand(uow, documentDecider, documentStreamId(request.documentId), copy, metadata, { newStream: true });
  return recorded;
}

/** Whether another outgoing document of the supplier with this number has a Peppol track (its copy, or a Peppol document). */
async function numberSentOverPeppol(uow: UnitOfWork, request: AuthorityReportRequestedData): Promise<boolean> {
  const rows = await uow.query(
    `SELECT 1 FROM documents
     WHERE supplier_id = $1 AND document_number = $2 AND direction = 'outgoing' AND delivery_status IS NOT NULL AND id <> $3 LIMIT 1`,
    [request.supplierId, request.documentNumber, request.documentId],
  );
  return rows.length > 0;
}

/** Why the copy is not sent, in the service's own code (as MyInvois's copies were withheld before #8). */
function idAlreadySent(documentNumber: string): AuthorityErrorData {
  return {
    code: 'PEPPOL.WITHHELD_ID_ALREADY_SENT',
    message:
      `A document with ID ${documentNumber} of this supplier already went over Peppol ` +
      '(Peppol document IDs are unique per supplier); this copy is not sent.',
  };
}

/** When the authority accepted the document for good in these events (a final answer or a poll's verdict). */
function acceptanceOf(recorded: readonly RecordedEvent[]): string | undefined {
  for (const event of recorded) {
    const data = event.data as { final?: boolean; acceptedAt?: string; validatedAt?: string };
    if (event.type === 'AuthorityReportAccepted' && data.final) return data.acceptedAt;
    if (event.type === 'AuthorityReportValidated') return data.validatedAt;
  }
  return undefined;
}

/** The copy's `DocumentSubmitted`: the reported document's id, number and fields, the copy's UBL and participants. */
function peppolDocumentOf(request: AuthorityReportRequestedData, acceptedAt: string): DocumentSubmittedData {
  const copy = request.peppolCopy!;
  return {
    documentId: request.documentId,
    tenantId: request.tenantId,
    supplierId: request.supplierId,
    area: request.area,
    documentNumber: request.documentNumber,
    documentType: copy.documentType,
    transportMode: 'peppol',
    senderParticipantId: copy.senderParticipantId,
    receiverParticipantId: copy.receiverParticipantId,
    countryC1: copy.countryC1,
    fields: request.fields,
    xml: copy.xml,
    submittedAt: acceptedAt,
  };
}

/** A call's attempt on one report: its request, the attempt's number, and the stream as it stands (if read). */
export interface AttemptMade {
  readonly request: AuthorityReportRequestedData;
  readonly attempt: number;
  readonly metadata: EventMetadata;
  readonly history?: readonly RecordedEvent[];
}

/**
 * When the call failed on the authority's rate limit (a 429: nothing was taken), records each attempt
 * as turned away, with the wait the authority asked for, in one transaction, so the next call is sent
 * without `recover` and not before that wait (the documents row's `resend_at`, the issuer's call window:
 * its limit's); with `processed`, the
 * consumed event is marked handled in the same transaction (the resend sweep sends it again, not the
 * consumer). Any other error leaves the attempts in doubt. True when it was a rate limit.
 */
export async function recordIfTurnedAway(
  store: Pick<EventStore, 'transaction'>,
  error: unknown,
  attempts: readonly AttemptMade[],
  processed?: { readonly groupId: string; readonly eventId: string },
): Promise<boolean> {
  if (!isRateLimited(error)) return false;
  const turnedAwayAt = new Date().toISOString();
  const retryAfterMs = retryAfterMsOf(error) || undefined;
  await store.transaction(async (uow) => {
    for (const { request, attempt, metadata, history } of attempts) {
      const command: RecordAttemptTurnedAway = {
        type: 'RecordAttemptTurnedAway',
        data: { reportId: request.reportId, attempt, error: { code: error.code, message: error.message }, turnedAwayAt, ...(retryAfterMs ? { retryAfterMs } : {}) },
      };
      await recordReport(uow, request, command, metadata, { history });
    }
    // The limit is the issuer's: none of its turned-away reports is sent again before the wait is over.
    const issuers = new Map(attempts.map(({ request }) => [`${request.area}:${request.supplierId}`, request]));
    if (retryAfterMs) for (const request of issuers.values()) await closeCallWindow(uow, request.area, request.supplierId, retryAfterMs);
    if (processed) await uow.markProcessed(processed.groupId, processed.eventId);
  });
  return true;
}

/**
 * The issuer's next call waits `ms` (the wait the authority stated, or a 429's Retry-After): recorded
 * for every worker of the stack, so none calls before, and an operator sees why its reports wait.
 */
export async function closeCallWindow(db: { query(sql: string, parameters?: unknown[]): Promise<unknown> }, area: string, supplierId: string, ms: number): Promise<void> {
  await db.query(
    `INSERT INTO authority_call_windows (area, supplier_id, next_call_at) VALUES ($1, $2, now() + make_interval(secs => $3::float8 / 1000))
     ON CONFLICT (area, supplier_id) DO UPDATE SET next_call_at = EXCLUDED.next_call_at`,
    [area, supplierId, ms],
  );
}
