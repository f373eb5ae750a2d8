import { conflict } from '../../errors';
import type { RecordedEvent } from '../../events';
import type { DocumentDeliveredData, DocumentDeliveryFailedData, DocumentEvent, DocumentReceivedData, DocumentSentData, DocumentSubmittedData } from '../../document';
import type { ParticipantEvent } from '../../participant';
import type { PeppolTransmissionEvent } from '../../transmission';
import type { ConstraintErrorMap, EventPlugin, EventProjector, ProjectionContext } from '../../plugin';
import type { SupplierDeactivatedData, SupplierEvent, SupplierOnboardedData, SupplierUpdatedData } from '../../supplier';
import { announceAccountEvents } from './account-events-channel';
import { participantConstraintErrors, projectParticipants } from './participants';
import { projectIncomingTransmission, projectOutgoingTransmission } from './peppol-transmissions';

/**
 * The platform's own read models (suppliers, documents, Peppol participants), updated in the same
 * transaction as the append, so a read after a write sees it. Each projector is idempotent on
 * replay from `events` (insert ... on conflict do nothing / versioned update). Areas bring their
 * own through the area registry (libs/areas/src/registry).
 */
const coreProjectors: Record<SupplierEvent['type'] | DocumentEvent['type'] | ParticipantEvent['type'] | PeppolTransmissionEvent['type'], EventProjector | null> = {
  SupplierOnboarded: (uow, event) => projectSupplierOnboarded(uow, event as RecordedEvent & { data: SupplierOnboardedData }),
  SupplierUpdated: (uow, event) => projectSupplierUpdated(uow, event as RecordedEvent & { data: SupplierUpdatedData }),
  SupplierDeactivated: (uow, event) => projectSupplierDeactivated(uow, event as RecordedEvent & { data: SupplierDeactivatedData }),
  DocumentSubmitted: (uow, event) => projectDocumentSubmitted(uow, event as RecordedEvent & { data: DocumentSubmittedData }),
  // The outcomes also record the exchange for Peppol Reporting (peppol-transmissions.ts): the AS4
  // receipt (DocumentSent) in live Peppol, the sandbox's answer or a hand-over (DocumentDelivered), an
  // MLS RE that came back at once (DocumentDeliveryFailed); one row per document whichever comes first.
  // Sent over AS4, its MLS to come (#46): `Sent`, with the receipt, until DocumentDelivered or DocumentDeliveryFailed replaces it.
  DocumentSent: deliveryOutcome((d: DocumentSentData) => ({
    documentId: d.documentId,
    state: 'sent',
    deliveryStatus: 'Sent',
    delivery: { channel: 'remote', messageId: d.messageId, receipt: d.receipt, receiverEndpoint: d.receiverEndpoint ?? null, receiverParticipantId: d.receiverParticipantId },
    at: d.sentAt,
  })),
  DocumentDelivered: deliveryOutcome((d: DocumentDeliveredData) => ({
    documentId: d.documentId,
    state: 'delivered',
    deliveryStatus: 'Delivered',
    delivery: { channel: d.channel, messageId: d.messageId, mls: d.mls, receiverParticipantId: d.receiverParticipantId, receivedDocumentId: d.receivedDocumentId ?? null },
    at: d.deliveredAt,
  })),
  DocumentDeliveryFailed: deliveryOutcome((d: DocumentDeliveryFailedData) => ({
    documentId: d.documentId,
    state: 'failed',
    deliveryStatus: 'Failed',
    delivery: { failure: d.reason, mls: d.mls ?? null, attempts: d.attempts ?? null, receiverParticipantId: d.receiverParticipantId },
    at: d.failedAt,
  })),
  DocumentReceived: async (uow, event) => {
    await projectDocumentReceived(uow, event as RecordedEvent & { data: DocumentReceivedData });
    await projectIncomingTransmission(uow, event);
  },
  ParticipantRegistered: projectParticipants,
  ParticipantKycRequested: projectParticipants,
  ParticipantKycCompleted: projectParticipants,
  SmlActivationRequested: projectParticipants,
  SmlActivated: projectParticipants,
  SmlDeactivationRequested: projectParticipants,
  SmlDeactivated: projectParticipants,
  // The access point's own messages (an MLS back to a sender): their stream is all there is (#46).
  PeppolTransmissionRequested: null,
  PeppolTransmissionSent: null,
  PeppolTransmissionFailed: null,
};

