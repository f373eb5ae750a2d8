import { Injectable } from '@nestjs/common';
import type { OperatorAnswer } from '@einvoice/domain/infrastructure';
import { Connections } from '../infrastructure/infrastructure.module';
import { type WorkerReadiness, WorkerReadinessProbe } from './worker-readiness';

interface Check {
  status: 'up' | 'down';
  latencyMs: number;
  error?: string;
}

async function timed(probe: () => Promise<unknown>, timeoutMs = 2000): Promise<Check> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 'up', latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return { status: 'down', latencyMs: Math.round(performance.now() - started), error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The stack's health. In detail (PostgreSQL, Redis, Kafka, the outbox backlog and its parked rows'
 * stream ids and errors, each worker's readiness) for operators only, on the operator port (README
 * "Operating it"); to the public, only whether this gateway can take requests.
 */
@Injectable()
export class HealthReport {
  constructor(
    private readonly connections: Connections,
    private readonly workerProbe: WorkerReadinessProbe,
  ) {}

  /** Ready: PostgreSQL answers, where every request's effects are written (Kafka down only delays them). */
  async ready(): Promise<boolean> {
    return (await timed(() => this.connections.dataSource.query('SELECT 1'))).status === 'up';
  }

  /** 200 `ok` or `degraded`, 503 `down` when PostgreSQL is down. */
  async detailed(): Promise<OperatorAnswer> {
    let workers: WorkerReadiness[] | null = null;
    const [postgres, redis, kafka] = await Promise.all([
      timed(() => this.connections.dataSource.query('SELECT 1')),
      timed(() => this.connections.redis.ping()),
      timed(async () => {
        if (!(await this.connections.publisher.healthy())) throw new Error('no Kafka broker answered');
        workers = await this.workerProbe.readiness();
      }, 4000),
    ]);
    const [pending, parked] = postgres.status === 'up' ? await Promise.all([this.connections.relay.pending().catch(() => null), this.connections.relay.parked().catch(() => null)]) : [null, null];
    // A parked row (refused by the broker) needs an operator: degraded until it is released.
    // A worker not holding its partitions yet (starting, or its predecessor's session not expired): degraded.
    const workersReady = (workers as WorkerReadiness[] | null)?.every((w) => w.ready) ?? false;
    const up = postgres.status === 'up' && redis.status === 'up' && kafka.status === 'up' && !parked?.count && workersReady;
    // Kafka down is degraded, not failed: requests still succeed and the outbox drains later.
    const status = postgres.status === 'down' ? 'down' : up ? 'ok' : 'degraded';
    const body = { status, checks: { postgres, redis, kafka }, workers, outbox: { pending, parked: parked?.count ?? null, parkedRows: parked?.rows ?? [] } };
    return { statusCode: status === 'down' ? 503 : 200, contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) };
  }
}
