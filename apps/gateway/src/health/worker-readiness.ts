import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Admin } from 'kafkajs';
import { createKafka } from '@einvoice/domain/infrastructure';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';

/** The workers whose consumer groups the stack needs (`${prefix}.${app}`, workerSubscriptions). */
export const WORKER_APPS = ['delivery-worker', 'reporting-worker', 'webhook-dispatcher'] as const;

/** One worker's consumer group as Kafka sees it. */
export interface WorkerReadiness {
  readonly group: string;
  /** Its consumers hold their partitions: group Stable, with at least one member. */
  readonly ready: boolean;
  readonly state: string;
  readonly members: number;
  /** Messages of its topics not yet committed by the group (null when unknown). */
  readonly lag: number | null;
}

/**
 * Whether each worker is ready (#9 "ready means ready"): its consumer group joined and holding its
 * partitions, and how far behind it is. `npm start` prints the stack ready only once every worker is.
 */
@Injectable()
export class WorkerReadinessProbe implements OnApplicationShutdown {
  private admin?: Admin;
  private connecting?: Promise<Admin>;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  async readiness(): Promise<WorkerReadiness[]> {
    const admin = await this.connected();
    const groups = WORKER_APPS.map((app) => `${this.config.kafkaPrefix}.${app}`);
    const described = await admin.describeGroups(groups);
    return Promise.all(
      described.groups.map(async (g) => ({
        group: g.groupId,
        ready: g.state === 'Stable' && g.members.length > 0,
        state: g.state,
        members: g.members.length,
        lag: await this.lagOf(admin, g.groupId).catch(() => null),
      })),
    );
  }

  /** Each worker group's lag per topic and partition (the metrics' `einvoice_kafka_consumer_lag`). */
  async partitionLags(): Promise<Array<{ group: string; topic: string; partition: number; lag: number }>> {
    const admin = await this.connected();
    const perGroup = await Promise.all(WORKER_APPS.map((app) => this.partitionLagsOf(admin, `${this.config.kafkaPrefix}.${app}`)));
    return perGroup.flat();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.admin?.disconnect().catch(() => undefined);
  }

  private async lagOf(admin: Admin, groupId: string): Promise<number> {
    return (await this.partitionLagsOf(admin, groupId)).reduce((total, p) => total + p.lag, 0);
  }

  /** A group's messages not yet committed, per topic and partition (never committed: the whole partition). */
  private async partitionLagsOf(admin: Admin, group: string): Promise<Array<{ group: string; topic: string; partition: number; lag: number }>> {
    const rows: Array<{ group: string; topic: string; partition: number; lag: number }> = [];
    for (const { topic, partitions } of await admin.fetchOffsets({ groupId: group })) {
      const ends = new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, Number(p.high)]));
      for (const p of partitions) {
        const at = Number(p.offset);
        const end = ends.get(p.partition) ?? 0;
        rows.push({ group, topic, partition: p.partition, lag: at < 0 ? end : Math.max(0, end - at) });
      }
    }
    return rows;
  }

  private connected(): Promise<Admin> {
    if (this.admin) return Promise.resolve(this.admin);
    this.connecting ??= (async () => {
      const admin = createKafka({ ...this.config, kafkaClientId: 'einvoice-gateway-health' }).admin();
      try {
        await admin.connect();
      } catch (error) {
        this.connecting = undefined;
        throw error;
      }
      this.admin = admin;
      return admin;
    })();
    return this.connecting;
  }
}
