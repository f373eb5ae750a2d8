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
