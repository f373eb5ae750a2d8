import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tenants and their hashed API keys, the idempotency record of POST requests, and the read
 * models (projections) the gateway answers from. Read models are rebuilt from `events`.
 */
export class Gateway1732200000001 implements MigrationInterface {
  name = 'Gateway1732200000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tenants (
        id            uuid         PRIMARY KEY,
        name          text         NOT NULL,
        api_key_hash  text         NOT NULL UNIQUE,
        key_prefix    text         NOT NULL,
        created_at    timestamptz  NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE idempotency_keys (
        tenant_id     uuid         NOT NULL REFERENCES tenants (id),
        key           text         NOT NULL,
        request_hash  text         NOT NULL,
        status_code   integer      NOT NULL,
        response      jsonb        NOT NULL,
        created_at    timestamptz  NOT NULL DEFAULT now(),
        CONSTRAINT idempotency_keys_pkey PRIMARY KEY (tenant_id, key)
      )`);

    await q.query(`
      CREATE TABLE suppliers (
        id              uuid         PRIMARY KEY,
        tenant_id       uuid         NOT NULL,
        area            text         NOT NULL,
        registered_name text         NOT NULL,
        profile         jsonb        NOT NULL,
        created_at      timestamptz  NOT NULL,
        version         integer      NOT NULL
      )`);
    await q.query(`CREATE INDEX suppliers_tenant_idx ON suppliers (tenant_id)`);

    // A receiver is registered in exactly one SMP: one supplier per participant id, across tenants.
    await q.query(`
      CREATE TABLE supplier_participants (
        participant_id  text         NOT NULL,
        supplier_id     uuid         NOT NULL REFERENCES suppliers (id),
        tenant_id       uuid         NOT NULL,
        CONSTRAINT supplier_participants_pkey PRIMARY KEY (participant_id)
      )`);

    await q.query(`
      CREATE TABLE documents (
        id               uuid         PRIMARY KEY,
        tenant_id        uuid         NOT NULL,
        supplier_id      uuid         NOT NULL,
        area             text         NOT NULL,
        direction        text         NOT NULL CHECK (direction IN ('outgoing', 'incoming')),
        document_number  text         NOT NULL,
        document_type    text         NOT NULL,
        delivery_status  text         NOT NULL,
        fields           jsonb        NOT NULL,
        xml              text         NOT NULL,
        delivery         jsonb,
        source_document_id uuid,
        created_at       timestamptz  NOT NULL,
        updated_at       timestamptz  NOT NULL,
        version          integer      NOT NULL
      )`);
    // ID unique per supplier (seed: "unique invoice reference number"); received documents are
    // numbered by their sender, so the rule applies to outgoing ones only.
    await q.query(`
      CREATE UNIQUE INDEX documents_supplier_number_key
        ON documents (supplier_id, document_number) WHERE direction = 'outgoing'`);
    await q.query(`CREATE INDEX documents_tenant_supplier_idx ON documents (tenant_id, supplier_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE documents`);
    await q.query(`DROP TABLE supplier_participants`);
    await q.query(`DROP TABLE suppliers`);
    await q.query(`DROP TABLE idempotency_keys`);
    await q.query(`DROP TABLE tenants`);
  }
}
