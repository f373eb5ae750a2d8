import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The large values PostgreSQL compresses (TOAST, past ~2 KB) compressed with LZ4 instead of pglz
 * (issue 11): an event's data carries its document (the bench's BE invoice: 5.3 KB of JSON, its UBL
 * included; 2.4 KB stored with LZ4), a document's fields past ~2 KB for a large invoice, and under the
 * end-to-end load `pglz_compress` alone was 7% of PostgreSQL's CPU (`perf record -a -g`), plus
 * `pglz_decompress` for the relay reading each event back. LZ4 compresses about as small at a fraction
 * of the CPU. New values only: those already stored stay as they are, readable either way. A server
 * built without LZ4 keeps pglz.
 */
export class Lz4Payloads1732200001820 implements MigrationInterface {
  name = 'Lz4Payloads1732200001820';

  async up(q: QueryRunner): Promise<void> {
    if (!(await hasLz4(q))) return;
    await q.query(`ALTER TABLE events ALTER COLUMN data SET COMPRESSION lz4`);
    await q.query(`ALTER TABLE documents ALTER COLUMN fields SET COMPRESSION lz4`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE documents ALTER COLUMN fields SET COMPRESSION default`);
    await q.query(`ALTER TABLE events ALTER COLUMN data SET COMPRESSION default`);
  }
}

async function hasLz4(q: QueryRunner): Promise<boolean> {
  const [row]: Array<{ lz4: boolean }> = await q.query(`SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`);
  return row?.lz4 === true;
}
