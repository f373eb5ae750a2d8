import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook subscriptions (#9): the same URL with the same events once per supplier (an index over
 * the events in order, whatever order they were sent in), and a subscription whose delivery failed
 * for its whole retry window with nothing delivered since is `disabled` (disabled_at, the reason).
 * Duplicates registered before this migration are soft-deleted, keeping the oldest.
 */
export class WebhookLimits1732200000021 implements MigrationInterface {
  name = 'WebhookLimits1732200000021';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION webhook_events_key(events text[]) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT array_to_string(ARRAY(SELECT DISTINCT e FROM unnest(events) AS e ORDER BY e), ',') $$`);
    await q.query(`
      UPDATE webhook_subscriptions s SET deleted_at = now()
      WHERE s.deleted_at IS NULL AND EXISTS (
        SELECT 1 FROM webhook_subscriptions o
        WHERE o.deleted_at IS NULL AND o.supplier_id = s.supplier_id AND o.url = s.url
          AND webhook_events_key(o.events) = webhook_events_key(s.events) AND (o.created_at, o.id) < (s.created_at, s.id))`);
    await q.query(`CREATE UNIQUE INDEX webhook_subscriptions_once ON webhook_subscriptions (supplier_id, url, webhook_events_key(events)) WHERE deleted_at IS NULL`);
    await q.query(`ALTER TABLE webhook_subscriptions ADD COLUMN disabled_at timestamptz, ADD COLUMN disabled_reason text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_subscriptions DROP COLUMN disabled_at, DROP COLUMN disabled_reason`);
    await q.query(`DROP INDEX webhook_subscriptions_once`);
    await q.query(`DROP FUNCTION webhook_events_key(text[])`);
  }
}
