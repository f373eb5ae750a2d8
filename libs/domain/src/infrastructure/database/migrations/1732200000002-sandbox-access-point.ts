import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox remote access point (delivery-worker, sandbox mode) remembers the AS4 MessageIds
 * it accepted, as a real access point does, so a re-sent message is acknowledged, not received twice.
 */
export class SandboxAccessPoint1732200000002 implements MigrationInterface {
  name = 'SandboxAccessPoint1732200000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sandbox_ap_messages (
        message_id       text         PRIMARY KEY,
        sender           text         NOT NULL,
        receiver         text         NOT NULL,
        document_sha256  text         NOT NULL,
        received_at      timestamptz  NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_ap_messages`);
  }
}
