/**
 * The Malaysian area's tables, in order (names and timestamps as first released: the migration
 * table knows them by name). Run with the platform's migrations (registry, data-source.ts).
 */
import type { SqlMigration } from '@einvoice/domain';

/**
 * Read model of documents submitted to MyInvois (#4), projected from the `myinvois-<id>`
 * submission streams. One ID per supplier while it is alive at the authority: a rejected or
 * invalid document frees its ID for a corrected resubmission (as DV302 does at MyInvois).
 */
const myInvoisDocuments: SqlMigration = {
  name: 'MyInvoisDocuments1732200000006',
  up: [
    `
      CREATE TABLE myinvois_documents (
        id                   uuid         PRIMARY KEY,
        submission_id        uuid         NOT NULL,
        tenant_id            uuid         NOT NULL,
        supplier_id          uuid         NOT NULL,
        kind                 text         NOT NULL,
        invoice_code_number  text         NOT NULL,
        document_hash        text         NOT NULL,
        state                text         NOT NULL,
        uuid                 text,
        long_id              text,
        submission_uid       text,
        error                jsonb,
        created_at           timestamptz  NOT NULL,
        updated_at           timestamptz  NOT NULL,
        version              integer      NOT NULL
      )`,
    `CREATE INDEX myinvois_documents_submission_idx ON myinvois_documents (submission_id)`,
    `CREATE INDEX myinvois_documents_uuid_idx ON myinvois_documents (uuid)`,
    `
      CREATE UNIQUE INDEX myinvois_documents_supplier_number_key ON myinvois_documents (supplier_id, invoice_code_number)
      WHERE state NOT IN ('rejected', 'invalid', 'cancelled')`,
  ],
  down: [
    `DROP TABLE myinvois_documents`,
  ],
};

/**
 * `transport_mode: peppol` on a MyInvois submission: the id of the document's PINT MY copy in the
 * `documents` read model (its Peppol delivery), null when it did not go over Peppol.
 */
const myInvoisPeppolLink: SqlMigration = {
  name: 'MyInvoisPeppolLink1732200000007',
  up: [
    `ALTER TABLE myinvois_documents ADD COLUMN peppol_document_id uuid`,
  ],
  down: [
    `ALTER TABLE myinvois_documents DROP COLUMN peppol_document_id`,
  ],
};

/**
 * What the MyInvois sandbox (MYINVOIS_MODE=sandbox) keeps, as MyInvois itself would: one state
 * for every process of a stack, so a restarted reporting worker polls, cancels and recovers what
 * its predecessor submitted, and a token the gateway got works in the worker
 * (libs/areas/src/myinvois/connector/sandbox-state-postgres.ts holds the SQL). Instants the
 * sandbox decides with its own clock are epoch milliseconds (`bigint`).
 */
const myInvoisSandbox: SqlMigration = {
  name: 'MyInvoisSandbox1732200000008',
  up: [
    `
      CREATE TABLE myinvois_sandbox_tokens (
        access_token      text    PRIMARY KEY,
        client_id         text    NOT NULL,
        on_behalf_of_tin  text    NOT NULL,
        expires_at        bigint  NOT NULL
      )`,
    `CREATE INDEX myinvois_sandbox_tokens_expires_at ON myinvois_sandbox_tokens (expires_at)`,
    `
      CREATE TABLE myinvois_sandbox_submissions (
        submission_uid      text       PRIMARY KEY,
        client_id           text       NOT NULL,
        date_time_received  text       NOT NULL,
        received_at         bigint     NOT NULL,
        seq                 bigserial  NOT NULL
      )`,
    `CREATE INDEX myinvois_sandbox_submissions_client ON myinvois_sandbox_submissions (client_id, received_at)`,
    `
      CREATE TABLE myinvois_sandbox_documents (
        uuid            text       PRIMARY KEY,
        submission_uid  text       NOT NULL REFERENCES myinvois_sandbox_submissions (submission_uid),
        seq             bigserial  NOT NULL,
        duplicate_key   text       NOT NULL,
        validates_at    bigint     NOT NULL,
        becomes_valid   boolean    NOT NULL,
        polled          boolean    NOT NULL DEFAULT false,
        version         integer    NOT NULL DEFAULT 0,
        summary         jsonb      NOT NULL
      )`,
    `CREATE INDEX myinvois_sandbox_documents_submission ON myinvois_sandbox_documents (submission_uid, seq)`,
    `CREATE INDEX myinvois_sandbox_documents_receiver ON myinvois_sandbox_documents ((summary->>'receiverId'))`,
    `
      CREATE TABLE myinvois_sandbox_duplicate_keys (
        duplicate_key  text  PRIMARY KEY,
        uuid           text  NOT NULL
      )`,
  ],
  down: [
    `DROP TABLE myinvois_sandbox_duplicate_keys`,
    `DROP TABLE myinvois_sandbox_documents`,
    `DROP TABLE myinvois_sandbox_submissions`,
    `DROP TABLE myinvois_sandbox_tokens`,
  ],
};

/**
 * Buyer rejection done the MyInvois way (SDK "04 reject document"): issued documents remember
 * when they were validated (the rejection-watch scans those validated less than 72 h ago) and
 * the buyer's rejection once seen; `myinvois_rejections` holds the rejections our onboarded
 * buyers asked for (`POST /api/einvoice/received/{uuid}/reject`), from `myinvois-rejection-<id>` streams.
 */
