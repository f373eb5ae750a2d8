import type { SqlMigration } from '@einvoice/domain';

/**
 * The sandbox FTA's state (sandbox-fta.ts), shared by every process of a stack and kept across
 * restarts, as the FTA's would be: one row per reported document and role (a second report of it
 * gets the first one's answer), the messages that carried it, call counts for the failure markers,
 * and the failure switch (README.md "Reporting to the FTA").
 */
export const uaeFtaSandbox: SqlMigration = {
  name: 'UaeFtaSandbox1732200001110',
  up: [
    `CREATE SEQUENCE uae_fta_sandbox_reference_seq`,
    `CREATE TABLE uae_fta_sandbox_reports (
       reference        text         PRIMARY KEY,
       dedupe_key       text         NOT NULL UNIQUE,
       document_id      text,
       document_uuid    text,
       reporter_role    text,
       reporting_party  text,
       representative   text,
       seller_tax_id    text,
       tdd_sha256       text         NOT NULL,
       response_code    text         NOT NULL CHECK (response_code IN ('AP', 'AB', 'RE')),
       description      text,
       issues           jsonb        NOT NULL DEFAULT '[]',
       mls_id           uuid         NOT NULL,
       received_at      timestamptz  NOT NULL DEFAULT now(),
       mls_due_at       timestamptz  NOT NULL
     )`,
    `CREATE TABLE uae_fta_sandbox_messages (
       message_id   text         PRIMARY KEY,
       reference    text         NOT NULL REFERENCES uae_fta_sandbox_reports (reference),
       received_at  timestamptz  NOT NULL DEFAULT now()
     )`,
    `CREATE TABLE uae_fta_sandbox_calls (message_id text PRIMARY KEY, calls integer NOT NULL)`,
    `CREATE TABLE uae_fta_sandbox_faults (
       scope      text     PRIMARY KEY,
       kind       text     NOT NULL CHECK (kind IN ('unavailable', 'timeout')),
       remaining  integer  NOT NULL
     )`,
  ],
  down: [
    `DROP TABLE uae_fta_sandbox_faults`,
    `DROP TABLE uae_fta_sandbox_calls`,
    `DROP TABLE uae_fta_sandbox_messages`,
    `DROP TABLE uae_fta_sandbox_reports`,
    `DROP SEQUENCE uae_fta_sandbox_reference_seq`,
  ],
};

export const uaeFtaMigrations: readonly SqlMigration[] = [uaeFtaSandbox];
