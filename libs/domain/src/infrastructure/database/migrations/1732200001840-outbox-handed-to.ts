import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An outbox row names the relay its event's data text was handed to as its unit of work committed
 * (issue 11, event-texts.ts): that relay's read does not turn the stored jsonb back into text for
 * it. It chose its rows by a list of the event ids it held texts for, sent with every read, and a
 * row committed while the read was on its way was not in the list: ~55% of the submissions were
 * read back from PostgreSQL all the same.
 *
 * NULL: no relay was handed the text (a worker's event, a relay that did not lead, a row written
 * before this column): read from the event as before.
 */
export class OutboxHandedTo1732200001840 implements MigrationInterface {
  name = 'OutboxHandedTo1732200001840';

  async up(q: QueryRunner): Promise<void> {
    // Nullable, no default: a catalog change, not a rewrite of the table.
    await q.query(`ALTER TABLE outbox ADD COLUMN handed_to text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox DROP COLUMN handed_to`);
  }
}
