import { authorityReportDecider, authorityReportStreamId } from '../authority-report';
import { type DocumentReceivedData, documentDecider, documentStreamId } from '../document';
import type { EventMetadata } from '../events';
import { deterministicUuid } from '../ids';
import { handleCommand } from './eventstore/handle-command';
import type { UnitOfWork } from './eventstore/unit-of-work';

/** How an area reports what its suppliers receive (area registry `exchange.receivedReport`). */
export interface ReceivedReport {
  readonly ruleSetId: string;
  readonly payload: (received: { readonly receiverParticipantId: string; readonly senderParticipantId: string }) => Record<string, unknown>;
}

/**
 * Records a document received for a supplier hosted here, the one way whoever received it (the delivery
 * worker for a sender hosted here, the gateway's Peppol inbound route for another access point's, #46):
 * DocumentReceived on the receiver's new stream (webhooks and reads take it from there) and, when the
 * receiver's area reports what its suppliers receive (UAE's C3), the received copy's report, with the
 * hash of the document as received. Inside the caller's unit of work; a stream that exists already fails
 * the append (WrongExpectedVersionError): the document was recorded.
 */
export async function recordReceivedDocument(
  uow: UnitOfWork,
  received: DocumentReceivedData,
  metadata: EventMetadata,
  report?: { readonly area: ReceivedReport; readonly sha256: string },
): Promise<void> {
  await handleCommand(uow, documentDecider, documentStreamId(received.documentId), { type: 'ReceiveDocument', data: received }, metadata, { newStream: true });
  if (!report) return;
  const reportId = deterministicUuid(`received-report:${received.documentId}`);
  await handleCommand(uow, authorityReportDecider, authorityReportStreamId(reportId), {
    type: 'RequestAuthorityReport',
    data: {
      reportId,
      documentId: received.documentId,
      tenantId: received.tenantId,
      supplierId: received.supplierId,
      area: received.area,
      ruleSetId: report.area.ruleSetId,
      documentNumber: received.documentNumber,
      documentType: received.documentType,
      fields: received.fields,
      document: { bytes: received.xml, mediaType: 'application/xml', sha256: report.sha256 },
      payload: report.area.payload({ receiverParticipantId: received.receiverParticipantId, senderParticipantId: received.senderParticipantId }),
      requestedAt: received.receivedAt,
    },
  }, { ...metadata, ruleSetId: report.area.ruleSetId }, { newStream: true });
}
