import { createHash } from 'node:crypto';
import type { MessageLevelStatus } from '@einvoice/domain';
import type { DataSource } from 'typeorm';
import type { AccessPointConnector, Transmission } from './access-point';

/**
 * A simulated remote access point: it accepts the document, de-duplicates on the AS4
 * MessageId as real access points do (a re-sent message is acknowledged, not received twice),
 * and answers with a Message Level Status `AP` (accepted). `latencyMs` simulates the network.
 */
export class SandboxAccessPoint implements AccessPointConnector {
  constructor(
    private readonly dataSource: DataSource,
    private readonly latencyMs = 0,
  ) {}

  async send(transmission: Transmission): Promise<MessageLevelStatus> {
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
    const rows: Array<{ received_at: Date }> = await this.dataSource.query(
      `INSERT INTO sandbox_ap_messages (message_id, sender, receiver, document_sha256)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (message_id) DO UPDATE SET message_id = EXCLUDED.message_id
       RETURNING received_at`,
      [
        transmission.messageId,
        transmission.senderParticipantId,
        transmission.receiverParticipantId,
        createHash('sha256').update(transmission.xml).digest('hex'),
      ],
    );
    return { responseCode: 'AP', receivedAt: new Date(rows[0].received_at).toISOString() };
  }
}
