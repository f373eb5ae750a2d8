import type { SqlMigration } from '@einvoice/domain';

/**
 * The sandbox FIRS's state (sandbox-firs.ts), shared by every process of a stack as FIRS's would be: the
 * taxpayers it knows (their business and service ids), the IRNs it signed (once each) with their payment
 * status, its QR key pair (made once, kept), and the calls per IRN and step (failure injection).
 */
export const firsSandbox: SqlMigration = {
  name: 'FirsSandbox1732200001500',
  up: [
    `CREATE TABLE firs_sandbox_taxpayers (
       tin          text  PRIMARY KEY,
       email        text  NOT NULL,
       business_id  uuid  NOT NULL UNIQUE,
       service_id   text  NOT NULL
     )`,
    `CREATE TABLE firs_sandbox_signed (
       irn             text         PRIMARY KEY,
       business_id     uuid         NOT NULL,
       signed_at       timestamptz  NOT NULL,
       payment_status  text         NOT NULL,
       reference       text
     )`,
    `CREATE TABLE firs_sandbox_keys (id integer PRIMARY KEY, public_key text NOT NULL, private_key text NOT NULL, certificate text NOT NULL)`,
    `CREATE TABLE firs_sandbox_calls (irn text NOT NULL, step text NOT NULL, calls integer NOT NULL, PRIMARY KEY (irn, step))`,
  ],
  down: [`DROP TABLE firs_sandbox_calls`, `DROP TABLE firs_sandbox_keys`, `DROP TABLE firs_sandbox_signed`, `DROP TABLE firs_sandbox_taxpayers`],
};
