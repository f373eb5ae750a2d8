import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operators (#50, the console's Operations page and `/v1/operations/*`): people who look after the whole
 * installation, not an account. Their keys (`op_…`, `cli operators create <name>`) are kept as SHA-256
 * hashes only, as tenants' API keys are (32 random bytes: nothing to brute-force). A disabled operator's
 * key stops working at its next request: the gateway reads this table on each operator request (no cache;
 * operations routes are an operator's clicks, not a client's traffic).
 */
export class Operators1732200002000 implements MigrationInterface {
  name = 'Operators1732200002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE operators (
        id           uuid         PRIMARY KEY,
        name         text         NOT NULL UNIQUE,
        key_hash     text         NOT NULL UNIQUE,
        key_prefix   text         NOT NULL,
        created_at   timestamptz  NOT NULL DEFAULT now(),
        disabled_at  timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE operators`);
  }
}
