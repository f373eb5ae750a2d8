import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dead-lettered messages an operator replayed (`cli dlq replay <id>`, id = `partition:offset` of the
 * dead-letter topic): a replay is sent once; asked again it says when it was (README "Operating it").
 */
export class DeadLetterReplays1732200000033 implements MigrationInterface {
  name = 'DeadLetterReplays1732200000033';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dead_letter_replays (
        topic         text         NOT NULL,
        message_id    text         NOT NULL,
        event_id      uuid,
        requested_at  timestamptz  NOT NULL DEFAULT now(),
        replayed_at   timestamptz,
        PRIMARY KEY (topic, message_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE dead_letter_replays`);
  }
}
