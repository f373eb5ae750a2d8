import type { SqlMigration } from '@einvoice/domain';

/**
 * Document numbers taken per participant and financial year (issue 10): by a submitted document, or
 * consumed by `…/documents/validate`. Written in the submission's own transaction (like the
 * idempotency record), so a number is taken exactly when its document is stored.
 */
const documentNumbers: SqlMigration = {
  name: 'UaeDocumentNumbers1732200001100',
  up: [
    `CREATE TABLE uae_document_numbers (
       supplier_id          uuid         NOT NULL,
       financial_year       integer      NOT NULL,
       document_identifier  text         NOT NULL,
       taken_by             text         NOT NULL CHECK (taken_by IN ('document', 'validate')),
       document_id          uuid,
       taken_at             timestamptz  NOT NULL DEFAULT now(),
       PRIMARY KEY (supplier_id, financial_year, document_identifier)
     )`,
  ],
  down: [`DROP TABLE uae_document_numbers`],
};

/** Embedded attachments, stored once, read back by index (`…/attachments/{index}`). */
const attachments: SqlMigration = {
  name: 'UaeAttachments1732200001101',
  up: [
    `CREATE TABLE uae_attachments (
       document_id  uuid     NOT NULL,
       index        integer  NOT NULL,
       filename     text     NOT NULL,
       mime_code    text     NOT NULL,
       size_bytes   integer  NOT NULL,
       content      bytea    NOT NULL,
       PRIMARY KEY (document_id, index)
     )`,
  ],
  down: [`DROP TABLE uae_attachments`],
};

/**
 * The event feeds (README.md "Event feeds"): every change of a UAE document's three status fields is
 * a row, written by a trigger on the `documents` read model in the transaction that changed it, so
 * no projector of either track has to know about feeds. Each row keeps the id of the transaction
 * that wrote it (`xid`): a feed is read in (xid, seq) order and only below the oldest transaction
 * still running, so an event that commits late can never land behind a cursor already handed out.
 */
