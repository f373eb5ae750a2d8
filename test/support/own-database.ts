/**
 * A database and topic prefix of its own for one part of a test run (`<the run's database>_<name>_test`,
 * `<the run's prefix><name>`), reset, migrated and with its topics: for what must not meet the rest of
 * the run (a second Peppol installation; literal identifiers such as the README's, which other tests may use).
 */
import { runCli, testEnv } from './stack';

export interface OwnDatabase {
  readonly databaseUrl: string;
  /** DATABASE_URL and KAFKA_TOPIC_PREFIX of its own, for the apps and the CLI. */
  readonly env: Record<string, string>;
}

export function ownDatabase(name: string): OwnDatabase {
  const base = testEnv();
  const databaseUrl = String(base.DATABASE_URL).replace(/(_test)?$/, `_${name}_test`);
  return { databaseUrl, env: { DATABASE_URL: databaseUrl, KAFKA_TOPIC_PREFIX: `${base.KAFKA_TOPIC_PREFIX ?? 'test'}${name}` } };
}

/** Resets, migrates and creates the topics of the database and prefix `env` names. */
export function prepareOwnDatabase(env: NodeJS.ProcessEnv, name: string): void {
  for (const command of [['reset-test-database'], ['migrate'], ['topics']]) {
    const run = runCli(command, env);
    if (run.status !== 0) throw new Error(`${command[0]} for ${name}: ${run.stderr}`);
  }
}
