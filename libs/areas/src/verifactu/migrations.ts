import type { SqlMigration } from '@einvoice/domain';

/**
 * The sandbox AEAT's state (sandbox-aeat.ts), shared by every process of a stack as the AEAT's
 * would be: the records it holds per issuer and invoice, when each issuer may send next, and call
 * counts for failure injection.
 */
export const verifactuSandbox: SqlMigration = {
  name: 'VerifactuSandbox1732200001200',
  up: [
    `CREATE TABLE verifactu_sandbox_records (
       issuer_nif   text         NOT NULL,
       number       text         NOT NULL,
       issue_date   text         NOT NULL,
       report_id    uuid         NOT NULL UNIQUE,
       state        text         NOT NULL,
       hash         text         NOT NULL,
       csv          text         NOT NULL,
       error_code   text,
       received_at  timestamptz  NOT NULL DEFAULT now(),
       PRIMARY KEY (issuer_nif, number, issue_date)
     )`,
    `CREATE TABLE verifactu_sandbox_senders (issuer_nif text PRIMARY KEY, next_send_at timestamptz NOT NULL)`,
    `CREATE TABLE verifactu_sandbox_calls (report_id uuid PRIMARY KEY, calls integer NOT NULL)`,
  ],
  down: [`DROP TABLE verifactu_sandbox_calls`, `DROP TABLE verifactu_sandbox_senders`, `DROP TABLE verifactu_sandbox_records`],
};

/** Cancellation records the sandbox AEAT took (RegistroAnulacion), found again by report for `recover`. */
export const verifactuSandboxCancellations: SqlMigration = {
  name: 'VerifactuSandboxCancellations1732200001201',
  up: [
    `CREATE TABLE verifactu_sandbox_cancellations (
       report_id    uuid         PRIMARY KEY,
       issuer_nif   text         NOT NULL,
       number       text         NOT NULL,
       issue_date   text         NOT NULL,
       hash         text         NOT NULL,
       csv          text         NOT NULL,
       received_at  timestamptz  NOT NULL DEFAULT now()
     )`,
  ],
  down: [`DROP TABLE verifactu_sandbox_cancellations`],
};
