import { SecretBox, createLogger, loadWebhookConfig } from '@einvoice/domain';
import { createWebhookQueue, platformEventRegistry, runWorker, startWorkerProcess, webhookQueueName } from '@einvoice/domain/infrastructure';
import { areaEventPlugins, webhookSources } from '@einvoice/areas';
import { createWebhookWorker } from './processor';
import { createDeliveryRecorder } from './record-deliveries';
import { Sweeper } from './sweeper';

const log = createLogger('webhook-dispatcher');

/**
 * The webhook dispatcher (README "Webhooks"): a Kafka consumer records deliveries, a BullMQ
 * worker in the same process sends them, a sweeper re-enqueues what a crash left behind.
 */
startWorkerProcess('webhook-dispatcher', log, async () => {
  const config = loadWebhookConfig();
  // Fails here, before consuming anything, when production has no SECRETS_KEY.
  const secrets = SecretBox.fromEnv();
  await runWorker('webhook-dispatcher', log, platformEventRegistry(areaEventPlugins()), (runtime) => {
    const queueName = webhookQueueName(runtime.config.kafkaPrefix);
    const queue = createWebhookQueue(runtime.config.redisUrl, queueName);
    const worker = createWebhookWorker(queueName, runtime.config.redisUrl, { db: runtime.dataSource, secrets, config, log });
    worker.on('error', (error) => log('warn', 'webhook worker error', { error: String(error) }));
    const sweeper = new Sweeper(runtime.dataSource, queue, config.schedule, config.sweepIntervalMs, log);
    return {
      handle: createDeliveryRecorder({ store: runtime.store, queue, groupId: runtime.groupId, schedule: config.schedule, sources: webhookSources(), log }),
      // SIGTERM: the worker finishes its active jobs, then the consumer leaves its group, then the rest.
      stopFirst: [{ stop: () => worker.close() }],
      stopAfter: [sweeper, { stop: () => queue.close() }],
      started: () => sweeper.start(),
    };
  });
});
