import 'reflect-metadata';
import path from 'node:path';
import {
  EventStore,
  capturedMails,
  createDataSource,
  createKafka,
  ensureTopics,
  eventStoreOptions,
  loadInfrastructureConfig,
  migrate,
  parkedOutboxRows,
  platformEventRegistry,
  pruneBookkeeping,
  releaseParkedRows,
  listDeadLetters,
  replayDeadLetter,
  retentionWindowsFromEnv,
  topicNames,
} from '@einvoice/domain/infrastructure';
import type { DataSource } from 'typeorm';
import { areaEventPlugins, registeredAreas } from '@einvoice/areas';
import { createLogger } from '@einvoice/domain';
import { createTenant } from './auth/api-keys';
import { createOAuthClient } from './auth/oauth-clients';
import { createOperator, disableOperator, listOperators } from './auth/operator-keys';
import { authorityErrorRates } from './operations/authority-error-rates';
import { authorityErrorsQuery } from './operations/operations-query';
import { durationMs, stuckDocuments } from './operations/stuck-documents';
import { runReportCarryOvers } from './operations/carry-over';
import { listReports, previewReports, reportingSettingsFromEnv, seatIdFromEnv, sendReports } from './operations/peppol-reports';

/**
 * Operator commands (`npm run --silent cli -- <command>`). stdout carries only the answer
 * (an API key, for instance) so that scripts can capture it; everything else goes to stderr.
 *
 *   tenants create <name>   create a tenant and print its new API key
 *   clients create <tenant name>  create an OAuth client of that tenant and print `client_id client_secret`
 *   operators create <name>  create an operator (#50: /v1/operations, the console's Operations page) and print its key once: JSON {id, name, api_key}
 *   operators list          the operators (JSON lines: id, name, key_prefix, created_at, disabled_at); never their keys
 *   operators disable <name>  disable an operator's key for good (its next request is a 401)
 *   authority errors [--window 1h]  per area, the documents its authority accepted and refused in the window, and the share refused (JSON lines)
 *   migrate                 create the database if missing, apply pending migrations, carry areas' earlier documents onto the reporting pipeline (once)
 *   topics                  create the Kafka topics, or raise their max.message.bytes (idempotent)
 *   outbox parked           list the outbox rows the broker refused (JSON lines)
 *   outbox release [id...]  put parked rows (all, or these) back in line for the relay
 *   openapi                 the OpenAPI document of the API (JSON on stdout), as /docs-json serves it; no stack needed
 *   openapi --gaps [tag]    what the document leaves undescribed (of the operations whose tag contains <tag>)
 *   asyncapi                the AsyncAPI 3.0 document of the Kafka topics (JSON on stdout), as /asyncapi.json serves it; no stack needed
 *   retention run           prune published outbox rows, processed-event marks and idempotency keys past their windows
 *   documents stuck [--area X] [--older-than 10m]  documents not in a final state for that long, with their last event and error (JSON lines)
 *   documents examples [dir]  one example PDF and HTML per area that prints its documents (#49), into docs/examples; no stack needed
 *   dlq list                the dead-lettered messages (JSON lines: id partition:offset, event, type, origin, error, replayedAt)
 *   dlq replay <id>         send a dead-lettered message back to its topic, once (a second replay says when the first was)
 *   mail list               the mails the local capture mailbox received, one JSON line each {to, subject, text, link, sent_at}
 *   peppol-reports list     per month: exchanges recorded (outgoing, incoming, counted) and the TSR/EUSR sent, with their delivery (JSON lines)
 *   peppol-reports preview <YYYY-MM> [tsr|eusr]  the month's TSR and EUSR as they would be sent (XML on stdout; counts on stderr)
 *   peppol-reports send <YYYY-MM> [--resend]     send the month's TSR and EUSR to PEPPOL_REPORTING_RECEIVER over Peppol, once (again with --resend)
 */
