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
