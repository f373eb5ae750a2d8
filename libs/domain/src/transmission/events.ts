import type { Event } from '../events';
import type { As4Receipt, DeliveryFailureReason, PeppolEnvelope } from '../document/events';

/**
 * A Peppol message this access point itself sends that is no tenant's document (#46): the Message
 * Level Status (MLS 1.0) a received document is answered with. Sent by the delivery worker through the
 * AS4 engine, exactly once (its AS4 MessageId is fixed when it is requested).
 */
export interface PeppolTransmissionRequestedData extends PeppolEnvelope {
  readonly transmissionId: string;
  /** What it is: `mls`, the answer to a received message. */
  readonly purpose: 'mls';
  /** AS4 MessageId, the same on every retry. */
  readonly messageId: string;
  /** SBDH InstanceIdentifier. */
  readonly instanceIdentifier: string;
  readonly payload: string;
  /** The AS4 MessageId of the received message it answers. */
  readonly inReplyTo: string;
  readonly requestedAt: string;
}
export type PeppolTransmissionRequested = Event<'PeppolTransmissionRequested', PeppolTransmissionRequestedData>;

export interface PeppolTransmissionSentData {
  readonly transmissionId: string;
  readonly messageId: string;
  readonly receipt: As4Receipt;
  readonly sentAt: string;
}
export type PeppolTransmissionSent = Event<'PeppolTransmissionSent', PeppolTransmissionSentData>;

/** A final refusal (no access point serves the receiver, an ebMS error), or every attempt failed. */
export interface PeppolTransmissionFailedData {
  readonly transmissionId: string;
  readonly reason: DeliveryFailureReason;
  readonly failedAt: string;
}
export type PeppolTransmissionFailed = Event<'PeppolTransmissionFailed', PeppolTransmissionFailedData>;

export type PeppolTransmissionEvent = PeppolTransmissionRequested | PeppolTransmissionSent | PeppolTransmissionFailed;

export const peppolTransmissionStreamId = (transmissionId: string): string => `transmission-${transmissionId}`;
