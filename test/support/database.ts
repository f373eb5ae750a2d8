// Shared by integration tests: the migrated test database (`npm test` creates and migrates it;
// DATABASE_URL points at it) and an EventStore on it.
import type { DataSource } from 'typeorm';
import {
  EventStore,
  createDataSource,
  loadInfrastructureConfig,
  migrate,
  platformEventRegistry,
} from '@einvoice/domain/infrastructure';
import { areaEventPlugins } from '@einvoice/areas';

export async function openTestDatabase(prefix = 'test'): Promise<{ dataSource: DataSource; store: EventStore }> {
  const { databaseUrl } = loadInfrastructureConfig();
  const registry = platformEventRegistry(areaEventPlugins());
  await migrate(databaseUrl, registry.migrations);
  const dataSource = createDataSource({ databaseUrl, poolSize: 30, applicationName: 'einvoice-int-test' });
  await dataSource.initialize();
  const store = new EventStore(dataSource, {
    topicFor: (streamId) => registry.topicFor(prefix, streamId),
    projector: registry.projector,
    constraintErrors: registry.constraintErrors,
  });
  return { dataSource, store };
}
