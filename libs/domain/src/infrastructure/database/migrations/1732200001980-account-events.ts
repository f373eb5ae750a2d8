import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The account's events (#48, `GET /v1/events`, account-wide webhooks; catalogue: libs/domain/src/account/events.ts).
 *
 * Every area's documents are rows of `documents`, with the same state columns, so one trigger on that table
 * records each step of every area's documents a caller cares about, in the transaction that made it — the
 * mechanism the UAE feeds use (UaeFeeds, libs/areas/src/uae/migrations.ts): a row written by a transaction
 * takes its id (`xid`) and a sequence number, and readers only show rows of transactions older than every
 * transaction still running (feed-cursor.ts), so an event that commits late is never skipped behind a cursor.
 *
 * | change of the row                                        | event type                |
 * |----------------------------------------------------------|---------------------------|
 * | inserted, outgoing / incoming                            | document.accepted / document.received |
 * | delivery_status becomes Delivered / Failed               | document.delivered / document.delivery_failed |
 * | report_state becomes reported (not back from cancelling) | document.reported         |
 * | report_state becomes rejected or invalid                 | document.report_failed    |
 * | report_state becomes cancelled                           | document.cancelled        |
 * | authority.buyerRejection appears                         | document.rejected         |
 *
 * The row keeps the document's state columns as they were at that moment; the event's `data` is built from
 * them by `accountEventOf` (the same function for the events API and the webhooks, so both say the same).
 * `id` is the event's de-duplication key (`webhook-id` of every delivery of it). Kept 30 days (the retention
 * job deletes by `created_at`).
 *
 * Cost: one row per step of a document (3-4 per document), written only on those changes (the UPDATE
 * trigger's WHEN clause is evaluated in C, without calling the function, on every other update).
 */
export class AccountEvents1732200001980 implements MigrationInterface {
  name = 'AccountEvents1732200001980';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE account_events (
        seq              bigserial    NOT NULL,
        xid              xid8         NOT NULL DEFAULT pg_current_xact_id(),
        id               uuid         NOT NULL DEFAULT gen_random_uuid(),
        tenant_id        uuid         NOT NULL,
        type             text         NOT NULL,
        area             text         NOT NULL,
        supplier_id      uuid         NOT NULL,
        document_id      uuid         NOT NULL,
        document_number  text         NOT NULL,
        direction        text         NOT NULL,
        report_state     text,
        delivery_status  text,
        peppol_copy      boolean,
        authority        jsonb,
        delivery         jsonb,
        created_at       timestamptz  NOT NULL DEFAULT now(),
        PRIMARY KEY (xid, seq)
      )`);
    await q.query(`CREATE UNIQUE INDEX account_events_id_idx ON account_events (id)`);
    await q.query(`CREATE INDEX account_events_tenant_idx ON account_events (tenant_id, xid, seq)`);
    await q.query(`CREATE INDEX account_events_created_idx ON account_events (created_at)`);
    await q.query(`
      CREATE FUNCTION account_event_record(kind text, d documents) RETURNS void LANGUAGE sql AS $$
        INSERT INTO account_events (tenant_id, type, area, supplier_id, document_id, document_number, direction,
                                    report_state, delivery_status, peppol_copy, authority, delivery)
        VALUES (d.tenant_id, kind, d.area, d.supplier_id, d.id, d.document_number, d.direction,
                d.report_state, d.delivery_status, d.peppol_copy, d.authority, d.delivery) $$`);
    await q.query(`
      CREATE FUNCTION account_event_capture() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- A MyInvois buyer's rejection request is a documents row of its own (document_type 'rejection'): its
        -- step is the rejected document's document.rejected, not a document of the account.
        IF NEW.document_type = 'rejection' THEN RETURN NULL; END IF;
        IF TG_OP = 'INSERT' THEN
          PERFORM account_event_record(CASE WHEN NEW.direction = 'incoming' THEN 'document.received' ELSE 'document.accepted' END, NEW);
        ELSE
          IF NEW.delivery_status IS DISTINCT FROM OLD.delivery_status AND NEW.delivery_status IN ('Delivered', 'Failed') THEN
            PERFORM account_event_record(CASE NEW.delivery_status WHEN 'Delivered' THEN 'document.delivered' ELSE 'document.delivery_failed' END, NEW);
          END IF;
          IF NEW.report_state IS DISTINCT FROM OLD.report_state
             AND (NEW.report_state IN ('rejected', 'invalid', 'cancelled') OR (NEW.report_state = 'reported' AND OLD.report_state IS DISTINCT FROM 'cancelling')) THEN
            PERFORM account_event_record(CASE NEW.report_state WHEN 'reported' THEN 'document.reported' WHEN 'cancelled' THEN 'document.cancelled' ELSE 'document.report_failed' END, NEW);
          END IF;
          IF NEW.authority ? 'buyerRejection' AND (OLD.authority -> 'buyerRejection') IS DISTINCT FROM (NEW.authority -> 'buyerRejection') THEN
            PERFORM account_event_record('document.rejected', NEW);
          END IF;
        END IF;
        -- One wake-up per transaction (PostgreSQL folds equal notifications of one transaction).
        PERFORM pg_notify('account_events', '');
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER account_events_on_insert AFTER INSERT ON documents FOR EACH ROW EXECUTE FUNCTION account_event_capture()`);
    await q.query(`
      CREATE TRIGGER account_events_on_update AFTER UPDATE ON documents FOR EACH ROW
      WHEN (OLD.delivery_status IS DISTINCT FROM NEW.delivery_status OR OLD.report_state IS DISTINCT FROM NEW.report_state
            OR (OLD.authority -> 'buyerRejection') IS DISTINCT FROM (NEW.authority -> 'buyerRejection'))
      EXECUTE FUNCTION account_event_capture()`);
    // Where each reader of the whole table (the webhook dispatcher) got to: its last (xid, seq).
    await q.query(`
      CREATE TABLE account_event_positions (
        reader      text         PRIMARY KEY,
        xid         xid8         NOT NULL,
        seq         bigint       NOT NULL,
        updated_at  timestamptz  NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE account_event_positions`);
    await q.query(`DROP TRIGGER account_events_on_update ON documents`);
    await q.query(`DROP TRIGGER account_events_on_insert ON documents`);
    await q.query(`DROP FUNCTION account_event_capture()`);
    await q.query(`DROP FUNCTION account_event_record(text, documents)`);
    await q.query(`DROP TABLE account_events`);
  }
}
