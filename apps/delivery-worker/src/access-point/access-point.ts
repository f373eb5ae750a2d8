import type { MessageLevelStatus, PeppolExchangeFacts } from '@einvoice/domain';

/** One transmission to another Peppol access point (C2 → C3). */
export interface Transmission {
  /** AS4 MessageId; the same on every retry of one document, so the receiving AP de-duplicates. */
  readonly messageId: string;
  readonly senderParticipantId: string;
  readonly receiverParticipantId: string;
  readonly documentType: string;
  /** The envelope's identifiers (SBDH DOCUMENTID, PROCESSID, COUNTRY_C1): `scheme::value`, and C1's country. */
  readonly documentTypeId: string;
  readonly processId: string;
  readonly countryC1: string;
  readonly xml: string;
}

/**
 * What the receiving access point answered: its Message Level Status, and how the message travelled —
 * the transport profile and the receiving access point's seat id (its AP certificate's subject CN), which
 * Peppol Reporting counts (TSR `PerTP`, `PerSP-DT-PR`).
 */
export interface TransmissionAnswer {
  readonly mls: MessageLevelStatus;
  readonly transport: NonNullable<PeppolExchangeFacts['transport']>;
}

/** The access-point connector: `sandbox` (default) or, later, a live AS4 client. */
export interface AccessPointConnector {
  send(transmission: Transmission): Promise<TransmissionAnswer>;
}
