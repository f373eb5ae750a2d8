import { createHash } from 'node:crypto';
import {
  AppError,
  type As4Receipt,
  type DeliveryFailureReason,
  DocumentSubmittedData,
  EventMetadata,
  Logger,
  MessageLevelStatus,
  type PeppolExchangeFacts,
  RecordedEvent,
  as4MessageId,
  deterministicUuid,
  documentDecider,
  documentStreamId,
  rejectionOf,
  sbdhInstanceIdentifier,
} from '@einvoice/domain';
import {
  EventHandler,
  EventStore,
  type ReceivedReport,
  SpanKind,
  TickBatch,
  UnitOfWork,
  handleCommand,
  inSpan,
  loadDocumentAttachments,
  recordReceivedDocument,
  transactionOnce,
} from '@einvoice/domain/infrastructure';
import { hasDetached, peppolReporting, reattachEmbedded, receivedSenderOf } from '@einvoice/areas';
import type { AccessPointConnector, TransmissionAnswer } from './access-point/access-point';

export interface DeliveryDependencies {
  readonly store: EventStore;
  readonly accessPoint: AccessPointConnector;
  /** Consumer group; the processed-event ledger is kept per group. */
  readonly groupId: string;
  readonly log: Logger;
  /**
   * Areas whose authority also hears of received documents (area registry
   * `exchange.receivedReport`), by area code: a delivery to a supplier hosted here in one of
   * them requests the received copy's report in the same transaction.
   */
  readonly receivedReports?: ReadonlyMap<string, ReceivedReport>;
}


interface HostedReceiver {
  supplier_id: string;
  tenant_id: string;
  area: string;
  /** The receiving supplier's country: C4's, for Peppol Reporting. */
  country: string | null;
}

/**
 * Delivers submitted Peppol documents (DESIGN.md flow). A remote transmission runs with no
 * transaction open; then the processed-event mark and the outcome (the receiver's DocumentReceived
 * and the sender's DocumentDelivered for a receiver hosted here; DocumentDelivered, or
 * DocumentDeliveryFailed for a negative Message Level Status or a final error; DocumentSent for the AS4
 * receipt of live Peppol, whose MLS comes back later through the gateway's inbound route) commit in one
 * transaction, so a worker killed at any point redoes the step or none of it. No attempt marker is
 * needed before the call: a transmission repeated after a crash carries the same AS4 MessageId,
 * which the receiving access point de-duplicates, so nothing is delivered twice. A retriable error
 * goes back to the consumer (retries, then the dead-letter topic, which dead-lettered-delivery.ts
 * turns into a visible failure).
 */
export function createDeliveryHandler(deps: DeliveryDependencies): EventHandler {
  const firstLooks = firstLooksOf(deps);
  return async (event, ctx) => {
    if (event.type !== 'DocumentSubmitted') return;
    const document = event.data as DocumentSubmittedData;
    if (document.transportMode !== 'peppol') return;
    const messageId = as4MessageId(document.documentId);
    const receiver = document.receiverParticipantId;
    const found = await firstLooks.ask({ eventId: event.eventId, receiver });
    if (found.processed) return;
    const hosted = found.supplier_id ? (found as HostedReceiver) : undefined;
    const envelope = receiver ? envelopeFor(document, receiver) : undefined;
    const outcome: Outcome = !receiver || !envelope
      ? { failure: receiver ? NOT_A_PEPPOL_DOCUMENT : { code: 'DOCUMENT.NO_RECEIVER', message: 'The document names no Peppol receiver.' } }
      : hosted
        ? await handOver(deps, document, hosted)
        : await transmit(deps, document, envelope, messageId);
    // The outcome and the processed mark: one statement (UnitOfWork), or nothing; another delivery of
    // the same event (a rebalance) that recorded it first leaves nothing to do.
    await transactionOnce(deps.store, deps.groupId, event.eventId, (uow) =>
      // First try: the sender's stream is the event in hand (a submitted document's only event
      // until it is delivered); a stream with more fails the append, and the retry reads it.
      record(uow, deps, event, document, messageId, envelope, outcome, (ctx?.attempt ?? 1) === 1 && event.streamPosition === 1 ? [event] : undefined),
    );
  };
}

type FirstLook = Partial<HostedReceiver> & { processed: boolean };

/**
 * Both questions asked of an event first, in one round trip: was it handled already (a redelivered
 * event transmits nothing again), and is its receiver a participant hosted here? The events handled at
 * the same moment (a fetched batch's) ask together, one query for all (TickBatch).
 */