const myInvoisBuyerRejection: SqlMigration = {
  name: 'MyInvoisBuyerRejection1732200000009',
  up: [
    `
      ALTER TABLE myinvois_documents
        ADD COLUMN validated_at           timestamptz,
        ADD COLUMN rejection_reason       text,
        ADD COLUMN rejection_requested_at timestamptz`,
    `
      UPDATE myinvois_documents m SET validated_at = (e.data->>'validatedAt')::timestamptz
      FROM events e WHERE e.type = 'MyInvoisDocumentValidated' AND e.data->>'documentId' = m.id::text`,
    `CREATE INDEX myinvois_documents_watch_idx ON myinvois_documents (validated_at) WHERE state = 'valid'`,
    `
      CREATE TABLE myinvois_rejections (
        id            uuid         PRIMARY KEY,
        tenant_id     uuid         NOT NULL,
        supplier_id   uuid         NOT NULL,
        uuid          text         NOT NULL,
        state         text         NOT NULL,
        reason        text         NOT NULL,
        error         jsonb,
        error_kind    text,
        requested_at  timestamptz  NOT NULL,
        answered_at   timestamptz,
        version       integer      NOT NULL
      )`,
    `CREATE UNIQUE INDEX myinvois_rejections_supplier_uuid_key ON myinvois_rejections (supplier_id, uuid)`,
  ],
  down: [
    `DROP TABLE myinvois_rejections`,
    `DROP INDEX myinvois_documents_watch_idx`,
    `ALTER TABLE myinvois_documents DROP COLUMN validated_at, DROP COLUMN rejection_reason, DROP COLUMN rejection_requested_at`,
  ],
};

/**
 * The PINT MY copy of a MyInvois document leaves only once MyInvois says Valid: until then its
 * state is `awaiting_validation`, then `released`; a copy that never leaves is `withheld`, with the reason
 * (`peppol_reason`: invalid, rejected, ID already sent over Peppol). Null for documents without a
 * copy and for schema-1 documents whose copy left at submission (the `documents` row tells).
 */
const myInvoisPeppolRelease: SqlMigration = {
  name: 'MyInvoisPeppolRelease1732200000010',
  up: [
    `ALTER TABLE myinvois_documents ADD COLUMN peppol_state text, ADD COLUMN peppol_reason jsonb`,
  ],
  down: [
    `ALTER TABLE myinvois_documents DROP COLUMN peppol_state, DROP COLUMN peppol_reason`,
  ],
};

/**
 * The reporting worker's stale sweep looks for documents still waiting: not yet answered by
 * MyInvois (`pending`: their submission event dead-lettered or never handled) or accepted but not
 * validated after the polls (`submitted`): a partial index keeps that look cheap however many
 * documents the table holds.
 */
const myInvoisWaitingIndex: SqlMigration = {
  name: 'MyInvoisWaitingIndex1732200000011',
  up: [
    `UPDATE myinvois_documents SET state = 'valid' WHERE state = 'rejecting'`,
    `CREATE INDEX myinvois_documents_waiting_idx ON myinvois_documents (updated_at) WHERE state IN ('pending', 'submitted')`,
  ],
  down: [
    `DROP INDEX myinvois_documents_waiting_idx`,
  ],
};

/**
 * Copies that left at submission (MyInvoisDocumentsSubmitted schema 1) are `released`, as their
 * upcast event now says (domain/submission/schema.ts): the read model no longer tells them apart.
 */
const myInvoisPeppolSentAtSubmission: SqlMigration = {
  name: 'MyInvoisPeppolSentAtSubmission1732200000017',
  up: [`UPDATE myinvois_documents SET peppol_state = 'released' WHERE peppol_document_id IS NOT NULL AND peppol_state IS NULL`],
  down: [],
};

/**
 * Poll timing from the read model (#8): `next_poll_at`, when the reporting worker's poll sweep asks
 * Get Submission again about a document still `submitted` (null: the chain of polls is over; the
 * stale sweep asks later). Documents already waiting are due at once.
 */
const myInvoisNextPoll: SqlMigration = {
  name: 'MyInvoisNextPoll1732200000018',
  up: [
    `ALTER TABLE myinvois_documents ADD COLUMN next_poll_at timestamptz`,
    `UPDATE myinvois_documents SET next_poll_at = updated_at WHERE state = 'submitted'`,
    `CREATE INDEX myinvois_documents_next_poll_idx ON myinvois_documents (next_poll_at) WHERE state = 'submitted' AND next_poll_at IS NOT NULL`,
  ],
  down: [`DROP INDEX myinvois_documents_next_poll_idx`, `ALTER TABLE myinvois_documents DROP COLUMN next_poll_at`],
};

/**
 * Per-client-id submission scheduling (#9 fair sharing): `next_submit_at`, when the reporting
 * worker's submit sweep tries again a submission MyInvois turned away with a 429 (set by
 * MyInvoisSubmissionDeferred; the document stays `pending`).
 */
const myInvoisNextSubmit: SqlMigration = {
  name: 'MyInvoisNextSubmit1732200000022',
  up: [
    `ALTER TABLE myinvois_documents ADD COLUMN next_submit_at timestamptz`,
    `CREATE INDEX myinvois_documents_next_submit_idx ON myinvois_documents (next_submit_at) WHERE state = 'pending' AND next_submit_at IS NOT NULL`,
  ],
  down: [`DROP INDEX myinvois_documents_next_submit_idx`, `ALTER TABLE myinvois_documents DROP COLUMN next_submit_at`],
};

/** Every MyInvois migration, oldest first. */
export const myInvoisMigrations: readonly SqlMigration[] = [myInvoisDocuments, myInvoisPeppolLink, myInvoisSandbox, myInvoisBuyerRejection, myInvoisPeppolRelease, myInvoisWaitingIndex, myInvoisPeppolSentAtSubmission, myInvoisNextPoll, myInvoisNextSubmit];
