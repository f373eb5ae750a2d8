import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox relay holds back the rows behind a parked row of the same stream (a row the broker
 * refused: `abandoned_at`), asking for each candidate whether its stream has one. Parked rows are
 * rare: a partial index over them alone keeps that question cheap however large the outbox grows.
 */
export class OutboxParked1732200000012 implements MigrationInterface {
  name = 'OutboxParked1732200000012';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX outbox_parked_idx ON outbox (aggregate_id, id) WHERE abandoned_at IS NOT NULL AND processed_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX outbox_parked_idx`);
  }
}
