import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Peppol Reporting (#46): one row per document exchanged with another access point, or handed over to a
 * participant hosted here, with what TSR 1.0.2 and EUSR 1.1.1 gather of it (§2 "Data Gathering"). Written
 * by the projection of DocumentDelivered, DocumentDeliveryFailed (MLS RE) and DocumentReceived
 * (projections/peppol-transmissions.ts), so the delivery path writes nothing of its own for it; read by
 * month (`peppol-reports` CLI). Events recorded before this table hold no facts and make no row.
 */
export class PeppolTransmissions1732200001870 implements MigrationInterface {
  name = 'PeppolTransmissions1732200001870';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE peppol_transmissions (
        document_id             uuid         PRIMARY KEY,
        direction               text         NOT NULL CHECK (direction IN ('outgoing', 'incoming')),
        exchanged_at            timestamptz  NOT NULL,
        message_id              text         NOT NULL,
        document_type_id        text         NOT NULL,
        process_id              text         NOT NULL,
        transport_profile       text,
        other_access_point      text,
        sender_participant_id   text         NOT NULL,
        receiver_participant_id text         NOT NULL,
        country_c1              text         NOT NULL,
        country_c4              text,
        end_user_id             uuid
      )`);
    await q.query(`CREATE INDEX peppol_transmissions_exchanged_at_idx ON peppol_transmissions (exchanged_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE peppol_transmissions`);
  }
}
