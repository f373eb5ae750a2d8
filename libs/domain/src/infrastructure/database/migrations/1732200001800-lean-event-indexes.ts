import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two indexes no query of the service reads, dropped (issue 11): under the end-to-end load a document
 * cost 28 B-tree insertions, most of PostgreSQL's WAL and its `LWLock:WALWrite` waits.
 * - `events_type_idx`: events are read by stream (`events_stream_position_pkey`) and by id; by type
 *   only in one-off migrations and the bench's count after its load, which may scan.
 * - the unique `outbox.event_id`: an outbox row is written with its event, in the same statement, and
 *   never again (`events.event_id` is unique; the relay joins on it); its index took four insertions per
 *   document (each outbox row, and again when the relay marks it published).
 */
export class LeanEventIndexes1732200001800 implements MigrationInterface {
  name = 'LeanEventIndexes1732200001800';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS events_type_idx`);
    await q.query(`ALTER TABLE outbox DROP CONSTRAINT IF EXISTS outbox_event_id_key`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox ADD CONSTRAINT outbox_event_id_key UNIQUE (event_id)`);
    await q.query(`CREATE INDEX events_type_idx ON events (type)`);
  }
}
