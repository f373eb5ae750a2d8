import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A deleted tenant, or a changed API key, is announced on channel `tenant_key_revoked` (payload:
 * the old key's hash) from the transaction that makes the change: every gateway drops that key from
 * its cache at commit (apps/gateway/src/auth/tenant-keys.ts), so a revoked key stops working at once.
 */
export class TenantKeyRevocation1732200000020 implements MigrationInterface {
  name = 'TenantKeyRevocation1732200000020';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION tenant_key_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('tenant_key_revoked', OLD.api_key_hash);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER tenant_key_revoked AFTER DELETE OR UPDATE OF api_key_hash ON tenants
      FOR EACH ROW EXECUTE FUNCTION tenant_key_revoked()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER tenant_key_revoked ON tenants`);
    await q.query(`DROP FUNCTION tenant_key_revoked()`);
  }
}
