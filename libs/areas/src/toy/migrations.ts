import type { SqlMigration } from '@einvoice/domain';

/** The toy authority's sandbox state (sandbox-authority.ts). */
export const toySandbox: SqlMigration = {
  name: 'ToySandbox1732200000900',
  up: [
    `CREATE SEQUENCE toy_authority_receipt_seq`,
    `CREATE TABLE toy_authority_documents (
       report_id       uuid         PRIMARY KEY,
       tax_id          text         NOT NULL,
       number          text         NOT NULL,
       receipt_number  text         NOT NULL,
       accepted_at     timestamptz  NOT NULL DEFAULT now(),
       UNIQUE (tax_id, number)
     )`,
    `CREATE TABLE toy_authority_calls (report_id uuid PRIMARY KEY, calls integer NOT NULL)`,
  ],
  down: [`DROP TABLE toy_authority_calls`, `DROP TABLE toy_authority_documents`, `DROP SEQUENCE toy_authority_receipt_seq`],
};

/** Verdicts by poll and cancellations (sandbox-authority.ts `poll`, `cancel`). */
export const toySandboxVerdicts: SqlMigration = {
  name: 'ToySandboxVerdicts1732200000901',
  up: [`ALTER TABLE toy_authority_documents ADD COLUMN polls integer NOT NULL DEFAULT 0, ADD COLUMN cancelled_at timestamptz`],
  down: [`ALTER TABLE toy_authority_documents DROP COLUMN polls, DROP COLUMN cancelled_at`],
};
