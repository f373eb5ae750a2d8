// Shared by integration tests: the migrated test database (`npm test` creates and migrates it;
// DATABASE_URL points at it) and an EventStore on it.
import type { DataSource } from 'typeorm';
import {
  EventStore,
  createDataSource,
  loadInfrastructureConfig,
  migrate,
  projectReadModels,
  readModelConstraintErrors,
  topicForStream,
} from '@einvoice/domain/infrastructure';

export async function openTestDatabase(prefix = 'test'): Promise<{ dataSource: DataSource; store: EventStore }> {
  const { databaseUrl } = loadInfrastructureConfig();
  await migrate(databaseUrl);
  const dataSource = createDataSource({ databaseUrl, poolSize: 30, applicationName: 'einvoice-int-test' });
  await dataSource.initialize();
  const store = new EventStore(dataSource, {
    topicFor: (streamId) => topicForStream(prefix, streamId),
    projector: projectReadModels,
    constraintErrors: readModelConstraintErrors,
  });
  return { dataSource, store };
}
