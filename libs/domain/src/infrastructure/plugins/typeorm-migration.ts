import type { MigrationInterface, QueryRunner } from 'typeorm';
import type { SqlMigration } from '../../plugin';

/** A plug-in's SQL migration as the TypeORM migration class its migration table expects. */
export function typeOrmMigration(migration: SqlMigration): new () => MigrationInterface {
  const Migration = class implements MigrationInterface {
    name = migration.name;
    async up(q: QueryRunner): Promise<void> {
      for (const sql of migration.up) await q.query(sql);
    }
    async down(q: QueryRunner): Promise<void> {
      for (const sql of migration.down) await q.query(sql);
    }
  };
  Object.defineProperty(Migration, 'name', { value: migration.name });
  return Migration;
}
