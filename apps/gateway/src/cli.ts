import 'reflect-metadata';
import { createDataSource, createKafka, ensureTopics, loadInfrastructureConfig, migrate } from '@einvoice/domain/infrastructure';
import { createTenant } from './auth/api-keys';

/**
 * Operator commands (`npm run --silent cli -- <command>`). stdout carries only the answer
 * (an API key, for instance) so that scripts can capture it; everything else goes to stderr.
 *
 *   tenants create <name>   create a tenant and print its new API key
 *   migrate                 create the database if missing and apply pending migrations
 *   topics                  create the Kafka topics (idempotent)
 */
async function main(argv: string[]): Promise<void> {
  const config = loadInfrastructureConfig();
  const [command, sub, ...rest] = argv;
  if (command === 'migrate') {
    const applied = await migrate(config.databaseUrl);
    process.stderr.write(applied.length ? `applied migrations: ${applied.join(', ')}\n` : 'database schema is up to date\n');
    return;
  }
  if (command === 'reset-test-database') {
    // Only ever a database whose name ends in _test: this drops everything in it.
    const url = new URL(config.databaseUrl);
    const name = decodeURIComponent(url.pathname.slice(1));
    if (!name.endsWith('_test')) throw new Error(`refusing to reset ${name}: not a *_test database`);
    url.pathname = '/postgres';
    const admin = createDataSource({ databaseUrl: url.toString(), poolSize: 1, applicationName: 'einvoice-cli' });
    await admin.initialize();
    try {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await admin.destroy();
    }
    return;
  }
  if (command === 'topics') {
    const kafka = createKafka({ ...config, kafkaClientId: 'einvoice-cli' });
    await ensureTopics(kafka, config.kafkaPrefix);
    return;
  }
  if (command === 'tenants' && sub === 'create') {
    const name = rest.join(' ').trim();
    if (!name) throw new Error('usage: tenants create <name>');
    const dataSource = createDataSource({ databaseUrl: config.databaseUrl, poolSize: 1, applicationName: 'einvoice-cli' });
    await dataSource.initialize();
    try {
      const { apiKey } = await createTenant(dataSource, name);
      process.stdout.write(`${apiKey}\n`);
    } finally {
      await dataSource.destroy();
    }
    return;
  }
  throw new Error(`unknown command "${argv.join(' ')}"; commands: tenants create <name> | migrate | topics`);
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
