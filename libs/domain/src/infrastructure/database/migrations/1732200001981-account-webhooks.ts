import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Account-wide webhook endpoints (#48, `/v1/webhooks`): rows of `webhook_subscriptions` with `scope = 'account'`,
 * so deliveries, attempts, retries, the sweeper and the disabling of an endpoint failing for its whole retry
 * window are the ones the supplier subscriptions of the seeds' routes (`scope = 'supplier'`) already have.
 *
 * - An account endpoint has no supplier and no area; it filters by `events` (empty: every type, new ones
 *   included), `areas` and `supplier_ids` (NULL: all).
 * - Secret rotation: the previous secret keeps signing next to the new one until `previous_secret_expires_at`.
 * - `status` is `disabled` while `disabled_at` is set (by the caller's PATCH, or after a failing retry window).
 * - Deliveries say when their next attempt is due; attempts keep the first 4 KiB of the answer's body.
 * - The same url with the same filters once per tenant (409).
 */
export class AccountWebhooks1732200001981 implements MigrationInterface {
  name = 'AccountWebhooks1732200001981';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhook_subscriptions
        ADD COLUMN scope text NOT NULL DEFAULT 'supplier' CHECK (scope IN ('supplier', 'account')),
        ALTER COLUMN supplier_id DROP NOT NULL,
        ALTER COLUMN area DROP NOT NULL,
        ADD COLUMN areas text[],
        ADD COLUMN supplier_ids uuid[],
        ADD COLUMN previous_secret_sealed text,
        ADD COLUMN previous_secret_expires_at timestamptz,
        ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now(),
        ADD CONSTRAINT webhook_subscriptions_scope_supplier CHECK ((scope = 'supplier') = (supplier_id IS NOT NULL AND area IS NOT NULL))`);
    await q.query(`
      CREATE UNIQUE INDEX webhook_endpoints_once ON webhook_subscriptions
        (tenant_id, url, webhook_events_key(events), webhook_events_key(coalesce(areas, '{}')), webhook_events_key(coalesce(supplier_ids::text[], '{}')))
        WHERE deleted_at IS NULL AND scope = 'account'`);
    await q.query(`CREATE INDEX webhook_endpoints_tenant ON webhook_subscriptions (tenant_id, created_at DESC, id DESC) WHERE deleted_at IS NULL AND scope = 'account'`);
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN next_attempt_at timestamptz`);
    await q.query(`ALTER TABLE webhook_delivery_attempts ADD COLUMN response_body text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_delivery_attempts DROP COLUMN response_body`);
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN next_attempt_at`);
    await q.query(`DROP INDEX webhook_endpoints_tenant`);
    await q.query(`DROP INDEX webhook_endpoints_once`);
    await q.query(`
      ALTER TABLE webhook_subscriptions DROP CONSTRAINT webhook_subscriptions_scope_supplier,
        DROP COLUMN updated_at, DROP COLUMN previous_secret_expires_at, DROP COLUMN previous_secret_sealed,
        DROP COLUMN supplier_ids, DROP COLUMN areas, DROP COLUMN scope`);
  }
}
