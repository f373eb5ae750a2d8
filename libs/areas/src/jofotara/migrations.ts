import type { SqlMigration } from '@einvoice/domain';

/**
 * The sandbox JoFotara's state (sandbox-jofotara.ts), shared by every process of a stack as the
 * portal's would be: the invoices it took per taxpayer (its duplicate key, ID + UUID), their number,
 * QR and signed copy, the quantities sold and returned per line; its EINV_NUM counters; the calls per
 * report (failure injection).
 */
export const jofotaraSandbox: SqlMigration = {
  name: 'JofotaraSandbox1732200001400',
  up: [
    `CREATE TABLE jofotara_sandbox_invoices (
       tin         text         NOT NULL,
       invoice_id  text         NOT NULL,
       uuid        text         NOT NULL,
       number      text         NOT NULL,
       qr          text         NOT NULL,
       signed      text         NOT NULL,
       type_code   text         NOT NULL,
       lines       jsonb        NOT NULL,
       returned    jsonb        NOT NULL DEFAULT '{}',
       created_at  timestamptz  NOT NULL DEFAULT now(),
       PRIMARY KEY (tin, invoice_id)
     )`,
    `CREATE UNIQUE INDEX jofotara_sandbox_invoices_uuid ON jofotara_sandbox_invoices (tin, uuid)`,
    `CREATE TABLE jofotara_sandbox_counters (tin text PRIMARY KEY, last integer NOT NULL)`,
    `CREATE TABLE jofotara_sandbox_calls (report_id uuid PRIMARY KEY, calls integer NOT NULL)`,
  ],
  down: [`DROP TABLE jofotara_sandbox_calls`, `DROP TABLE jofotara_sandbox_counters`, `DROP TABLE jofotara_sandbox_invoices`],
};