function firstLooksOf(deps: DeliveryDependencies): TickBatch<{ eventId: string; receiver: string | null | undefined }, FirstLook> {
  return new TickBatch(async (questions) => {
    // One row per question (participant_id is the key), in the questions' order. The processed mark is
    // looked up per question (LATERAL … LIMIT 1: one index probe each), never by hashing the group's
    // marks: as an EXISTS subquery the planner, whose estimate of one group's rows goes stale as the
    // table grows (no ANALYZE where autovacuum is off), chose a hashed subplan reading every processed
    // event of the group (12–20 ms at 5,000–9,000 rows; auto_explain, issue 11). Planned each time,
    // not prepared: a generic plan made while the table was empty would keep a scan of it.
    return deps.store.read<FirstLook>(
      `SELECT coalesce(m.processed, false) AS processed, p.supplier_id, p.tenant_id, s.area, s.profile->>'country' AS country
       FROM unnest($2::uuid[], $3::text[]) WITH ORDINALITY AS x (event_id, receiver, i)
       LEFT JOIN LATERAL (SELECT true AS processed FROM processed_events e WHERE e.consumer_group = $1 AND e.event_id = x.event_id LIMIT 1) m ON true
       LEFT JOIN (supplier_participants p JOIN suppliers s ON s.id = p.supplier_id) ON p.participant_id = x.receiver
       ORDER BY x.i`,
      [deps.groupId, questions.map((q) => q.eventId), questions.map((q) => q.receiver ?? null)],
      { prepare: false },
    );
  });
}

/**
 * What a delivery came to. Handed over to a supplier hosted here whose area reports received documents:
 * with the hash of the document as received, read before the outcome's transaction (its detached
 * attachments come from the pool, which a unit that had begun its transaction would wait on while
 * holding a connection of it).
 */
type Outcome =
  | { readonly hosted: HostedReceiver; readonly receivedSha256?: string }
  | { readonly mls: MessageLevelStatus; readonly transport: Transport }
  | { readonly sent: { readonly receipt: As4Receipt; readonly receiverEndpoint?: string }; readonly transport: Transport }
  | { readonly failure: DeliveryFailureReason; readonly mls?: MessageLevelStatus; readonly transport?: Transport };

type Transport = TransmissionAnswer['transport'];

/** The envelope of a document (SBDH: document type, process, C1's country), and what Peppol Reporting records of it. */
type Envelope = Omit<PeppolExchangeFacts, 'countryC4' | 'transport'>;

const NOT_A_PEPPOL_DOCUMENT: DeliveryFailureReason = {
  code: 'PEPPOL.NOT_A_PEPPOL_DOCUMENT',
  message: 'The document names no CustomizationID or ProfileID: it has no Peppol document type or process to be sent under.',
};

/**
 * The envelope a document travels in, read from it (peppolReporting.peppolDocumentIds: a scan of the
 * text, asked of every document; UBL, and the TSR and EUSR themselves). C1's country is the one its
 * submission decided (the supplier's); a document submitted before that was recorded (#46) falls back
 * on its seller's country, else `ZZ` (Peppol Reporting's "not stated").
 */
function envelopeFor(document: DocumentSubmittedData, receiver: string): Envelope | undefined {
  const ids = peppolReporting.peppolDocumentIds(document.xml);
  if (!ids) return undefined;
  const countryC1 = document.countryC1 ?? peppolReporting.sellerCountryOf(document.xml) ?? 'ZZ';
  return { ...ids, countryC1, senderParticipantId: document.senderParticipantId, receiverParticipantId: receiver };
}

/** A delivery to a supplier hosted here: nothing to send; the hash its received report needs, if any. */
async function handOver(deps: DeliveryDependencies, document: DocumentSubmittedData, hosted: HostedReceiver): Promise<Outcome> {
  if (!deps.receivedReports?.has(hosted.area)) return { hosted };
  // The hash of the document as received (attachments in), as the sender's report hashes it.
  return { hosted, receivedSha256: createHash('sha256').update(await wholeDocument(deps, document)).digest('hex') };
}

/** Sends to the receiver's access point, outside any transaction; a final refusal is a failure, a retriable error is thrown. */
async function transmit(deps: DeliveryDependencies, document: DocumentSubmittedData, envelope: Envelope, messageId: string): Promise<Outcome> {
  const receiver = envelope.receiverParticipantId;
  let answer: TransmissionAnswer;
  try {
    const xml = await wholeDocument(deps, document);
    answer = await inSpan('peppol send', { kind: SpanKind.CLIENT, attributes: { 'einvoice.peppol.receiver': receiver, 'einvoice.peppol.message_id': messageId } }, () =>
      deps.accessPoint.send({
        messageId,
        instanceIdentifier: sbdhInstanceIdentifier(document.documentId),
        senderParticipantId: document.senderParticipantId,
        receiverParticipantId: receiver,
        documentType: document.documentType,
        documentTypeId: envelope.documentTypeId,
        processId: envelope.processId,
        countryC1: envelope.countryC1,
        xml,
      }));
  } catch (error) {
    if (!(error instanceof AppError) || error.retriable) throw error;
    return { failure: { code: error.code, message: error.message } };
  }
  // Live Peppol: the AS4 receipt now, the MLS later (the gateway's inbound route records it).
  if ('receipt' in answer) return { sent: { receipt: answer.receipt, receiverEndpoint: answer.receiverEndpoint }, transport: answer.transport };
  // Peppol MLS: AP (accepted) and AB (accepted with warnings) are positive; RE is a rejection, of a
  // message that did cross the network (Peppol Reporting counts it: `transport`).
  const { mls, transport } = answer;
  return mls.responseCode === 'RE' ? { failure: rejectionOf(mls), mls, transport } : { mls, transport };
}

