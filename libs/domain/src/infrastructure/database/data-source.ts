import { DataSource } from 'typeorm';
import type { SqlMigration } from '../../plugin';
import { typeOrmMigration } from '../plugins/typeorm-migration';
import { APP_SESSION_OPTIONS } from './session-options';
import { EventStore1732200000000 } from './migrations/1732200000000-event-store';
import { Gateway1732200000001 } from './migrations/1732200000001-gateway';
import { SandboxAccessPoint1732200000002 } from './migrations/1732200000002-sandbox-access-point';
import { Participants1732200000003 } from './migrations/1732200000003-participants';
import { Webhooks1732200000004 } from './migrations/1732200000004-webhooks';
import { AuthorityCredentials1732200000005 } from './migrations/1732200000005-authority-credentials';
import { OutboxParked1732200000012 } from './migrations/1732200000012-outbox-parked';
import { RetentionIndexes1732200000014 } from './migrations/1732200000014-retention-indexes';
import { DocumentsForEveryArea1732200000016 } from './migrations/1732200000016-documents-for-every-area';
import { TenantKeyRevocation1732200000020 } from './migrations/1732200000020-tenant-key-revocation';
import { WebhookLimits1732200000021 } from './migrations/1732200000021-webhook-limits';
import { OAuthClients1732200000025 } from './migrations/1732200000025-oauth-clients';
import { DocumentsSmallRows1732200000028 } from './migrations/1732200000028-documents-small-rows';
import { SupplierSecrets1732200000030 } from './migrations/1732200000030-supplier-secrets';
import { DocumentShares1732200000031 } from './migrations/1732200000031-document-shares';
import { RefusedNumbersFree1732200000032 } from './migrations/1732200000032-refused-numbers-free';
import { DeadLetterReplays1732200000033 } from './migrations/1732200000033-dead-letter-replays';
import { OutboxNamesItsEvent1732200000027 } from './migrations/1732200000027-outbox-names-its-event';
import { DocumentAttachments1732200000026 } from './migrations/1732200000026-document-attachments';
import { LeanEventIndexes1732200001800 } from './migrations/1732200001800-lean-event-indexes';
import { Lz4Payloads1732200001820 } from './migrations/1732200001820-lz4-payloads';
import { OutboxArea1732200001830 } from './migrations/1732200001830-outbox-area';
import { OutboxHandedTo1732200001840 } from './migrations/1732200001840-outbox-handed-to';
import { PeppolTransmissions1732200001870 } from './migrations/1732200001870-peppol-transmissions';
import { AccountDocumentLists1732200001880 } from './migrations/1732200001880-account-document-lists';
import { SupplierStatus1732200001947 } from './migrations/1732200001947-supplier-status';
import { AccountDocumentIssueDate1732200001960 } from './migrations/1732200001960-account-document-issue-date';
import { AccountEvents1732200001980 } from './migrations/1732200001980-account-events';
import { AccountWebhooks1732200001981 } from './migrations/1732200001981-account-webhooks';
import { AccountEventsFilterIndex1732200001985 } from './migrations/1732200001985-account-events-filter-index';
import { DocumentTotals1732200001990 } from './migrations/1732200001990-document-totals';
import { Operators1732200002000 } from './migrations/1732200002000-operators';
import { AccountEventsNotifyAfterCommit1732200002010 } from './migrations/1732200002010-account-events-notify-after-commit';

/**
 * The platform's own migrations. TypeORM migrations only: `synchronize` is never used. Areas bring
 * theirs as SQL through the registry (`DataSourceOptions.areaMigrations`); TypeORM runs all of them
 * in timestamp order.
 */
export const platformMigrations = [
  EventStore1732200000000,
  Gateway1732200000001,
  SandboxAccessPoint1732200000002,
  Participants1732200000003,
  Webhooks1732200000004,
  AuthorityCredentials1732200000005,
  OutboxParked1732200000012,
  RetentionIndexes1732200000014,
  DocumentsForEveryArea1732200000016,
  TenantKeyRevocation1732200000020,
  WebhookLimits1732200000021,
  OAuthClients1732200000025,
  DocumentAttachments1732200000026,
  OutboxNamesItsEvent1732200000027,
  DocumentsSmallRows1732200000028,
  SupplierSecrets1732200000030,
  DocumentShares1732200000031,
  RefusedNumbersFree1732200000032,
  DeadLetterReplays1732200000033,
  LeanEventIndexes1732200001800,
  Lz4Payloads1732200001820,
  OutboxArea1732200001830,
  OutboxHandedTo1732200001840,
  PeppolTransmissions1732200001870,
  AccountDocumentLists1732200001880,
  SupplierStatus1732200001947,
  AccountDocumentIssueDate1732200001960,
  AccountEvents1732200001980,
  AccountWebhooks1732200001981,
  AccountEventsFilterIndex1732200001985,
  DocumentTotals1732200001990,
  Operators1732200002000,
  AccountEventsNotifyAfterCommit1732200002010,
];

export interface DataSourceOptions {
  readonly databaseUrl: string;
  /** Pool size; the gateway wants more than a worker. */
  readonly poolSize?: number;
  readonly applicationName?: string;
  /** The areas' migrations (`EventRegistry.migrations`); needed only where migrations run. */
  readonly areaMigrations?: readonly SqlMigration[];
}

export function createDataSource(options: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.databaseUrl,
    synchronize: false,
    migrationsRun: false,
    migrations: [...platformMigrations, ...(options.areaMigrations ?? []).map(typeOrmMigration)],
    migrationsTableName: 'schema_migrations',
    // Expected failures (a duplicate ID, a concurrent append) are answered, not logged as errors.
    logging: false,
    extra: {
      max: options.poolSize ?? 10,
      application_name: options.applicationName ?? 'einvoice',
      options: APP_SESSION_OPTIONS,
    },
  });
}

/** Creates the database if it is missing (PostgreSQL has no CREATE DATABASE IF NOT EXISTS). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  url.pathname = '/postgres';
  const admin = new DataSource({ type: 'postgres', url: url.toString(), logging: ['error'] });
  await admin.initialize();
  try {
    const rows: unknown[] = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rows.length === 0) await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await admin.destroy();
  }
}

/** Creates the database when missing and applies pending migrations; safe to run twice. */
export async function migrate(databaseUrl: string, areaMigrations: readonly SqlMigration[]): Promise<string[]> {
  await ensureDatabase(databaseUrl);
  const dataSource = createDataSource({ databaseUrl, poolSize: 1, applicationName: 'einvoice-migrate', areaMigrations });
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await dataSource.destroy();
  }
}
