import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Peppol participant area (seed 000, "Peppol participant"): the `participants` read model
 * (projected from the `participant-*` streams), the KYC documents received, the sandbox SML's
 * registrations (delivery-worker, sandbox mode), and which tenants must sign KYC.
 */
export class Participants1732200000003 implements MigrationInterface {
  name = 'Participants1732200000003';

  async up(q: QueryRunner): Promise<void> {
    // Configuration: a tenant with kyc_required gets HTTP 202 + `method` on create-participant.
    await q.query(`ALTER TABLE tenants ADD COLUMN kyc_required boolean NOT NULL DEFAULT false`);

    // One row per participant id across tenants: a receiver is registered in exactly one SMP
    // (the participant stream enforces it first; this key backs it up).
    await q.query(`
      CREATE TABLE participants (
        participant_id     text         NOT NULL,
        tenant_id          uuid         NOT NULL,
        supplier_id        uuid,
        status             text         NOT NULL CHECK (status IN ('kyc_pending', 'created')),
        sml_status         text         NOT NULL,
        business_entities  jsonb        NOT NULL,
        pdf_file           text,
        registration_date  timestamptz,
        created_at         timestamptz  NOT NULL,
        updated_at         timestamptz  NOT NULL,
        version            integer      NOT NULL,
        CONSTRAINT participants_pkey PRIMARY KEY (participant_id)
      )`);
    await q.query(`CREATE INDEX participants_tenant_idx ON participants (tenant_id)`);

    // The signed KYC PDF itself (events carry its name, size and SHA-256 only).
    await q.query(`
      CREATE TABLE participant_kyc_documents (
        participant_id  text         PRIMARY KEY,
        file_name       text         NOT NULL,
        content         bytea        NOT NULL,
        sha256          text         NOT NULL,
        received_at     timestamptz  NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE sandbox_sml_registrations (
        participant_id  text         PRIMARY KEY,
        smp_id          text         NOT NULL,
        active          boolean      NOT NULL,
        updated_at      timestamptz  NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_sml_registrations`);
    await q.query(`DROP TABLE participant_kyc_documents`);
    await q.query(`DROP TABLE participants`);
    await q.query(`ALTER TABLE tenants DROP COLUMN kyc_required`);
  }
}
