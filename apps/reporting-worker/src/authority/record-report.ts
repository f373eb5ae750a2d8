import {
  type AuthorityReportCommand,
  type AuthorityReportRequestedData,
  type DocumentSubmittedData,
  type EventMetadata,
  type RecordedEvent,
  authorityReportDecider,
  authorityReportStreamId,
  documentDecider,
  documentStreamId,
} from '@einvoice/domain';
import { type UnitOfWork, handleCommand } from '@einvoice/domain/infrastructure';

/**
 * Records what the worker learnt about a report (an attempt, the authority's answer, a poll's
 * verdict) and, when that is the authority's acceptance for good of a document that asked for a
 * Peppol copy (`peppolCopy`, Poland `transport_mode: peppol`), releases the copy in the same
 * transaction: its `DocumentSubmitted`, which the delivery worker delivers as any Peppol document.
 * Exactly once: the acceptance is recorded once (the report's decider), and the copy's stream is
 * new (`newStream`), so a second release would fail the whole transaction.
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
  if (acceptedAt && request.peppolCopy) {
    await handleCommand(uow, documentDecider, documentStreamId(request.documentId), { type: 'SubmitDocument', data: peppolDocumentOf(request, acceptedAt) }, metadata, { newStream: true });
  }
  return recorded;
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
    fields: request.fields,
    xml: copy.xml,
    submittedAt: acceptedAt,
  };
}
