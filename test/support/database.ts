// Shared by integration tests: the migrated test database (`npm test` creates and migrates it;
// DATABASE_URL points at it) and an EventStore on it.
import type { DataSource } from 'typeorm';
import type { EventPlugin } from '@einvoice/domain';
import {
  EventStore,
  type EventStoreOptions,
  createDataSource,
  loadInfrastructureConfig,
  migrate,
  eventStoreOptions,
  platformEventRegistry,
} from '@einvoice/domain/infrastructure';
import { areaEventPlugins } from '@einvoice/areas';

/**
 * The synthetic events of the event store's and the relay's own tests (they append to `document-`
 * streams): declared without a read model, as every appended type must be (event registry).
 */
const syntheticEvents: EventPlugin = { name: 'test:synthetic', streams: {}, projectors: { TestHappened: null, A: null, B: null } };

/** `poolSize` (30), `prepareStatements` (default: DATABASE_PREPARED_STATEMENTS) and `wakeRelay` (default: NOTIFY) as a test needs them. */
export async function openTestDatabase(
  prefix = 'test',
  options: { readonly poolSize?: number; readonly prepareStatements?: boolean; readonly wakeRelay?: EventStoreOptions['wakeRelay'] } = {},
): Promise<{ dataSource: DataSource; store: EventStore }> {
  const { databaseUrl } = loadInfrastructureConfig();
  const registry = platformEventRegistry([...areaEventPlugins(), syntheticEvents]);
  await migrate(databaseUrl, registry.migrations);
  const dataSource = createDataSource({ databaseUrl, poolSize: options.poolSize ?? 30, applicationName: 'einvoice-int-test' });
  await dataSource.initialize();
  const store = new EventStore(dataSource, { ...eventStoreOptions(registry, prefix), prepareStatements: options.prepareStatements, wakeRelay: options.wakeRelay });
  return { dataSource, store };
}
