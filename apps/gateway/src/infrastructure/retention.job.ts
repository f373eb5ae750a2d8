import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { createLogger } from '@einvoice/domain';
import { LockedPeriodicJob, pruneBookkeeping, retentionWindowsFromEnv } from '@einvoice/domain/infrastructure';
import { Connections } from './infrastructure.module';

const log = createLogger('gateway');
/** One pruning per stack at a time (advisory lock class; namespaces: apps/gateway/src/participants/supplier-participants.ts). */
const RETENTION_LOCK = 7312009;

/**
 * Prunes the bookkeeping tables (outbox, processed_events, idempotency_keys) and the account's events
 * older than `ACCOUNT_EVENTS_RETENTION_DAYS` (account_events, #48) every
 * `RETENTION_INTERVAL_MS` (default 1 h), in one gateway of the stack at a time; event history is
 * kept (libs/domain/src/infrastructure/eventstore/retention.ts has the windows and why).
 */
@Injectable()
export class RetentionJob extends LockedPeriodicJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly windows = retentionWindowsFromEnv();

  constructor(private readonly connections: Connections) {
    super({
      dataSource: connections.dataSource,
      lockKey: RETENTION_LOCK,
      lockName: connections.config.kafkaPrefix,
      intervalMs: Number(process.env.RETENTION_INTERVAL_MS ?? 3_600_000),
      log,
      description: 'retention',
    });
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  protected async round(stopping: () => boolean): Promise<void> {
    const pruned = await pruneBookkeeping(this.connections.dataSource, this.windows, Date.now(), stopping);
    if (pruned.outbox + pruned.processedEvents + pruned.idempotencyKeys + pruned.accountEvents > 0) log('info', 'pruned bookkeeping rows', { ...pruned });
  }
}
