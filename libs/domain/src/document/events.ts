import type { Event } from '../events';
import { deterministicUuid } from '../ids';

/**
 * Peppol delivery states: the seed's `Scheduled` and `Delivered` (BE/DE/SG `DeliveryStatus`), and
 * `Failed` (ours, #8): the receiving access point rejected the message (MLS `RE`), the receiver is
 * served by no access point, or every attempt failed (the delivery was dead-lettered). `Sent` (ours,
 * #46): the receiving access point took the message over AS4 (its signed receipt) and its Message Level
 * Status has not come back yet; Peppol answers in these two steps (MLS 1.0 §3), and the UAE seed's
 * `exchange.status` stays `processing` until the MLS arrives, which `Sent` is.
 */
export type DeliveryStatus = 'Scheduled' | 'Sent' | 'Delivered' | 'Failed';

/** How a document leaves the service; the seed shows only `peppol`. */
export type TransportMode = 'peppol';

/** Message Level Status returned by the receiving access point (Peppol MLS: AP accepted, AB, RE). */
export interface MessageLevelStatus {
  readonly responseCode: 'AP' | 'AB' | 'RE';
  readonly receivedAt: string;
  readonly description?: string;
  /** On `RE`, Peppol MLS's StatusReasonCode: BV business rule violation, FD failure of delivery, SV syntax violation. */
  readonly reasonCode?: 'BV' | 'FD' | 'SV';
}

/**
 * The AS4 MessageId of a document's transmission: derived from its id, so every retry of it (after a
 * crash, a rebalance, a dead-letter replay) carries the same one and the receiving access point
 * de-duplicates it (AS4 profile; phase4's duplicate detection).
 */
export const as4MessageId = (documentId: string): string => `${deterministicUuid(`as4:${documentId}`)}@einvoice-gateway`;

/**
 * The SBDH InstanceIdentifier of a document's transmission: the document id itself, the same on every
 * retry. A Message Level Status names the message it answers by it (`DocumentReference/ID`, MLS 1.0
 * §8), so an MLS leads back to its document without a lookup table, even when it arrives before the
 * delivery worker recorded the AS4 receipt.
 */
export const sbdhInstanceIdentifier = (documentId: string): string => documentId;

/** The receiving access point's signed AS4 receipt of a transmission (ebMS 3 `Receipt`). */
export interface As4Receipt {
  /** The MessageId the receipt answers (ours). */
  readonly refToMessageId: string;
  readonly timestamp: string;
}

/**
 * The identifiers a Peppol message travels under, as its envelope states them (the SBDH of Peppol
 * Business Message Envelope 2.0: sender, receiver, DOCUMENTID, PROCESSID, COUNTRY_C1). One type for
 * what a transmission is asked with (the delivery worker's Transmission, the AS4 engine's message, this
 * access point's own MLS) and for what Peppol Reporting records of an exchange.
 */
export interface PeppolEnvelope {
  /** The end users' participant ids (C1, C4), `scheme::value` (`iso6523-actorid-upis::0242:000123`). */
  readonly senderParticipantId: string;
  readonly receiverParticipantId: string;
  /** Full document type identifier, `scheme::value` (`busdox-docid-qns::urn:oasis:…::Invoice##…::2.1`). */
  readonly documentTypeId: string;
  /** Full process identifier, `scheme::value` (`cenbii-procid-ubl::urn:fdc:peppol.eu:2017:poacc:billing:01:1.0`). */
  readonly processId: string;
  /** Country of the sending end user (C1), ISO 3166-1 alpha-2: the SBDH's `COUNTRY_C1`; `ZZ` when a sender did not state it. */
  readonly countryC1: string;
}

/**
 * What Peppol Reporting needs of one exchange of a document (OpenPeppol Transaction Statistics Reporting
 * 1.0.2 and End User Statistics Reporting 1.1.1, "Data Gathering"), stated by the side that made it: the
 * delivery worker for what it sent or handed over, the inbound route for what another access point sent.
 * Projected into `peppol_transmissions` (projections/peppol-transmissions.ts).
 */
export interface PeppolExchangeFacts extends PeppolEnvelope {
  /** Country of the receiving end user (C4): known only to the receiving side (TSR: "can only be determined by C3"). */
  readonly countryC4?: string;
  /**
   * How it travelled: a transport profile of the Peppol code list (`peppol-transport-as4-v2_0`) with the
   * other access point's seat id (its AP certificate's subject CN, `PBE000123`: C3 when sending, C2 when
   * receiving); absent for a hand-over to a participant hosted here, which crosses no network.
   */
  readonly transport?: { readonly profile: string; readonly otherAccessPoint: string };
}

