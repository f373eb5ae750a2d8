/**
 * One recorded exchange as the reports read it (a row of `peppol_transmissions`, written by the
 * projection of DocumentDelivered / DocumentDeliveryFailed / DocumentReceived), and which of them the
 * reports count.
 */
import { isStatisticsReport } from './identifiers';

/** One exchange of a document with another access point, or a hand-over to a participant hosted here. */
export interface ReportedTransmission {
  readonly direction: 'outgoing' | 'incoming';
  /** `scheme::value`. */
  readonly documentTypeId: string;
  /** `scheme::value`. */
  readonly processId: string;
  /** Transport profile (`peppol-transport-as4-v2_0`); undefined for a hand-over here (no network crossed). */
  readonly transportProfile?: string;
  /** Seat id of the other access point: C3 for outgoing, C2 for incoming; undefined for a hand-over. */
  readonly otherAccessPoint?: string;
  /** Country of the sending end user (C1). */
  readonly countryC1: string;
  /** Country of the receiving end user (C4): known for incoming exchanges only. */
  readonly countryC4?: string;
  /**
   * The end user served here: the sender of an outgoing exchange, the receiver of an incoming one. Its
   * supplier id, so that an end user with several participant ids counts once (EUSR 1.1.1 §2, NOTE).
   */
  readonly endUserId: string;
}

/**
 * Whether the reports count an exchange (TSR 1.0.2 and EUSR 1.1.1 §2 "Data Gathering"):
 * - only "Dataset exchanges that resulted in a positive transport level acknowledgment (like AS4
 *   Receipts)": one that crossed the network. A hand-over to a participant hosted here crosses none and
 *   gets no transport acknowledgment, so it is recorded but not counted;
 * - TSR and EUSR documents themselves are never counted.
 */
export function counted(transmission: ReportedTransmission): boolean {
  return transmission.transportProfile !== undefined && transmission.otherAccessPoint !== undefined && !isStatisticsReport(transmission.documentTypeId);
}
