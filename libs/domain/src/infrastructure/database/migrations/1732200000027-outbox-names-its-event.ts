import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 11: an outbox row names its event instead of carrying a second copy of it (each event's
 * payload was written twice: in `events` and in `outbox`, twice the WAL). The relay reads the event
 * by `event_id`; rows written before keep their payload and are published from it.
 */
export class OutboxNamesItsEvent1732200000027 implements MigrationInterface {
  name = 'OutboxNamesItsEvent1732200000027';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox ALTER COLUMN payload DROP NOT NULL, ALTER COLUMN metadata DROP NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    // The rows that name their event get it back as their payload first.
    await q.query(`
      UPDATE outbox o SET payload = jsonb_build_object(
          'eventId', e.event_id, 'streamId', e.stream_id, 'streamPosition', e.stream_position,
          'globalPosition', e.global_position::text, 'type', e.type, 'schemaVersion', e.schema_version,
          'data', e.data, 'metadata', e.metadata,
          'recordedAt', to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
        metadata = e.metadata
      FROM events e WHERE o.payload IS NULL AND e.event_id = o.event_id`);
    await q.query(`ALTER TABLE outbox ALTER COLUMN payload SET NOT NULL, ALTER COLUMN metadata SET NOT NULL`);
  }
}
