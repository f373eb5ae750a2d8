import type {
  AuthorityReportAcceptedData,
  AuthorityReportEvent,
  AuthorityReportRejectedData,
  AuthorityReportRequestedData,
} from '../../authority-report';
import type { RecordedEvent } from '../../events';
import type { EventPlugin, EventProjector, ProjectionContext } from '../../plugin';

/**
 * Channel the answer of a report is announced on (payload: the document id), from the transaction
 * that records it: PostgreSQL delivers a NOTIFY at commit only, so a listener that hears it reads
 * the committed row. The gateway waits on it for `sync` areas (apps/gateway/src/authority).
 */
export const DOCUMENT_OUTCOME_CHANNEL = 'document_outcome';

const requested: EventProjector = async (db, event) => {
  const d = event.data as AuthorityReportRequestedData;
  await db.query(
    `INSERT INTO documents (id, tenant_id, supplier_id, area, direction, document_number, document_type, state, fields,
       rule_set_id, rendered, created_at, updated_at, version)
     VALUES ($1, $2, $3, $4, 'outgoing', $5, $6, 'pending', $7, $8, $9, $10, $10, $11) ON CONFLICT (id) DO NOTHING`,
    [d.documentId, d.tenantId, d.supplierId, d.area, d.documentNumber, d.documentType, d.fields, d.ruleSetId, d.document, d.requestedAt, event.streamPosition],
  );
};

async function answered(db: ProjectionContext, event: RecordedEvent, documentId: string, state: string, authority: object, at: string) {
  await db.query(`UPDATE documents SET state = $2, authority = $3, updated_at = $4, version = $5 WHERE id = $1 AND version < $5`, [
    documentId,
    state,
    authority,
    at,
    event.streamPosition,
  ]);
  await db.query(`SELECT pg_notify($1, $2)`, [DOCUMENT_OUTCOME_CHANNEL, documentId]);
}

const projectors: Record<AuthorityReportEvent['type'], EventProjector | null> = {
  AuthorityReportRequested: requested,
  // The attempt marker is the worker's bookkeeping: history only.
  AuthorityReportAttempted: null,
  AuthorityReportAccepted: (db, event) => {
    const d = event.data as AuthorityReportAcceptedData;
    return answered(db, event, d.documentId, 'reported', { receipt: d.receipt, recovered: d.recovered, answeredAt: d.acceptedAt }, d.acceptedAt);
  },
  AuthorityReportRejected: (db, event) => {
    const d = event.data as AuthorityReportRejectedData;
    return answered(db, event, d.documentId, 'rejected', { error: d.error, answeredAt: d.rejectedAt }, d.rejectedAt);
  },
};

/**
 * Reports to tax authorities, for every area that has one (libs/domain/src/authority-report): the
 * `report-<id>` streams and their documents rows. Part of every app's registry (platformEventRegistry).
 */
export const reportingPlugin: EventPlugin = {
  name: 'reporting',
  streams: { report: 'documents' },
  projectors,
};
