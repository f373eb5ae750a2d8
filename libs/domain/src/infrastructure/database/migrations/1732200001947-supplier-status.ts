import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Suppliers across areas (#47): whether a supplier still takes documents (`status`, set inactive by
 * SupplierDeactivated), when its profile last changed (SupplierUpdated), and the account-wide list's
 * order, newest first by `(created_at, id)` within a tenant (docs/account-api.md "Lists").
 */
export class SupplierStatus1732200001947 implements MigrationInterface {
  name = 'SupplierStatus1732200001947';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE suppliers ADD COLUMN status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive'))`);
    await q.query(`ALTER TABLE suppliers ADD COLUMN updated_at timestamptz`);
    await q.query(`CREATE INDEX suppliers_tenant_list_idx ON suppliers (tenant_id, created_at DESC, id DESC)`);
    // The list's index leads with tenant_id: the old one is its prefix.
    await q.query(`DROP INDEX suppliers_tenant_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX suppliers_tenant_idx ON suppliers (tenant_id)`);
    await q.query(`DROP INDEX suppliers_tenant_list_idx`);
    await q.query(`ALTER TABLE suppliers DROP COLUMN updated_at`);
    await q.query(`ALTER TABLE suppliers DROP COLUMN status`);
  }
}
