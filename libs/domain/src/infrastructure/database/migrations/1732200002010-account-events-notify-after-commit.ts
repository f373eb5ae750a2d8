import { MigrationInterface, QueryRunner } from 'typeorm';

const NOTIFY = `PERFORM pg_notify('account_events', '');`;

/**
 * The `account_events` trigger no longer sends `pg_notify('account_events')` inside the writing transaction (#48).
 * A NOTIFY takes a database-wide lock from the notifying statement to the end of the commit, WAL flush included, so
 * every transaction that wrote a document committed one at a time behind the others' fsync (`Lock:object` waits in
 * the bench; issue 11 found the same for the outbox's wake-up and moved it after the commit). The projections that
 * write `documents` announce `account_events` instead (`ACCOUNT_EVENTS_CHANNEL`, sent by the event store after the
 * commit); a writer outside them is found by the dispatcher's tail at its next look (`WEBHOOK_ACCOUNT_INTERVAL_MS`).
 *
 * The function is migration 1732200001980's, edited as PostgreSQL holds it (`pg_get_functiondef`), not a second copy
 * of its body.
 */
export class AccountEventsNotifyAfterCommit1732200002010 implements MigrationInterface {
  name = 'AccountEventsNotifyAfterCommit1732200002010';

  async up(q: QueryRunner): Promise<void> {
    const definition = await captureFunction(q);
    if (!definition.includes(NOTIFY)) throw new Error(`account_event_capture() has no "${NOTIFY}" to take out: not migration 1732200001980's function`);
    await q.query(definition.replace(NOTIFY, ''));
  }

  async down(q: QueryRunner): Promise<void> {
    const definition = await captureFunction(q);
    const end = definition.lastIndexOf('RETURN NULL;');
    await q.query(`${definition.slice(0, end)}${NOTIFY}\n  ${definition.slice(end)}`);
  }
}

/** `CREATE OR REPLACE FUNCTION ...` of the trigger function as PostgreSQL holds it. */
async function captureFunction(q: QueryRunner): Promise<string> {
  const [row] = await q.query(`SELECT pg_get_functiondef('account_event_capture()'::regprocedure) AS definition`);
  return row.definition as string;
}
