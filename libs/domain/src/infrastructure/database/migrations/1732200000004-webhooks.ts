import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks (README "Webhooks"): subscriptions of a supplier, one delivery per (subscription,
 * event) and every attempt of it. The secret is stored sealed (AES-256-GCM, SECRETS_KEY).
 */
export class Webhooks1732200000004 implements MigrationInterface {
  name = 'Webhooks1732200000004';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_subscriptions (
        id                uuid         PRIMARY KEY,
        tenant_id         uuid         NOT NULL,
        supplier_id       uuid         NOT NULL,
        area              text         NOT NULL,
        url               text         NOT NULL,
        events            text[]       NOT NULL,
        secret_sealed     text         NOT NULL,
        description       text,
        created_at        timestamptz  NOT NULL DEFAULT now(),
        deleted_at        timestamptz
      )`);
    await q.query(`CREATE INDEX webhook_subscriptions_supplier ON webhook_subscriptions (supplier_id) WHERE deleted_at IS NULL`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id                uuid         PRIMARY KEY,
        subscription_id   uuid         NOT NULL REFERENCES webhook_subscriptions (id),
        event_id          uuid         NOT NULL,
        event_type        text         NOT NULL,
        payload           text         NOT NULL,
        status            text         NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempt_count     integer      NOT NULL DEFAULT 0,
        created_at        timestamptz  NOT NULL DEFAULT now(),
        updated_at        timestamptz  NOT NULL DEFAULT now(),
        delivered_at      timestamptz,
        CONSTRAINT webhook_deliveries_once UNIQUE (subscription_id, event_id)
      )`);
    await q.query(`CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (created_at) WHERE status = 'pending'`);
    await q.query(`
      CREATE TABLE webhook_delivery_attempts (
        delivery_id       uuid         NOT NULL REFERENCES webhook_deliveries (id),
        attempt           integer      NOT NULL,
        status_code       integer,
        duration_ms       integer      NOT NULL,
        error             text,
        attempted_at      timestamptz  NOT NULL DEFAULT now(),
        PRIMARY KEY (delivery_id, attempt)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_delivery_attempts`);
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE webhook_subscriptions`);
  }
}
