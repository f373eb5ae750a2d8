import { MigrationInterface, QueryRunner } from 'typeorm';

/** The indexes the retention job's deletes use (eventstore/retention.ts): oldest rows first, never a full scan. */
export class RetentionIndexes1732200000014 implements MigrationInterface {
  name = 'RetentionIndexes1732200000014';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX outbox_processed_at_idx ON outbox (processed_at) WHERE processed_at IS NOT NULL`);
    await q.query(`CREATE INDEX processed_events_processed_at_idx ON processed_events (processed_at)`);
    await q.query(`CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX idempotency_keys_created_at_idx`);
    await q.query(`DROP INDEX processed_events_processed_at_idx`);
    await q.query(`DROP INDEX outbox_processed_at_idx`);
  }
}