/** The document as sent over the network: attachments detached from the event put back (libs/areas/src/ubl/attachments.ts). */
async function wholeDocument(deps: DeliveryDependencies, document: DocumentSubmittedData): Promise<string> {
  if (!hasDetached(document.xml)) return document.xml;
  return reattachEmbedded(document.xml, await loadDocumentAttachments((sql, parameters) => deps.store.dataSource.query(sql, parameters), document.documentId));
}

async function record(
  uow: UnitOfWork,
  deps: DeliveryDependencies,
  event: RecordedEvent,
  document: DocumentSubmittedData,
  messageId: string,
  envelope: Envelope | undefined,
  outcome: Outcome,
  history: readonly RecordedEvent[] | undefined,
): Promise<void> {
  const receiver = document.receiverParticipantId;
  const metadata: EventMetadata = { tenantId: document.tenantId, correlationId: event.metadata.correlationId, causationId: event.eventId, ruleSetId: event.metadata.ruleSetId };
  const stream = documentStreamId(document.documentId);
  if ('failure' in outcome) {
    await handleCommand(uow, documentDecider, stream, {
      type: 'RecordDeliveryFailure',
      data: {
        documentId: document.documentId,
        receiverParticipantId: receiver,
        reason: outcome.failure,
        mls: outcome.mls,
        // Crossed the network before it was refused: an exchange Peppol Reporting counts.
        peppol: envelope && outcome.transport ? { ...envelope, transport: outcome.transport } : undefined,
        failedAt: new Date().toISOString(),
      },
    }, metadata, { history });
    deps.log('warn', 'document not delivered', { documentId: document.documentId, code: outcome.failure.code });
    return;
  }
  if ('sent' in outcome) {
    await handleCommand(uow, documentDecider, stream, {
      type: 'RecordTransmission',
      data: {
        documentId: document.documentId,
        receiverParticipantId: receiver as string,
        messageId,
        receipt: outcome.sent.receipt,
        receiverEndpoint: outcome.sent.receiverEndpoint,
        // The AS4 receipt is the transport's acknowledgement: the exchange Peppol Reporting counts.
        peppol: envelope && { ...envelope, transport: outcome.transport },
        sentAt: new Date().toISOString(),
      },
    }, metadata, { history });
    deps.log('info', 'document sent, its MLS to come', { documentId: document.documentId, messageId });
    return;
  }
  const handedOver = 'hosted' in outcome ? outcome : undefined;
  const hosted = handedOver?.hosted;
  const receivedDocumentId = hosted ? deterministicUuid(`received:${document.documentId}`) : undefined;
  const mls: MessageLevelStatus = hosted
    ? { responseCode: 'AP', receivedAt: new Date().toISOString(), description: 'Delivered to a participant hosted here.' }
    : (outcome as { mls: MessageLevelStatus }).mls;
  const channel = hosted ? 'local' : 'remote';
  // A hand-over here crosses no network: recorded without a transport (Peppol Reporting does not count it).
  const transport = 'transport' in outcome ? outcome.transport : undefined;
  const peppol: PeppolExchangeFacts | undefined = envelope && { ...envelope, transport, countryC4: hosted?.country ?? undefined };
  // The sender's stream first: its read goes out before anything is written, so the unit of work
  // stays one statement (UnitOfWork.readStream). The received copy's streams are new: made for it,
  // in this transaction only, which also holds the processed mark that keeps it from running twice.
  await handleCommand(uow, documentDecider, stream, {
    type: 'RecordDelivery',
    data: { documentId: document.documentId, receiverParticipantId: receiver as string, channel, messageId, mls, receivedDocumentId, peppol, deliveredAt: new Date().toISOString() },
  }, metadata, { history });
  if (hosted && receivedDocumentId) {
    const area = deps.receivedReports?.get(hosted.area);
    const sha256 = handedOver?.receivedSha256;
    await recordReceivedDocument(
      uow,
      {
        documentId: receivedDocumentId,
        tenantId: hosted.tenant_id,
        supplierId: hosted.supplier_id,
        area: hosted.area,
        documentNumber: document.documentNumber,
        documentType: document.documentType,
        senderParticipantId: document.senderParticipantId,
        receiverParticipantId: receiver as string,
        sourceDocumentId: document.documentId,
        messageId,
        // The sender's fields, and the sender as its receiver's documents list shows it (#50 `counterparty`): the
        // sender's fields name the receiver as their buyer.
        fields: { ...document.fields, counterparty: receivedSenderOf(document.xml) },
        xml: document.xml,
        peppol,
        receivedAt: new Date().toISOString(),
      },
      { ...metadata, tenantId: hosted.tenant_id },
      area && sha256 ? { area, sha256 } : undefined,
    );
  }
  deps.log('info', 'document delivered', { documentId: document.documentId, channel, messageId });
}
