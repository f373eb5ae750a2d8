import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event store, the transactional outbox and the consumers' processed-event ledger
 * (DESIGN.md "The event store"). Read models live in a migration of their own.
 */
export class EventStore1732200000000 implements MigrationInterface {
  name = 'EventStore1732200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE events (
        global_position bigserial    NOT NULL UNIQUE,
        event_id        uuid         NOT NULL UNIQUE,
        stream_id       text         NOT NULL,
        stream_position integer      NOT NULL CHECK (stream_position > 0),
        type            text         NOT NULL,
        schema_version  integer      NOT NULL DEFAULT 1,
        data            jsonb        NOT NULL,
        metadata        jsonb        NOT NULL,
        recorded_at     timestamptz  NOT NULL DEFAULT now(),
        CONSTRAINT events_stream_position_pkey PRIMARY KEY (stream_id, stream_position)
      )`);
    await q.query(`CREATE INDEX events_type_idx ON events (type)`);

    // pg-transactional-outbox's row shape; processed_at/abandoned_at mark progress instead of
    // a position cursor, because transactions commit out of order (DESIGN.md trap).
    await q.query(`
      CREATE TABLE outbox (
        id              bigserial    PRIMARY KEY,
        event_id        uuid         NOT NULL UNIQUE,
        topic           text         NOT NULL,
        aggregate_type  text         NOT NULL,
        aggregate_id    text         NOT NULL,
        message_type    text         NOT NULL,
        payload         jsonb        NOT NULL,
        metadata        jsonb        NOT NULL,
        created_at      timestamptz  NOT NULL DEFAULT now(),
        processed_at    timestamptz,
        attempts        integer      NOT NULL DEFAULT 0,
        last_error      text,
        abandoned_at    timestamptz
      )`);
    await q.query(`CREATE INDEX outbox_pending_idx ON outbox (topic, id) WHERE processed_at IS NULL AND abandoned_at IS NULL`);

    await q.query(`
      CREATE TABLE processed_events (
        consumer_group  text         NOT NULL,
        event_id        uuid         NOT NULL,
        processed_at    timestamptz  NOT NULL DEFAULT now(),
        CONSTRAINT processed_events_pkey PRIMARY KEY (consumer_group, event_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE processed_events`);
    await q.query(`DROP TABLE outbox`);
    await q.query(`DROP TABLE events`);
  }
}
