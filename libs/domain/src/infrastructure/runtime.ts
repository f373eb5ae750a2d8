import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { InfrastructureConfig, loadInfrastructureConfig } from './config';
import { createDataSource } from './database';
import { EventStore } from './eventstore';
import { createKafka, topicForStream } from './kafka';
import { projectReadModels, readModelConstraintErrors } from './projections';

/** What every worker holds: the store it appends to and the broker it consumes from. */
export interface WorkerRuntime {
  readonly config: InfrastructureConfig;
  readonly dataSource: DataSource;
  readonly store: EventStore;
  readonly kafka: Kafka;
  /** The worker's consumer group, `${prefix}.${app}`: explicit, never renamed. */
  readonly groupId: string;
}

export async function openWorkerRuntime(app: string, env: NodeJS.ProcessEnv = process.env): Promise<WorkerRuntime> {
  const config = loadInfrastructureConfig(env);
  const dataSource = createDataSource({ databaseUrl: config.databaseUrl, poolSize: 5, applicationName: `einvoice-${app}` });
  await dataSource.initialize();
  const store = new EventStore(dataSource, {
    topicFor: (streamId) => topicForStream(config.kafkaPrefix, streamId),
    projector: projectReadModels,
    constraintErrors: readModelConstraintErrors,
  });
  const kafka = createKafka({ ...config, kafkaClientId: `einvoice-${app}` });
  return { config, dataSource, store, kafka, groupId: `${config.kafkaPrefix}.${app}` };
}
