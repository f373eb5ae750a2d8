import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 11: a `documents` row is written once with its large columns (the submitted `fields`, the
 * rendered `xml`, ~5 KB of JSON and XML) and then updated several times for its state (delivered,
 * reported...). With PostgreSQL's defaults those columns stay inline (compressed under ~2 KB), so
 * every state change wrote the whole row again, and a full page left no room for a HOT update.
 * `toast_tuple_target = 256` moves them out of line (an update copies an 18-byte pointer), and
 * `fillfactor = 85` leaves room on each page for the new version of its rows (HOT: no index writes).
 * Rows written before keep their layout until they are next rewritten.
 */
export class DocumentsSmallRows1732200000028 implements MigrationInterface {
  name = 'DocumentsSmallRows1732200000028';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE documents SET (toast_tuple_target = 256, fillfactor = 85)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE documents RESET (toast_tuple_target, fillfactor)`);
  }
}
