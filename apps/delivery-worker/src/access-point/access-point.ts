import type { As4Receipt, MessageLevelStatus, PeppolEnvelope, PeppolExchangeFacts } from '@einvoice/domain';

/** One transmission to another Peppol access point (C2 → C3). */
export interface Transmission extends PeppolEnvelope {
  /** AS4 MessageId; the same on every retry of one document, so the receiving AP de-duplicates. */
  readonly messageId: string;
  /** SBDH InstanceIdentifier, the same on every retry: the receiving AP's MLS names the message by it. */
  readonly instanceIdentifier: string;
  readonly documentType: string;
  readonly xml: string;
}

/**
 * What the receiving access point answered: its Message Level Status at once (the sandbox), or its
 * AS4 receipt, the MLS to come later as an inbound message (live Peppol, docs/peppol-as4.md); with how
 * the message travelled — the transport profile and the receiving access point's seat id (its AP
 * certificate's subject CN), which Peppol Reporting counts (TSR `PerTP`, `PerSP-DT-PR`).
 */
export type TransmissionAnswer =
  | { readonly mls: MessageLevelStatus; readonly transport: Transport }
  | { readonly receipt: As4Receipt; readonly receiverEndpoint?: string; readonly transport: Transport };

type Transport = NonNullable<PeppolExchangeFacts['transport']>;

/**
 * The access-point connector: `sandbox` (default) or `live` (the AS4 engine), by PEPPOL_MODE. A final
 * refusal throws a non-retriable AppError (its code the document's failure), anything a retry may fix a
 * retriable one.
 */
export interface AccessPointConnector {
  send(transmission: Transmission): Promise<TransmissionAnswer>;
}
