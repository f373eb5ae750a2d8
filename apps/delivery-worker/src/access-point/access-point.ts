import type { MessageLevelStatus } from '@einvoice/domain';

/** One transmission to another Peppol access point (C2 → C3). */
export interface Transmission {
  /** AS4 MessageId; the same on every retry of one document, so the receiving AP de-duplicates. */
  readonly messageId: string;
  readonly senderParticipantId: string;
  readonly receiverParticipantId: string;
  readonly documentType: string;
  readonly xml: string;
}

/** The access-point connector: `sandbox` (default) or, later, a live AS4 client. */
export interface AccessPointConnector {
  send(transmission: Transmission): Promise<MessageLevelStatus>;
}
