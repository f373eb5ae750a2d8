import {
  AppError,
  DocumentSubmittedData,
  EventMetadata,
  Logger,
  MessageLevelStatus,
  RecordedEvent,
  deterministicUuid,
  documentDecider,
  documentStreamId,
} from '@einvoice/domain';
import { EventHandler, EventStore, UnitOfWork, handleCommand } from '@einvoice/domain/infrastructure';
import type { AccessPointConnector } from './access-point/access-point';

export interface DeliveryDependencies {
  readonly store: EventStore;
  readonly accessPoint: AccessPointConnector;
  /** Consumer group; the processed-event ledger is kept per group. */
  readonly groupId: string;
  readonly log: Logger;
}

interface HostedReceiver {
  supplier_id: string;
  tenant_id: string;
  area: string;
}

/**
 * Delivers submitted Peppol documents (DESIGN.md flow). The processed-event mark, the
 * receiver's DocumentReceived and the sender's DocumentDelivered commit in one transaction, so
 * a worker killed at any point redoes the whole step or none of it. A remote transmission that
 * happened before a crash is repeated with the same AS4 MessageId, which the receiving access
 * point de-duplicates: nothing is delivered twice.
 */
export function createDeliveryHandler(deps: DeliveryDependencies): EventHandler {
  return async (event) => {
    if (event.type !== 'DocumentSubmitted') return;
    const document = event.data as DocumentSubmittedData;
    if (document.transportMode !== 'peppol') return;
    await deps.store.transaction(async (uow) => {
      if (!(await uow.markProcessed(deps.groupId, event.eventId))) return;
      await deliver(uow, deps, event, document);
    });
  };
}

async function deliver(
  uow: UnitOfWork,
  deps: DeliveryDependencies,
  event: RecordedEvent,
  document: DocumentSubmittedData,
): Promise<void> {
  const receiver = document.receiverParticipantId;
  if (!receiver) {
    throw new AppError('validation', 'DOCUMENT.NO_RECEIVER', 'The document names no Peppol receiver.', { retriable: false });
  }
  const messageId = `${deterministicUuid(`as4:${document.documentId}`)}@einvoice-gateway`;
  const metadata: EventMetadata = { tenantId: document.tenantId, correlationId: event.metadata.correlationId, causationId: event.eventId };
  const [hosted] = await uow.query<HostedReceiver>(
    `SELECT p.supplier_id, p.tenant_id, s.area FROM supplier_participants p JOIN suppliers s ON s.id = p.supplier_id
     WHERE p.participant_id = $1`,
    [receiver],
  );
  let mls: MessageLevelStatus;
  let receivedDocumentId: string | undefined;
  if (hosted) {
    receivedDocumentId = deterministicUuid(`received:${document.documentId}`);
    await handleCommand(
      uow,
      documentDecider,
      documentStreamId(receivedDocumentId),
      {
        type: 'ReceiveDocument',
        data: {
          documentId: receivedDocumentId,
          tenantId: hosted.tenant_id,
          supplierId: hosted.supplier_id,
          area: hosted.area,
          documentNumber: document.documentNumber,
          documentType: document.documentType,
          senderParticipantId: document.senderParticipantId,
          receiverParticipantId: receiver,
          sourceDocumentId: document.documentId,
          messageId,
          fields: document.fields,
          xml: document.xml,
          receivedAt: new Date().toISOString(),
        },
      },
      { ...metadata, tenantId: hosted.tenant_id },
    );
    mls = { responseCode: 'AP', receivedAt: new Date().toISOString(), description: 'Delivered to a participant hosted here.' };
  } else {
    mls = await deps.accessPoint.send({
      messageId,
      senderParticipantId: document.senderParticipantId,
      receiverParticipantId: receiver,
      documentType: document.documentType,
      xml: document.xml,
    });
  }
  await handleCommand(
    uow,
    documentDecider,
    documentStreamId(document.documentId),
    {
      type: 'RecordDelivery',
      data: {
        documentId: document.documentId,
        receiverParticipantId: receiver,
        channel: hosted ? 'local' : 'remote',
        messageId,
        mls,
        receivedDocumentId,
        deliveredAt: new Date().toISOString(),
      },
    },
    metadata,
  );
  deps.log('info', 'document delivered', { documentId: document.documentId, channel: hosted ? 'local' : 'remote', messageId });
}
