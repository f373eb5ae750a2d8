import { Inject, Injectable } from '@nestjs/common';
import type { Kafka } from 'kafkajs';
import { AppError, createLogger, isAppError } from '@einvoice/domain';
import { createKafka, listDeadLetters, parkedOutboxRows, releaseParkedRows, replayDeadLetter, topicNames } from '@einvoice/domain/infrastructure';
import { areas } from '@einvoice/areas';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { type Page, type PageRequest, toPage } from '../account/page';
import { Connections } from '../infrastructure/infrastructure.module';
import { WorkerReadinessProbe } from '../health/worker-readiness';
import { authorityErrorRates } from './authority-error-rates';
import { DEAD_LETTER_ID, OUTBOX_ROW_ID, deadLetterPageRows } from './operations-query';
import { authorityErrorRateView, consumerLagView, deadLetterView, parkedRowView, stuckDocumentView } from './operations-views';
import { stuckDocuments } from './stuck-documents';

const log = createLogger('gateway');

/**
 * The operator's view of the installation (#50, `/v1/operations/*`): the same functions the CLI calls
 * (`dlq list|replay`, `documents stuck`, `outbox parked|release`) and /metrics reads (the workers' lag),
 * across every account. A broker that does not answer is a 503, not a 500.
 */
@Injectable()
export class Operations {
  private kafka?: Kafka;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly connections: Connections,
    private readonly workers: WorkerReadinessProbe,
  ) {}

  private readonly query = <T>(sql: string, params?: unknown[]): Promise<T[]> => this.connections.dataSource.query(sql, params);

  async deadLetters(request: { page: PageRequest; replayed?: boolean }): Promise<Page<ReturnType<typeof deadLetterView>>> {
    const letters = await this.withBroker('list the dead letters', (kafka) => listDeadLetters(kafka, this.query as never, this.deadLetterTopic));
    return toPage(deadLetterPageRows(letters, request).map(deadLetterView), request.page.limit);
  }

  /** Sends a dead letter back to its topic, once (dead-letter-topic.ts); a second replay answers when the first was. */
  async replay(id: string) {
    if (!DEAD_LETTER_ID.test(id)) throw new AppError('not_found', 'DLQ.NOT_FOUND', `No dead letter ${JSON.stringify(id)}: ids are partition:offset (GET /v1/operations/dead-letters).`, { retriable: false });
    const replay = await this.withBroker('replay the dead letter', (kafka) => replayDeadLetter(kafka, this.query as never, this.deadLetterTopic, id));
    return { status: 'success' as const, data: { id, replayed: replay.replayed, replayed_at: replay.at, to: replay.to } };
  }

  async stuck(request: { page: PageRequest; area?: string; olderThanMs: number }): Promise<Page<ReturnType<typeof stuckDocumentView>>> {
    const rows = await stuckDocuments(this.query as never, { area: request.area, olderThanMs: request.olderThanMs, limit: request.page.limit + 1, startingAfter: request.page.startingAfter });
    return toPage(rows.map(stuckDocumentView), request.page.limit);
  }

  async parked(request: { page: PageRequest }): Promise<Page<ReturnType<typeof parkedRowView>>> {
    const { rows } = await parkedOutboxRows(this.connections.dataSource, this.config.kafkaPrefix, request.page.limit + 1, request.page.startingAfter);
    return toPage(rows.map(parkedRowView), request.page.limit);
  }

  /** Puts parked rows back in line for the relay: all of them, or the one named (a 404 when it is not parked). */
  async release(id?: string) {
    if (id !== undefined && !OUTBOX_ROW_ID.test(id)) throw this.notParked(id);
    const released = await releaseParkedRows(this.connections.dataSource, this.config.kafkaPrefix, id === undefined ? undefined : [id]);
    if (id !== undefined && !released.length) throw this.notParked(id);
    return { status: 'success' as const, data: { released } };
  }

  async consumerLag() {
    const [groups, partitions] = await this.withBroker('read the consumer groups', () => Promise.all([this.workers.readiness(), this.workers.partitionLags()]));
    return { status: 'success' as const, data: { groups: consumerLagView(groups, partitions) } };
  }

  async authorityErrors(request: { windowMs: number; window: string }) {
    const reporting = areas.filter((area) => area.authority.connector !== undefined).map((area) => area.code);
    const rates = await authorityErrorRates(this.query as never, request.windowMs, reporting);
    return { status: 'success' as const, data: { window: request.window, since: rates.since, until: rates.until, areas: rates.areas.map(authorityErrorRateView) } };
  }

  private get deadLetterTopic(): string {
    return topicNames(this.config.kafkaPrefix).deadLetter;
  }

  private notParked(id: string): AppError {
    return new AppError('not_found', 'OUTBOX.NOT_PARKED', `No parked outbox row ${JSON.stringify(id)} (GET /v1/operations/outbox/parked lists them).`, { retriable: false });
  }

  /** Runs `work` with the gateway's operator Kafka client; what the broker fails with is a 503 (the AppErrors of `work` stay as they are). */
  private async withBroker<T>(what: string, work: (kafka: Kafka) => Promise<T>): Promise<T> {
    this.kafka ??= createKafka({ ...this.config, kafkaClientId: 'einvoice-gateway-operations' });
    try {
      return await work(this.kafka);
    } catch (error) {
      if (isAppError(error)) throw error;
      log('warn', `could not ${what}`, { error: error instanceof Error ? error.message : String(error) });
      throw new AppError('unavailable', 'KAFKA.UNAVAILABLE', `Could not ${what}: the broker did not answer (${error instanceof Error ? error.message : String(error)}). Try again.`);
    }
  }
}