/** Read-model constraints that carry business rules, and the error each one means. */
const coreConstraintErrors: ConstraintErrorMap = {
  ...participantConstraintErrors,
  documents_supplier_number_key: () =>
    conflict('DOCUMENT.DUPLICATE_ID', 'A document with this ID was already submitted by this supplier.', [
      { path: 'ID', code: 'DOCUMENT.DUPLICATE_ID', message: 'ID is already used by another document of this supplier.', severity: 'error' },
    ]),
  supplier_participants_pkey: (detail) =>
    conflict(
      'PARTICIPANT.ALREADY_REGISTERED',
      `The Peppol participant ${/=\((.*)\)/.exec(detail ?? '')?.[1] ?? ''} is already registered with this access point; a receiver is registered in exactly one SMP.`,
      [{ path: 'identifiers', code: 'PARTICIPANT.ALREADY_REGISTERED', message: 'An identifier is already registered.', severity: 'error' }],
    ),
  idempotency_keys_pkey: () =>
    conflict('IDEMPOTENCY.IN_PROGRESS', 'A request with this Idempotency-Key is being processed; retry shortly.'),
};

async function projectSupplierOnboarded(uow: ProjectionContext, event: RecordedEvent & { data: SupplierOnboardedData }) {
  const d = event.data;
  await uow.query(
    `INSERT INTO suppliers (id, tenant_id, area, registered_name, profile, created_at, version)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
    [d.supplierId, d.tenantId, d.area, d.profile.registeredName, d.profile, d.onboardedAt, event.streamPosition],
  );
  for (const participantId of d.participantIds) {
    await uow.query(`INSERT INTO supplier_participants (participant_id, supplier_id, tenant_id) VALUES ($1, $2, $3)`, [
      participantId,
      d.supplierId,
      d.tenantId,
    ]);
  }
}

/**
 * Channel a supplier's change (SupplierUpdated, SupplierDeactivated; payload: its id) is announced on
 * once committed: every gateway drops the supplier from its caches (apps/gateway/src/suppliers/supplier-changes.ts),
 * so a deactivated supplier's next document is refused by whichever gateway takes it.
 */
export const SUPPLIER_CHANGED_CHANNEL = 'supplier_changed';

/** The profile as changed (#47): the whole profile, so the row is right whatever came before it. */
async function projectSupplierUpdated(uow: ProjectionContext, event: RecordedEvent & { data: SupplierUpdatedData }) {
  const d = event.data;
  await uow.query(
    `UPDATE suppliers SET registered_name = $2, profile = $3, updated_at = $4, version = $5 WHERE id = $1 AND version < $5`,
    [d.supplierId, d.profile.registeredName, d.profile, d.updatedAt, event.streamPosition],
  );
  uow.announce(SUPPLIER_CHANGED_CHANNEL, d.supplierId);
}

async function projectSupplierDeactivated(uow: ProjectionContext, event: RecordedEvent & { data: SupplierDeactivatedData }) {
  const d = event.data;
  await uow.query(`UPDATE suppliers SET status = 'inactive', updated_at = $2, version = $3 WHERE id = $1 AND version < $3`, [d.supplierId, d.deactivatedAt, event.streamPosition]);
  uow.announce(SUPPLIER_CHANGED_CHANNEL, d.supplierId);
}

async function projectDocumentSubmitted(uow: ProjectionContext, event: RecordedEvent & { data: DocumentSubmittedData }) {
  const d = event.data;
  // A reported document's Peppol copy, released once its authority accepted it (Poland), joins the
  // row its report made: the row gains the delivery track (`state` is the delivery's from then on,
  // the report keeps `report_state`); its fields and rendered file stay the report's. The UBL stays in
  // the event, written once (#11: it was half of the statement); `documentXml` reads it.
  await uow.write(
    `INSERT INTO documents (id, tenant_id, supplier_id, area, direction, document_number, document_type,
       state, delivery_status, fields, rule_set_id, created_at, updated_at, version, total)
     VALUES ($1, $2, $3, $4, 'outgoing', $5, $6, 'scheduled', 'Scheduled', $7, $8, $9, $9, $10, $11)
     ON CONFLICT (id) DO UPDATE SET state = 'scheduled', delivery_status = 'Scheduled', updated_at = EXCLUDED.updated_at, version = EXCLUDED.version
     WHERE documents.report_id IS NOT NULL AND documents.delivery_status IS NULL`,
    [d.documentId, d.tenantId, d.supplierId, d.area, d.documentNumber, d.documentType, d.fields, event.metadata.ruleSetId ?? null, d.submittedAt, event.streamPosition, d.total ?? null],
    // By its id: so concurrent submissions' units may share a statement (group commit, deferred-writes.ts).
    { row: `documents/${d.documentId}` },
  );
  announceAccountEvents(uow);
}

/** Where a delivery stands on its document's row, as one outcome event states it. */
interface DeliveryOutcome {
  readonly documentId: string;
  /** `state` is `delivery_status` in lower case (migration 1732200000016): both written, as the row's readers read either. */
  readonly state: 'sent' | 'delivered' | 'failed';
  readonly deliveryStatus: 'Sent' | 'Delivered' | 'Failed';
  /** The `delivery` column: what the outcome tells the document's reader (receipt, MLS, failure). */
  readonly delivery: Record<string, unknown>;
  readonly at: string;
}

/**
 * The projector of a delivery's outcome (DocumentSent, DocumentDelivered, DocumentDeliveryFailed): the
 * three write the same row the same way and differ only in what they write, so one statement serves
 * them. Versioned (`version < $6`): a replay, or an outcome older than the row, changes nothing. Then
 * the exchange for Peppol Reporting (peppol-transmissions.ts).
 */
function deliveryOutcome<D>(outcomeOf: (data: D) => DeliveryOutcome): EventProjector {
  return async (uow, event) => {
    const o = outcomeOf(event.data as D);
    await uow.write(
      `UPDATE documents SET state = $2, delivery_status = $3, delivery = $4, updated_at = $5, version = $6
       WHERE id = $1 AND version < $6`,
      [o.documentId, o.state, o.deliveryStatus, o.delivery, o.at, event.streamPosition],
      { row: `documents/${o.documentId}` },
    );
    announceAccountEvents(uow);
    await projectOutgoingTransmission(uow, event);
  };
}

async function projectDocumentReceived(uow: ProjectionContext, event: RecordedEvent & { data: DocumentReceivedData }) {
  const d = event.data;
  // A received document is, for its receiver, already delivered (webhook `Status` Delivered). Its UBL
  // stays in the event (`documentXml`).
  await uow.write(
    `INSERT INTO documents (id, tenant_id, supplier_id, area, direction, document_number, document_type,
       state, delivery_status, fields, source_document_id, created_at, updated_at, version)
     VALUES ($1, $2, $3, $4, 'incoming', $5, $6, 'received', 'Delivered', $7, $8, $9, $9, $10)
     ON CONFLICT (id) DO NOTHING`,
    [d.documentId, d.tenantId, d.supplierId, d.area, d.documentNumber, d.documentType, d.fields, d.sourceDocumentId, d.receivedAt, event.streamPosition],
    { row: `documents/${d.documentId}` },
  );
  announceAccountEvents(uow);
}

/** The platform's plug-in: its streams and read models (the first entry of every app's registry). */
export const corePlugin: EventPlugin = {
  name: 'core',
  streams: { document: 'documents', supplier: 'suppliers', participant: 'participants', transmission: 'documents' },
  // The webhook dispatcher's one event of the documents' streams (the delivery worker does not read it).
  eventTopics: { DocumentReceived: 'received' },
  projectors: coreProjectors,
  constraintErrors: coreConstraintErrors,
};
