/**
 * What `/v1/operations/*` answers (#50), in the API's snake_case: the records the CLI prints (camelCase JSON
 * lines, its own since issue 17) renamed, nothing added or left out, so that the console and the CLI say the same.
 */
import type { DeadLetter, ParkedOutboxRow } from '@einvoice/domain/infrastructure';
import type { WorkerReadiness } from '../health/worker-readiness';
import type { AuthorityErrorRate } from './authority-error-rates';
import type { StuckDocument } from './stuck-documents';

export function deadLetterView(letter: DeadLetter & { readonly replayedAt: string | null }) {
  return {
    id: letter.id,
    event_id: letter.eventId,
    type: letter.type,
    area: letter.area,
    original_topic: letter.originalTopic,
    consumer_group: letter.consumerGroup,
    error_code: letter.errorCode,
    error: letter.error,
    attempts: letter.attempts,
    failed_at: letter.failedAt,
    replayed_at: letter.replayedAt,
  };
}

export function stuckDocumentView(document: StuckDocument) {
  return {
    id: document.id,
    area: document.area,
    tenant_id: document.tenantId,
    number: document.documentNumber,
    state: document.state,
    report_state: document.reportState,
    delivery_status: document.deliveryStatus,
    created_at: document.createdAt,
    updated_at: document.updatedAt,
    last_event: document.lastEvent && { type: document.lastEvent.type, recorded_at: document.lastEvent.recordedAt },
    error: document.error ?? null,
  };
}

export function parkedRowView(row: ParkedOutboxRow) {
  return { id: row.id, event_id: row.eventId, type: row.type, stream_id: row.streamId, topic: row.topic, stored_bytes: row.storedBytes, error: row.error, parked_at: row.parkedAt };
}

/** Each worker's group as Kafka describes it, with its lag per topic and partition (the metrics' `einvoice_kafka_consumer_lag`). */
export function consumerLagView(groups: readonly WorkerReadiness[], partitions: ReadonlyArray<{ group: string; topic: string; partition: number; lag: number }>) {
  return groups.map((group) => {
    const own = partitions.filter((p) => p.group === group.group).sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
    return {
      group: group.group,
      state: group.state,
      members: group.members,
      ready: group.ready,
      // The partitions' sum when Kafka answered for them, else what the readiness probe knew (null: unknown).
      lag: own.length ? own.reduce((total, p) => total + p.lag, 0) : group.lag,
      partitions: own.map((p) => ({ topic: p.topic, partition: p.partition, lag: p.lag })),
    };
  });
}

export function authorityErrorRateView(rate: AuthorityErrorRate) {
  return { area: rate.area, reported: rate.reported, refused: rate.refused, refused_rate: rate.refusedRate };
}
