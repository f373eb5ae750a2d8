/**
 * A database and topic prefix of its own for one part of a test run (`<the run's database>_<name>_test`,
 * `<the run's prefix><name>`), reset, migrated and with its topics: for what must not meet the rest of
 * the run (a second Peppol installation; literal identifiers such as the README's, which other tests may use).
 */
import { runCliAsync, testEnv } from './stack';

export interface OwnDatabase {
  readonly databaseUrl: string;
  /** DATABASE_URL and KAFKA_TOPIC_PREFIX of its own, for the apps and the CLI. */
  readonly env: Record<string, string>;
}

export function ownDatabase(name: string): OwnDatabase {
  const base = testEnv();
  const databaseUrl = ownDatabaseUrl(String(base.DATABASE_URL), name);
  return { databaseUrl, env: { DATABASE_URL: databaseUrl, KAFKA_TOPIC_PREFIX: `${base.KAFKA_TOPIC_PREFIX ?? 'test'}${name}` } };
}

/**
 * `<the run's database>_<name>_test`: named after the run's, so that runs beside each other (another
 * TEST_DATABASE_URL, or the whole suite's lanes, scripts/test.mjs) never reset each other's.
 */
export function ownDatabaseUrl(runDatabaseUrl: string, name: string): string {
  return runDatabaseUrl.replace(/(_test)?$/, `_${name}_test`);
}

const PREPARE = [['reset-test-database'], ['migrate'], ['topics']];

/**
 * Resets, migrates and creates the topics of the database and prefix `env` names. Without blocking the
 * event loop (what the test started meanwhile goes on), and the topics (the broker) at the same time as
 * the reset and the schema (PostgreSQL): they do not wait for each other.
 */
export async function prepareOwnDatabase(env: NodeJS.ProcessEnv, name: string): Promise<void> {
  const run = async (command: string[]) => {
    const { status, stderr } = await runCliAsync(command, env);
    if (status !== 0) throw new Error(`${command[0]} for ${name}: ${stderr}`);
  };
  await Promise.all([
    (async () => {
      await run(PREPARE[0]);
      await run(PREPARE[1]);
    })(),
    run(PREPARE[2]),
  ]);
}