const feeds: SqlMigration = {
  name: 'UaeFeeds1732200001102',
  up: [
    `CREATE TABLE uae_feed_events (
       seq                  bigserial    NOT NULL,
       xid                  xid8         NOT NULL DEFAULT pg_current_xact_id(),
       supplier_id          uuid         NOT NULL,
       direction            text         NOT NULL,
       document_id          uuid         NOT NULL,
       document_identifier  text,
       type                 text         NOT NULL,
       status               text         NOT NULL,
       reporting            jsonb        NOT NULL,
       exchange             jsonb        NOT NULL,
       created_at           timestamptz  NOT NULL DEFAULT now(),
       PRIMARY KEY (supplier_id, direction, xid, seq)
     )`,
    `CREATE TABLE uae_feed_positions (
       supplier_id  uuid         NOT NULL,
       direction    text         NOT NULL,
       acked_xid    xid8         NOT NULL,
       acked_seq    bigint       NOT NULL,
       acked_at     timestamptz  NOT NULL DEFAULT now(),
       PRIMARY KEY (supplier_id, direction)
     )`,
    // The three status fields of a documents row (README.md "States").
    `CREATE FUNCTION uae_reporting_status(report_state text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
       SELECT CASE WHEN report_state IS NULL OR report_state IN ('pending', 'processing') THEN 'queued'
                   WHEN report_state = 'reported' THEN 'reported' ELSE 'failed' END $$`,
    `CREATE FUNCTION uae_exchange_status(direction text, delivery_status text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
       SELECT CASE WHEN direction = 'incoming' OR delivery_status = 'Delivered' THEN 'delivered'
                   WHEN delivery_status = 'Failed' THEN 'failed' ELSE 'processing' END $$`,
    `CREATE FUNCTION uae_summary_status(reporting text, exchange text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
       SELECT CASE WHEN reporting = 'failed' OR exchange = 'failed' THEN 'attention'
                   WHEN reporting = 'reported' AND exchange = 'delivered' THEN 'completed' ELSE 'accepted' END $$`,
    `CREATE FUNCTION uae_feed_capture() RETURNS trigger LANGUAGE plpgsql AS $$
     DECLARE
       reporting text := uae_reporting_status(NEW.report_state);
       exchange text := uae_exchange_status(NEW.direction, NEW.delivery_status);
       was_reporting text;
       was_exchange text;
       kind text;
     BEGIN
       IF TG_OP = 'INSERT' THEN
         kind := CASE WHEN NEW.direction = 'incoming' THEN 'document.received' ELSE 'document.accepted' END;
       ELSE
         was_reporting := uae_reporting_status(OLD.report_state);
         was_exchange := uae_exchange_status(OLD.direction, OLD.delivery_status);
         IF was_reporting = reporting AND was_exchange = exchange THEN RETURN NULL; END IF;
         kind := CASE WHEN (reporting = 'failed' AND was_reporting <> 'failed') OR (exchange = 'failed' AND was_exchange <> 'failed') THEN 'document.failed'
                      WHEN reporting = 'reported' AND was_reporting <> 'reported' THEN 'document.reported'
                      WHEN exchange = 'delivered' AND was_exchange <> 'delivered' THEN 'document.delivered'
                      ELSE 'document.accepted' END;
       END IF;
       INSERT INTO uae_feed_events (supplier_id, direction, document_id, document_identifier, type, status, reporting, exchange)
       VALUES (NEW.supplier_id, NEW.direction, NEW.id, NEW.fields->>'document_identifier', kind,
               uae_summary_status(reporting, exchange), jsonb_build_object('status', reporting), jsonb_build_object('status', exchange));
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER uae_feed AFTER INSERT OR UPDATE ON documents FOR EACH ROW WHEN (NEW.area = 'ae') EXECUTE FUNCTION uae_feed_capture()`,
  ],
  down: [
    `DROP TRIGGER uae_feed ON documents`,
    `DROP FUNCTION uae_feed_capture()`,
    `DROP FUNCTION uae_summary_status(text, text)`,
    `DROP FUNCTION uae_exchange_status(text, text)`,
    `DROP FUNCTION uae_reporting_status(text)`,
    `DROP TABLE uae_feed_positions`,
    `DROP TABLE uae_feed_events`,
  ],
};

/**
 * The documents list's order (`…/documents?since_id=`): each UAE document's position when its row was
 * written, (xid, seq) as in the feeds, so a page read below the oldest running transaction never
 * skips a document that commits late.
 */
const documentOrder: SqlMigration = {
  name: 'UaeDocumentOrder1732200001103',
  up: [
    `CREATE TABLE uae_document_order (
       seq          bigserial  NOT NULL,
       xid          xid8       NOT NULL DEFAULT pg_current_xact_id(),
       supplier_id  uuid       NOT NULL,
       direction    text       NOT NULL,
       document_id  uuid       NOT NULL UNIQUE,
       PRIMARY KEY (supplier_id, direction, xid, seq)
     )`,
    `CREATE FUNCTION uae_document_order_capture() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       INSERT INTO uae_document_order (supplier_id, direction, document_id) VALUES (NEW.supplier_id, NEW.direction, NEW.id);
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER uae_document_order AFTER INSERT ON documents FOR EACH ROW WHEN (NEW.area = 'ae') EXECUTE FUNCTION uae_document_order_capture()`,
  ],
  down: [`DROP TRIGGER uae_document_order ON documents`, `DROP FUNCTION uae_document_order_capture()`, `DROP TABLE uae_document_order`],
};

/** Attachments moved to the platform's `document_attachments` (one mechanism for every area that detaches them). */
const sharedAttachments: SqlMigration = {
  name: 'UaeAttachmentsShared1732200001104',
  up: [`DROP TABLE uae_attachments`],
  down: [`CREATE TABLE uae_attachments (document_id uuid NOT NULL, index integer NOT NULL, filename text NOT NULL, mime_code text NOT NULL,
          size_bytes integer NOT NULL, content bytea NOT NULL, PRIMARY KEY (document_id, index))`],
};

export const uaeMigrations: readonly SqlMigration[] = [documentNumbers, attachments, feeds, documentOrder, sharedAttachments];
