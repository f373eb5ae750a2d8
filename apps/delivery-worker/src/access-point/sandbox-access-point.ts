import { createHash } from 'node:crypto';
import { AS4_TRANSPORT_PROFILE } from '@einvoice/areas';
import { AppError, type MessageLevelStatus } from '@einvoice/domain';
import type { EventStore } from '@einvoice/domain/infrastructure';
import type { AccessPointConnector, Transmission, TransmissionAnswer } from './access-point';

/**
 * Receivers the sandbox treats as the network would treat some (failure injection, README
 * "Sandbox access point"): Belgian VAT numbers with valid check digits that no real company holds,
 * usable as a buyer's `BE:VAT` identifier over the public API.
 */
export const SANDBOX_RECEIVERS = {
  /** Its access point rejects every message: MLS `RE`. */
  rejecting: '9925:be0000000097',
  /** No access point serves it (not in the SML): a final failure. */
  unknown: '9925:be0000000196',
  /** Its access point never answers: a retriable failure every time (then dead-lettered). */
  unreachable: '9925:be0000000295',
} as const;

/**
 * UAE receivers (ICD 0235, TINs no one holds) whose access point answers MLS `RE` with each Peppol
 * MLS reason: BV business rule violation, FD failure of delivery, SV syntax violation (issue 10).
 */
export const SANDBOX_REJECTING_RECEIVERS: Readonly<Record<string, NonNullable<MessageLevelStatus['reasonCode']>>> = {
  '0235:1999999901': 'BV',
  '0235:1999999902': 'FD',
  '0235:1999999903': 'SV',
};

const rejectionReasons: Record<NonNullable<MessageLevelStatus['reasonCode']>, string> = {
  BV: 'business rule violation',
  FD: 'failure of delivery',
  SV: 'syntax violation',
};

/**
 * How the sandbox says its messages travel (what Peppol Reporting records): Peppol AS4 profile 2.0, and a
 * seat id of the layout Peppol gives (`P`, two letters, six digits) that no access point holds (`ZZ` is
 * no country).
 */
export const SANDBOX_TRANSPORT = { profile: AS4_TRANSPORT_PROFILE, otherAccessPoint: 'PZZ000001' } as const;

const is = (transmission: Transmission, receiver: string) => transmission.receiverParticipantId.toLowerCase().endsWith(`::${receiver}`);

/**
 * A simulated remote access point: it accepts the document, de-duplicates on the AS4
 * MessageId as real access points do (a re-sent message is acknowledged, with the time it came
 * again, not received twice), and answers with a Message Level Status `AP` (accepted); the
 * SANDBOX_RECEIVERS fail as documented. `latencyMs` simulates the network. What it keeps is one
 * write the delivery worker's concurrent transmissions share (EventStore.write, group commit: it was
 * a statement and a commit of its own per document, planned each time for its RETURNING).
 */
export class SandboxAccessPoint implements AccessPointConnector {
  constructor(
    private readonly store: Pick<EventStore, 'write'>,
    private readonly latencyMs = 0,
  ) {}

  async send(transmission: Transmission): Promise<TransmissionAnswer> {
    return { mls: await this.answer(transmission), transport: SANDBOX_TRANSPORT };
  }

  private async answer(transmission: Transmission): Promise<MessageLevelStatus> {
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
    if (is(transmission, SANDBOX_RECEIVERS.unknown)) {
      throw new AppError('not_found', 'PEPPOL.RECEIVER_NOT_FOUND', `No access point serves ${transmission.receiverParticipantId} (no SMP registration in the SML).`, {
        retriable: false,
      });
    }
    if (is(transmission, SANDBOX_RECEIVERS.unreachable)) {
      throw new AppError('unavailable', 'PEPPOL.ACCESS_POINT_UNAVAILABLE', `The access point of ${transmission.receiverParticipantId} does not answer.`);
    }
    const receivedAt = new Date().toISOString();
    await this.store.write(
      `INSERT INTO sandbox_ap_messages (message_id, sender, receiver, document_sha256, received_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (message_id) DO NOTHING`,
      [transmission.messageId, transmission.senderParticipantId, transmission.receiverParticipantId, createHash('sha256').update(transmission.xml).digest('hex'), receivedAt],
      { row: `sandbox_ap_messages/${transmission.messageId}` },
    );
    if (is(transmission, SANDBOX_RECEIVERS.rejecting)) {
      return { responseCode: 'RE', receivedAt, description: 'The receiving access point rejected the message (sandbox: a rejecting receiver).' };
    }
    const reason = Object.entries(SANDBOX_REJECTING_RECEIVERS).find(([receiver]) => is(transmission, receiver))?.[1];
    if (reason) {
      return { responseCode: 'RE', reasonCode: reason, receivedAt, description: `The receiving access point rejected the message: ${rejectionReasons[reason]} (sandbox).` };
    }
    return { responseCode: 'AP', receivedAt };
  }
}
