import 'reflect-metadata';
import path from 'node:path';
import {
  capturedMails,
  createDataSource,
  createKafka,
  ensureTopics,
  loadInfrastructureConfig,
  migrate,
  parkedOutboxRows,
  platformEventRegistry,
  pruneBookkeeping,
  releaseParkedRows,
  retentionWindowsFromEnv,
} from '@einvoice/domain/infrastructure';
import { areaEventPlugins } from '@einvoice/areas';
import { createTenant } from './auth/api-keys';
import { createOAuthClient } from './auth/oauth-clients';

/**
 * Operator commands (`npm run --silent cli -- <command>`). stdout carries only the answer
 * (an API key, for instance) so that scripts can capture it; everything else goes to stderr.
 *
 *   tenants create <name>   create a tenant and print its new API key
 *   clients create <tenant name>  create an OAuth client of that tenant and print `client_id client_secret`
 *   migrate                 create the database if missing and apply pending migrations
 *   topics                  create the Kafka topics, or raise their max.message.bytes (idempotent)
 *   outbox parked           list the outbox rows the broker refused (JSON lines)
 *   outbox release [id...]  put parked rows (all, or these) back in line for the relay
 *   retention run           prune published outbox rows, processed-event marks and idempotency keys past their windows
 *   mail list               the mails the local capture mailbox received, one JSON line each {to, subject, text, link, sent_at}
 */
async function main(argv: string[]): Promise<void> {
  const config = loadInfrastructureConfig();
  const [command, sub, ...rest] = argv;
  if (command === 'mail' && sub === 'list') {
    // The capture mailbox `npm start` runs without SMTP_URL (apps/gateway/src/mail/mail-capture.ts).
    const file = process.env.MAIL_CAPTURE_FILE ?? path.resolve('.run', 'mail', 'captured.jsonl');
    for (const mail of capturedMails(file)) process.stdout.write(`${JSON.stringify(mail)}\n`);
    return;
  }
  if (command === 'migrate') {
    const applied = await migrate(config.databaseUrl, platformEventRegistry(areaEventPlugins()).migrations);
    process.stderr.write(applied.length ? `applied migrations: ${applied.join(', ')}\n` : 'database schema is up to date\n');
    return;
  }
  if (command === 'retention' && sub === 'run') {
    const dataSource = createDataSource({ databaseUrl: config.databaseUrl, poolSize: 1, applicationName: 'einvoice-cli' });
    await dataSource.initialize();
    try {
      process.stdout.write(`${JSON.stringify(await pruneBookkeeping(dataSource, retentionWindowsFromEnv()))}\n`);
    } finally {
      await dataSource.destroy();
    }
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
    const raised = await ensureTopics(kafka, config.kafkaPrefix, { maxMessageBytes: config.kafkaMaxMessageBytes });
    if (raised.length) process.stderr.write(`raised max.message.bytes to ${config.kafkaMaxMessageBytes} on ${raised.join(', ')}\n`);
    return;
  }
  if (command === 'outbox' && (sub === 'parked' || sub === 'release')) {
    const dataSource = createDataSource({ databaseUrl: config.databaseUrl, poolSize: 1, applicationName: 'einvoice-cli' });
    await dataSource.initialize();
    try {
      if (sub === 'parked') {
        const { rows } = await parkedOutboxRows(dataSource, config.kafkaPrefix, 1000);
        for (const row of rows) process.stdout.write(`${JSON.stringify(row)}\n`);
      } else {
        if (rest.some((id) => !/^\d+$/.test(id))) throw new Error('usage: outbox release [outbox row id...]');
        const released = await releaseParkedRows(dataSource, config.kafkaPrefix, rest.length ? rest : undefined);
        process.stderr.write(released.length ? `released outbox rows ${released.join(', ')}\n` : 'no parked outbox rows\n');
      }
    } finally {
      await dataSource.destroy();
    }
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
  if (command === 'clients' && sub === 'create') {
    const name = rest.join(' ').trim();
    if (!name) throw new Error('usage: clients create <tenant name>');
    const dataSource = createDataSource({ databaseUrl: config.databaseUrl, poolSize: 1, applicationName: 'einvoice-cli' });
    await dataSource.initialize();
    try {
      const tenants: Array<{ id: string }> = await dataSource.query(`SELECT id FROM tenants WHERE name = $1`, [name]);
      if (tenants.length !== 1) throw new Error(tenants.length ? `${tenants.length} tenants are named "${name}"` : `no tenant named "${name}"`);
      const client = await createOAuthClient((sql, parameters) => dataSource.query(sql, parameters), tenants[0].id);
      process.stdout.write(`${client.client_id} ${client.client_secret}\n`);
    } finally {
      await dataSource.destroy();
    }
    return;
  }
  throw new Error(`unknown command "${argv.join(' ')}"; commands: tenants create <name> | clients create <tenant name> | migrate | topics | outbox parked | outbox release [id...]`);
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
