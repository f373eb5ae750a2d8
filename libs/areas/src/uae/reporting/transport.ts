/**
 * How a TDD reaches the FTA and how its MLS comes back: an ordinary Peppol send (corner 5,
 * national-systems-detail.md §6 "Transport") through an access point, and the MLS the FTA answers it
 * with. Two implementations: the sandbox FTA (sandbox-fta.ts, state in PostgreSQL) and the live
 * client of an access point's HTTP API (access-point-client.ts). Errors are AppErrors: `retriable`
 * for what a later call may fix (5xx, timeouts), final for what it cannot.
 */
import { AppError } from '@einvoice/domain';

/** One TDD handed to the network. */
export interface TddMessage {
  /** SBDH InstanceIdentifier: the same on every retry of one report, so the network de-duplicates. */
  readonly messageId: string;
  /** The reporting participant (`0235:…`): the Peppol sender of the TDD. */
  readonly senderId: string;
  /** The FTA's service-provider id (`0242:…`). */
  readonly receiverId: string;
  readonly documentTypeId: string;
  readonly processId: string;
  readonly xml: string;
}

/** The network took the message (an AS4 receipt, or the access point's acceptance). */
export interface TddAcknowledgement {
  readonly messageId: string;
  readonly receivedAt: string;
  /** The FTA's (or the access point's) own reference of the message, when it gives one. */
  readonly reference?: string;
}

/** What is known of a message that was sent. */
export interface TddStatus {
  readonly messageId: string;
  readonly receivedAt?: string;
  readonly reference?: string;
  /** The FTA's MLS on it, as received (XML), once it came. */
  readonly mls?: string;
  /** The MLS response code, when the access point reports the code without the document. */
  readonly responseCode?: 'AP' | 'AB' | 'RE';
  /** The access point gave up for good: the TDD never reached the FTA (or its own checks refused it). */
  readonly undeliverable?: { readonly code: string; readonly message: string };
}

/** The way to the FTA. */
export interface FtaTransport {
  /** Sends one TDD. @throws AppError (retriable: try again later with the same messageId) */
  send(message: TddMessage): Promise<TddAcknowledgement>;
  /** What is known of a message: undefined when it was never taken. @throws AppError */
  status(messageId: string): Promise<TddStatus | undefined>;
}

/** Error codes of the UAE FTA connector (both modes). */
export const UAE_FTA_ERRORS = {
  /** The FTA or the access point is down or answered 5xx: retriable. */
  UNAVAILABLE: 'UAE_FTA.UNAVAILABLE',
  /** No answer in time: retriable (the worker asks `recover` before sending again). */
  TIMEOUT: 'UAE_FTA.TIMEOUT',
  /** The access point refused our credentials: retriable once an operator fixes them. */
  UNAUTHORIZED: 'UAE_FTA.ACCESS_POINT_UNAUTHORIZED',
  /** The access point refused the request itself (400): final. */
  REFUSED: 'UAE_FTA.ACCESS_POINT_REFUSED',
  /** The TDD never reached the FTA and the access point stopped trying: final. */
  UNDELIVERABLE: 'UAE_FTA.NOT_DELIVERED',
  /** The UBL cannot be read as an Invoice or CreditNote: final (source-document.ts). */
  UNREADABLE_DOCUMENT: 'UAE_FTA.UNREADABLE_DOCUMENT',
  /** Polled a message the network does not know. */
  UNKNOWN_MESSAGE: 'UAE_FTA.UNKNOWN_MESSAGE',
  /** The MLS cannot be read: final for that answer (logged with its violations). */
  BAD_MLS: 'UAE_FTA.BAD_MLS',
} as const;

export function unavailable(message: string, details: Record<string, unknown> = {}, cause?: unknown): AppError {
  return new AppError('unavailable', UAE_FTA_ERRORS.UNAVAILABLE, message, { retriable: true, details, cause });
}

export function timedOut(message: string, details: Record<string, unknown> = {}, cause?: unknown): AppError {
  return new AppError('unavailable', UAE_FTA_ERRORS.TIMEOUT, message, { retriable: true, details, cause });
}
