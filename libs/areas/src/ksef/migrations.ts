import type { SqlMigration } from '@einvoice/domain';

/**
 * The sandbox KSeF's state (sandbox-ksef.ts), shared by every process of a stack as KSeF's would be:
 * the invoices it took (by seller NIP, kind and number: KSeF's duplicate key), their hash, processing
 * state and KSeF number; the calls per report (failure injection) and per NIP (the limits).
 */
export const ksefSandbox: SqlMigration = {
  name: 'KsefSandbox1732200001300',
  up: [
    `CREATE TABLE ksef_sandbox_invoices (
       reference_number  text         PRIMARY KEY,
       report_id         uuid         NOT NULL UNIQUE,
       nip               text         NOT NULL,
       kind              text         NOT NULL,
       number            text         NOT NULL,
       invoice_hash      text         NOT NULL,
       state             text         NOT NULL,
       ksef_number       text,
       error_code        text,
       error_message     text,
       received_at       timestamptz  NOT NULL DEFAULT now(),
       UNIQUE (nip, kind, number)
     )`,
    `CREATE INDEX ksef_sandbox_invoices_hash ON ksef_sandbox_invoices (nip, invoice_hash)`,
    `CREATE TABLE ksef_sandbox_calls (report_id uuid PRIMARY KEY, calls integer NOT NULL)`,
    `CREATE TABLE ksef_sandbox_sends (nip text NOT NULL, sent_at timestamptz NOT NULL DEFAULT clock_timestamp())`,
    `CREATE INDEX ksef_sandbox_sends_nip ON ksef_sandbox_sends (nip, sent_at)`,
  ],
  down: [`DROP TABLE ksef_sandbox_sends`, `DROP TABLE ksef_sandbox_calls`, `DROP TABLE ksef_sandbox_invoices`],
};

/** KSeF checks an invoice while processing it (status 100), not when it takes it: the sandbox keeps the XML until then. */
export const ksefSandboxProcessing: SqlMigration = {
  name: 'KsefSandboxProcessing1732200001301',
  up: [`ALTER TABLE ksef_sandbox_invoices ADD COLUMN invoice_xml text`],
  down: [`ALTER TABLE ksef_sandbox_invoices DROP COLUMN invoice_xml`],
};