/** Runs `work` with a one-connection data source, closed afterwards. */
async function withDatabase<T>(databaseUrl: string, work: (dataSource: DataSource) => Promise<T>): Promise<T> {
  const dataSource = createDataSource({ databaseUrl, poolSize: 1, applicationName: 'einvoice-cli' });
  await dataSource.initialize();
  try {
    return await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** `--name value` options after the command words. */
function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
  return value;
}

async function main(argv: string[]): Promise<void> {
  const config = loadInfrastructureConfig();
  const [command, sub, ...rest] = argv;
  if (command === 'openapi') {
    // Before the database settings are needed: the document is the code's, no stack involved.
    const { openApiDocumentOffline } = await import('./http/openapi-offline');
    const document = await openApiDocumentOffline();
    if (sub === '--gaps') {
      // What is left to describe: `cli openapi --gaps [tag]` (http/openapi-coverage.ts).
      const { gapCounts, openApiGaps } = await import('./http/openapi-coverage');
      const gaps = openApiGaps(document as unknown as Record<string, unknown>, rest[0]);
      process.stdout.write(`${JSON.stringify({ counts: gapCounts(gaps), ...gaps }, null, 2)}\n`);
      return;
    }
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    return;
  }
  if (command === 'asyncapi') {
    // The registry's and the committed schemas' (docs/consuming-events.md); no stack involved either.
    const { deploymentAsyncApi } = await import('./http/asyncapi');
    process.stdout.write(`${JSON.stringify(deploymentAsyncApi(), null, 2)}\n`);
    return;
  }
  if (command === 'mail' && sub === 'list') {
    // The capture mailbox `npm start` runs without SMTP_URL (apps/gateway/src/mail/mail-capture.ts).
    const file = process.env.MAIL_CAPTURE_FILE ?? path.resolve('.run', 'mail', 'captured.jsonl');
    for (const mail of capturedMails(file)) process.stdout.write(`${JSON.stringify(mail)}\n`);
    return;
  }
  if (command === 'migrate') {
    const registry = platformEventRegistry(areaEventPlugins());
    const applied = await migrate(config.databaseUrl, registry.migrations);
    process.stderr.write(applied.length ? `applied migrations: ${applied.join(', ')}\n` : 'database schema is up to date\n');
    // Then the documents of areas' earlier models, onto the reporting pipeline (once each).
    const carried = await withDatabase(config.databaseUrl, (dataSource) =>
      runReportCarryOvers(dataSource, registeredAreas(process.env), { registry, kafkaPrefix: config.kafkaPrefix, log: createLogger('carry-over', 'warn') }),
    );
    for (const result of carried) process.stderr.write(`carried onto the reporting pipeline (${result.name}): ${result.carried} document(s)${result.skipped ? `, ${result.skipped} there already` : ''}\n`);
    return;
  }
  if (command === 'retention' && sub === 'run') {
    const pruned = await withDatabase(config.databaseUrl, (dataSource) => pruneBookkeeping(dataSource, retentionWindowsFromEnv()));
    process.stdout.write(`${JSON.stringify(pruned)}\n`);
    return;
  }
  if (command === 'documents' && sub === 'examples') {
    // No stack: the areas' README examples printed as the gateway prints them (#49).
    const { writeDocumentViewExamples } = await import('./account/document-view-examples');
    for (const file of await writeDocumentViewExamples(rest[0] ?? 'docs/examples')) process.stdout.write(`${file}\n`);
    return;
  }
  if (command === 'documents' && sub === 'stuck') {
    const area = option(rest, 'area');
    const olderThanMs = durationMs(option(rest, 'older-than') ?? '10m');
    const stuck = await withDatabase(config.databaseUrl, (dataSource) => stuckDocuments((sql, params) => dataSource.query(sql, params), { area, olderThanMs }));
    for (const document of stuck) process.stdout.write(`${JSON.stringify(document)}\n`);
    process.stderr.write(`${stuck.length} document(s) not final for more than ${option(rest, 'older-than') ?? '10m'}${area ? ` in area ${area}` : ''}\n`);
    return;
  }
  if (command === 'dlq' && (sub === 'list' || sub === 'replay')) {
    const kafka = createKafka({ ...config, kafkaClientId: 'einvoice-cli' });
    const topic = topicNames(config.kafkaPrefix).deadLetter;
    await withDatabase(config.databaseUrl, async (dataSource) => {
      const query = (sql: string, params?: unknown[]) => dataSource.query(sql, params);
      if (sub === 'list') {
        for (const letter of await listDeadLetters(kafka, query as never, topic)) process.stdout.write(`${JSON.stringify(letter)}\n`);
        return;
      }
      const [id] = rest;
      if (!id || !/^\d+:\d+$/.test(id)) throw new Error('usage: dlq replay <partition:offset> (ids from dlq list)');
      const replay = await replayDeadLetter(kafka, query as never, topic, id);
      process.stdout.write(`${JSON.stringify({ id, ...replay })}\n`);
      process.stderr.write(replay.replayed ? `replayed ${id} to ${replay.to}\n` : `${id} was replayed already at ${replay.at}; not sent again\n`);
    });
    return;
  }
  if (command === 'peppol-reports' && (sub === 'list' || sub === 'preview' || sub === 'send')) {
    await withDatabase(config.databaseUrl, async (dataSource) => {
      const query = <T>(sql: string, params?: unknown[]) => dataSource.query(sql, params) as Promise<T[]>;
      if (sub === 'list') {
        for (const month of await listReports(query)) process.stdout.write(`${JSON.stringify(month)}\n`);
        return;
      }
      const [month, only] = rest;
      if (sub === 'preview') {
        if (only && only !== 'tsr' && only !== 'eusr') throw new Error('usage: peppol-reports preview <YYYY-MM> [tsr|eusr]');
        // The seat id alone: a preview sends nothing.
        const reports = await previewReports(query, month, { seatId: seatIdFromEnv() });
        for (const kind of only ? [only as 'tsr' | 'eusr'] : (['tsr', 'eusr'] as const)) process.stdout.write(reports[kind].xml);
        process.stderr.write(`${JSON.stringify({ tsr: reports.tsr.statistics.total, eusr: reports.eusr.statistics.fullSet })}\n`);
        return;
      }
      const store = new EventStore(dataSource, eventStoreOptions(platformEventRegistry(areaEventPlugins()), config.kafkaPrefix));
      for (const result of await sendReports(store, month, reportingSettingsFromEnv(), { resend: rest.includes('--resend') })) {
        process.stdout.write(`${JSON.stringify(result)}\n`);
        if (result.skipped) process.stderr.write(`${result.kind} of ${month} was sent already (${result.skipped.documentNumber}, ${result.skipped.deliveryStatus}); --resend sends it again\n`);
      }
    });
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
    await withDatabase(config.databaseUrl, async (dataSource) => {
      if (sub === 'parked') {
        const { rows } = await parkedOutboxRows(dataSource, config.kafkaPrefix, 1000);
        for (const row of rows) process.stdout.write(`${JSON.stringify(row)}\n`);
        return;
      }
      if (rest.some((id) => !/^\d+$/.test(id))) throw new Error('usage: outbox release [outbox row id...]');
      const released = await releaseParkedRows(dataSource, config.kafkaPrefix, rest.length ? rest : undefined);
      process.stderr.write(released.length ? `released outbox rows ${released.join(', ')}\n` : 'no parked outbox rows\n');
    });
    return;
  }
  if (command === 'tenants' && sub === 'create') {
    const name = rest.join(' ').trim();
    if (!name) throw new Error('usage: tenants create <name>');
    const { apiKey } = await withDatabase(config.databaseUrl, (dataSource) => createTenant(dataSource, name));
    process.stdout.write(`${apiKey}\n`);
    return;
  }
  if (command === 'operators' && (sub === 'create' || sub === 'list' || sub === 'disable')) {
    const name = rest.join(' ').trim();
    if (sub !== 'list' && !name) throw new Error(`usage: operators ${sub} <name>`);
    await withDatabase(config.databaseUrl, async (dataSource) => {
      const query = <T>(sql: string, params?: unknown[]) => dataSource.query(sql, params) as Promise<T[]>;
      if (sub === 'create') process.stdout.write(`${JSON.stringify(await createOperator(query, name))}\n`);
      else if (sub === 'disable') process.stdout.write(`${JSON.stringify(await disableOperator(query, name))}\n`);
      else for (const operator of await listOperators(query)) process.stdout.write(`${JSON.stringify(operator)}\n`);
    });
    return;
  }
  if (command === 'authority' && sub === 'errors') {
    // The same numbers as GET /v1/operations/authority-errors: the window parsed by the same rules.
    const window = option(rest, 'window');
    const { windowMs } = authorityErrorsQuery(window === undefined ? {} : { window });
    const reporting = registeredAreas(process.env).filter((area) => area.authority.connector !== undefined).map((area) => area.code);
    const rates = await withDatabase(config.databaseUrl, (dataSource) => authorityErrorRates((sql, params) => dataSource.query(sql, params), windowMs, reporting));
    for (const rate of rates.areas) process.stdout.write(`${JSON.stringify(rate)}\n`);
    process.stderr.write(`authorities' answers from ${rates.since} to ${rates.until}\n`);
    return;
  }
  if (command === 'clients' && sub === 'create') {
    const name = rest.join(' ').trim();
    if (!name) throw new Error('usage: clients create <tenant name>');
    const client = await withDatabase(config.databaseUrl, async (dataSource) => {
      const tenants: Array<{ id: string }> = await dataSource.query(`SELECT id FROM tenants WHERE name = $1`, [name]);
      if (tenants.length !== 1) throw new Error(tenants.length ? `${tenants.length} tenants are named "${name}"` : `no tenant named "${name}"`);
      return createOAuthClient((sql, parameters) => dataSource.query(sql, parameters), tenants[0].id);
    });
    process.stdout.write(`${client.client_id} ${client.client_secret}\n`);
    return;
  }
  throw new Error(`unknown command "${argv.join(' ')}"; commands: tenants create <name> | clients create <tenant name> | operators create|disable <name> | operators list | authority errors [--window 1h] | migrate | topics | outbox parked | outbox release [id...] | retention run | documents stuck [--area X] [--older-than 10m] | dlq list | dlq replay <id> | mail list | peppol-reports list | peppol-reports preview <YYYY-MM> [tsr|eusr] | peppol-reports send <YYYY-MM> [--resend]`);
}

main(process.argv.slice(2)).then(
  // Once stdout is drained: exiting at once cut a piped OpenAPI document (`cli openapi | jq`) at 200 KiB.
  () => process.stdout.write('', () => process.exit(0)),
  (error) => {
    // A refused parameter (an AppError with issues, as the API's 400) says which and why.
    const issues = ((error as { issues?: Array<{ message: string }> }).issues ?? []).map((issue) => ` ${issue.message}`).join('');
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}${issues}\n`);
    process.exit(1);
  },
);
