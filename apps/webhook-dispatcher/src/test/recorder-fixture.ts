// The dispatcher's delivery recorder for its integration specs, on real PostgreSQL and Redis: the test
// database, a fresh queue, the recorder, subscriptions and the deliveries recorded. (In a `test/`
// folder: linted as a test, left out of the build.)
import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { DataSource } from 'typeorm';
import { createLogger } from '@einvoice/domain';
import { type EventHandler, type EventStore, createWebhookQueue, insertSubscription, loadInfrastructureConfig } from '@einvoice/domain/infrastructure';
import { openTestDatabase } from '../../../../test/support/database';
import { type RecordDependencies, createDeliveryRecorder } from '../record-deliveries';

/** The MyInvois portal the recorder's MyInvois bodies link to (MYINVOIS_PORTAL_URL). */
export const portal = 'https://preprod.myinvois.hasil.gov.my';

export interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  payload: string;
}

/**
 * Opens the test database and a fresh queue (`queueName` and a random suffix) before the enclosing
 * describe block's tests, and closes them after: call it inside the `describe`. `dataSource`, `store`
 * and `queue` are there once the tests run.
 */
export function recorderFixture(queueName: string, sources: RecordDependencies['sources']) {
  const { redisUrl, kafkaPrefix } = loadInfrastructureConfig();
  let dataSource: DataSource;
  let store: EventStore;
  let queue: Queue;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
    // A fresh queue (STYLE.md): the jobs are inspected, never run.
    queue = createWebhookQueue(redisUrl, `${kafkaPrefix}.${queueName}-${randomUUID().slice(0, 8)}`);
  });

  afterAll(async () => {
    await queue?.obliterate({ force: true });
    await queue?.close();
    await dataSource?.destroy();
  });

  return {
    get dataSource() {
      return dataSource;
    },
    get store() {
      return store;
    },
    get queue() {
      return queue;
    },

    recorder: (groupId = `dispatcher-${randomUUID()}`): EventHandler =>
      createDeliveryRecorder({
        store, queue, groupId, schedule: { attempts: 3, baseDelayMs: 60_000, maxDelayMs: 60_000, jitter: 0 }, sources,
        env: { MYINVOIS_PORTAL_URL: portal }, log: createLogger('test', 'error'),
      }),

    /** A MyInvois subscription of `supplierId`'s to `events` (of a fresh tenant unless given); returns its id. */
    async subscribe(supplierId: string, events: string[], tenantId: string = randomUUID()): Promise<string> {
      const id = randomUUID();
      await insertSubscription(dataSource, { id, tenantId, supplierId, area: 'my', url: 'https://erp.example.com/hooks', events, secretSealed: 'x', description: null });
      return id;
    },

    deliveriesOf: (subscriptionId: string): Promise<DeliveryRow[]> =>
      dataSource.query(`SELECT id, event_id, event_type, status, payload FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY event_type, event_id`, [subscriptionId]),
  };
}
