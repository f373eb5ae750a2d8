import type { SqlMigration } from '@einvoice/domain';

/**
 * The sandbox AFIP's state (sandbox-wsfe.ts), shared by every process as AFIP's would be: the last
 * authorised number and date per sequence (CUIT, point of sale, voucher type), and the authorised vouchers
 * with their CAE.
 */
export const afipSandbox: SqlMigration = {
  name: 'AfipSandbox1732200001600',
  up: [
    `CREATE TABLE afip_sandbox_sequences (
       cuit       text     NOT NULL,
       pto_vta    integer  NOT NULL,
       cbte_tipo  integer  NOT NULL,
       last       integer  NOT NULL,
       last_date  text,
       PRIMARY KEY (cuit, pto_vta, cbte_tipo)
     )`,
    `CREATE TABLE afip_sandbox_vouchers (
       cuit         text         NOT NULL,
       pto_vta      integer      NOT NULL,
       cbte_tipo    integer      NOT NULL,
       cbte_nro     integer      NOT NULL,
       cae          text         NOT NULL,
       cae_vto      text         NOT NULL,
       fch_proceso  text         NOT NULL,
       request      jsonb        NOT NULL,
       created_at   timestamptz  NOT NULL DEFAULT now(),
       PRIMARY KEY (cuit, pto_vta, cbte_tipo, cbte_nro)
     )`,
  ],
  down: [`DROP TABLE afip_sandbox_vouchers`, `DROP TABLE afip_sandbox_sequences`],
};

/**
 * AFIP's access tickets (live mode, live/access-tickets.ts), one per certificate and service, shared by
 * every process: the ticket sealed (token and sign), when it expires, and who is renewing it until when
 * (so WSAA is never asked twice at once), with the last renewal's error.
 */
export const afipAccessTickets: SqlMigration = {
  name: 'AfipAccessTickets1732200001700',
  up: [
    `CREATE TABLE afip_access_tickets (
       certificate     text         NOT NULL,
       service         text         NOT NULL,
       ticket          text,
       expires_at      timestamptz,
       renewing_until  timestamptz,
       last_error      text,
       PRIMARY KEY (certificate, service)
     )`,
  ],
  down: [`DROP TABLE afip_access_tickets`],
};

/**
 * The numbers the connector tried for vouchers sent without them (voucher-numbers.ts), one row per report
 * (live and sandbox): after a lost answer AFIP is asked about that number before any other is tried.
 */
export const afipVoucherNumbers: SqlMigration = {
  name: 'AfipVoucherNumbers1732200001701',
  up: [
    `CREATE TABLE afip_voucher_numbers (
       report_id   text         PRIMARY KEY,
       cuit        text         NOT NULL,
       pto_vta     integer      NOT NULL,
       cbte_tipo   integer      NOT NULL,
       cbte_desde  integer      NOT NULL,
       claimed_at  timestamptz  NOT NULL DEFAULT now()
     )`,
  ],
  down: [`DROP TABLE afip_voucher_numbers`],
};