/** The submitted document as the gateway accepted it. */
export interface DocumentSubmittedData {
  readonly documentId: string;
  readonly tenantId: string;
  readonly supplierId: string;
  readonly area: string;
  /** The caller's document number (`ID`), unique per supplier. */
  readonly documentNumber: string;
  readonly documentType: string;
  readonly transportMode: TransportMode;
  /** Peppol participant id of the sender and, when the buyer has one, the receiver. */
  readonly senderParticipantId: string;
  readonly receiverParticipantId: string | null;
  /**
   * Country of the sending end user (Peppol's C1: the supplier, whatever the document's roles), ISO 3166-1
   * alpha-2, decided at submission from the supplier's profile; the SBDH's `COUNTRY_C1`. Absent on events
   * recorded before Peppol Reporting (#46).
   */
  readonly countryC1?: string;
  /** The fields as submitted (after defaults), returned by get-document. */
  readonly fields: Record<string, unknown>;
  /** The amount payable where the area computed it (ParsedDocument.total): `documents.total`. Absent otherwise and on older events. */
  readonly total?: string;
  /** The rendered UBL 2.1 document. */
  readonly xml: string;
  readonly submittedAt: string;
}
export type DocumentSubmitted = Event<'DocumentSubmitted', DocumentSubmittedData>;

export interface DocumentDeliveredData {
  readonly documentId: string;
  readonly receiverParticipantId: string;
  /** `local`: the receiver is hosted here; `remote`: through another access point. */
  readonly channel: 'local' | 'remote';
  /** AS4 MessageId used for the transmission; the same on every retry, so receivers de-duplicate. */
  readonly messageId: string;
  readonly mls: MessageLevelStatus;
  /** For local delivery: the document id in the receiver's inbox. */
  readonly receivedDocumentId?: string;
  /** What Peppol Reporting records of the exchange (#46); absent on events recorded before. */
  readonly peppol?: PeppolExchangeFacts;
  readonly deliveredAt: string;
}
export type DocumentDelivered = Event<'DocumentDelivered', DocumentDeliveredData>;

/**
 * The receiving access point took the document over AS4 (#46, live Peppol): its receipt is in, its
 * Message Level Status will come later as an inbound message (`RecordMessageLevelStatus`).
 */
export interface DocumentSentData {
  readonly documentId: string;
  readonly receiverParticipantId: string;
  /** AS4 MessageId (as4MessageId), the same on every retry. */
  readonly messageId: string;
  readonly receipt: As4Receipt;
  /** The receiving access point's AS4 endpoint, as its SMP published it. */
  readonly receiverEndpoint?: string;
  /** The exchange, for Peppol Reporting: the AS4 receipt is the transport acknowledgement it counts. */
  readonly peppol?: PeppolExchangeFacts;
  readonly sentAt: string;
}
export type DocumentSent = Event<'DocumentSent', DocumentSentData>;

/** Why a delivery failed: a stable code and a message for people. */
export interface DeliveryFailureReason {
  /** `PEPPOL.REJECTED_BY_RECEIVER` (MLS RE), `PEPPOL.RECEIVER_NOT_FOUND`, or the last error's code when dead-lettered. */
  readonly code: string;
  readonly message: string;
}

/** The document could not be delivered (#8); a later successful delivery (a dead-letter replay) still records DocumentDelivered. */
export interface DocumentDeliveryFailedData {
  readonly documentId: string;
  readonly receiverParticipantId: string | null;
  readonly reason: DeliveryFailureReason;
  /** The receiving access point's Message Level Status, when it answered one (RE). */
  readonly mls?: MessageLevelStatus;
  /** How many attempts were made (the consumer's, when dead-lettered). */
  readonly attempts?: number;
  /**
   * Set when the document did cross the network (the receiving access point answered, MLS `RE`): a
   * transport-level success that Peppol Reporting counts, whatever the receiver made of it (#46).
   */
  readonly peppol?: PeppolExchangeFacts;
  readonly failedAt: string;
}
export type DocumentDeliveryFailed = Event<'DocumentDeliveryFailed', DocumentDeliveryFailedData>;

/** A document that arrived for a supplier hosted here; first event of the receiver's copy. */
export interface DocumentReceivedData {
  readonly documentId: string;
  readonly tenantId: string;
  /** The receiving supplier. */
  readonly supplierId: string;
  readonly area: string;
  readonly documentNumber: string;
  readonly documentType: string;
  readonly senderParticipantId: string;
  readonly receiverParticipantId: string;
  /** The sender's document, when it was sent from here. */
  readonly sourceDocumentId: string | null;
  readonly messageId: string;
  readonly fields: Record<string, unknown>;
  readonly xml: string;
  /** What Peppol Reporting records of the exchange (#46); absent on events recorded before. */
  readonly peppol?: PeppolExchangeFacts;
  readonly receivedAt: string;
}
export type DocumentReceived = Event<'DocumentReceived', DocumentReceivedData>;

export type DocumentEvent = DocumentSubmitted | DocumentSent | DocumentDelivered | DocumentDeliveryFailed | DocumentReceived;

export const documentStreamId = (documentId: string): string => `document-${documentId}`;
