import type {
  AuthorityReportAcceptedData,
  AuthorityReportAmendedData,
  AuthorityReportAmendmentRefusedData,
  AuthorityReportBuyerRejectedData,
  AuthorityReportPeppolCopyWithheldData,
  AuthorityReportAmendmentRequestedData,
  AuthorityReportAttemptTurnedAwayData,
  AuthorityReportCancellationRefusedData,
  AuthorityReportCancellationRequestedData,
  AuthorityReportCancelledData,
  AuthorityReportEvent,
  DocumentChainEvent,
  AuthorityReportInvalidatedData,
  AuthorityReportPolledData,
  AuthorityReportRejectedData,
  AuthorityReportRequestedData,
  AuthorityReportValidatedData,
} from '../../authority-report';
import type { RecordedEvent } from '../../events';
import type { EventPlugin, EventProjector, ProjectionContext, SqlMigration } from '../../plugin';
import { announceAccountEvents } from './account-events-channel';

/**
 * Channel the answer of a report is announced on (payload: the document id), once the transaction
 * that records it has committed (ProjectionContext.announce), so a listener that hears it reads the
 * committed row. The gateway waits on it for `sync` areas (apps/gateway/src/pipeline/outcome-waiter.ts).
 */
export const DOCUMENT_OUTCOME_CHANNEL = 'document_outcome';

/**
 * Channel a report's request is announced on (payload: its area) once committed: the reporting
 * worker wakes its batch sweep on it, so a batched area's request needs no trip through Kafka
 * (area registry: its `AuthorityReportRequested` is not published).
 */
export const REPORT_REQUESTED_CHANNEL = 'report_requested';

/**
 * `documents` states of a reported document: pending (not answered) → reported (accepted for good)
 * | rejected (refused at submission) | processing (taken, verdict to poll; `next_poll_at` says when)
 * → reported | invalid; reported → cancelling → cancelled | reported (refused: `authority.cancellationError`).
 */
const requested: EventProjector = async (db, event) => {
  const d = event.data as AuthorityReportRequestedData;
  // A document with a Peppol track too (UAE: exchange and reporting) already has its row, from its
  // DocumentSubmitted or DocumentReceived in the same transaction: the report joins it (its bytes are
  // that row's `xml` already, so `rendered` is not filled a second time).
  await db.write(
    `INSERT INTO documents (id, tenant_id, supplier_id, area, direction, document_number, document_type, state, fields,
       rule_set_id, rendered, report_id, report_state, report_version, batch_key, peppol_copy, created_at, updated_at, version, total)
     VALUES ($1, $2, $3, $4, $14, $5, $6, 'pending', $7, $8, $9, $10, 'pending', $12, $13, $15, $11, $11, $12, $16)
     ON CONFLICT (id) DO UPDATE SET report_id = EXCLUDED.report_id, report_state = 'pending', report_version = EXCLUDED.report_version,
       batch_key = EXCLUDED.batch_key, peppol_copy = EXCLUDED.peppol_copy,
       rule_set_id = coalesce(documents.rule_set_id, EXCLUDED.rule_set_id), total = coalesce(documents.total, EXCLUDED.total)
     WHERE documents.report_id IS NULL`,
    // The bytes stay in the event (written once; `reportedFile` in document-bytes.ts reads them).
    [
      d.documentId, d.tenantId, d.supplierId, d.area, d.documentNumber, d.documentType, d.fields, d.ruleSetId, { mediaType: d.document.mediaType, sha256: d.document.sha256 },
      d.reportId, d.requestedAt, event.streamPosition, d.batchKey ?? null, d.direction ?? 'outgoing', d.peppolCopy !== undefined, d.total ?? null,
    ],
    { row: `documents/${d.documentId}` },
  );
  db.announce(REPORT_REQUESTED_CHANNEL, d.area);
  announceAccountEvents(db);
};

/**
 * Moves a document's row on: its report track (`report_state`, guarded by `report_version`, the
 * position in the report's stream), what the authority said (merged into `authority`, so the
 * receipt of the submission stays next to the verdict's), when to poll next; then announces it. A
 * document with no Peppol track (`delivery_status` null) shows the report's state as its `state`;
 * one with both tracks keeps `state` for its delivery (its area reads both).
 */
async function moved(
  db: ProjectionContext,
  event: RecordedEvent,
  documentId: string,
  change: { state?: string; authority?: object; receipt?: object; nextPollAt?: string | null; at: string },
) {
  await db.write(
    `UPDATE documents SET report_state = coalesce($2, report_state),
       state = CASE WHEN delivery_status IS NULL THEN coalesce($2, state) ELSE state END,
       authority = coalesce(authority, '{}'::jsonb) || coalesce($3::jsonb, '{}'::jsonb)
         || CASE WHEN $4::jsonb IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('receipt', coalesce(authority->'receipt', '{}'::jsonb) || $4::jsonb) END,
       next_poll_at = $5, updated_at = $6, report_version = $7
     WHERE id = $1 AND coalesce(report_version, 0) < $7`,
    [documentId, change.state ?? null, change.authority ?? null, change.receipt ?? null, change.nextPollAt ?? null, change.at, event.streamPosition],
    { row: `documents/${documentId}` },
  );
  db.announce(DOCUMENT_OUTCOME_CHANNEL, documentId);
  announceAccountEvents(db);
}

const projectors: Record<AuthorityReportEvent['type'] | DocumentChainEvent['type'], EventProjector | null> = {
  // The chain's order is the stream's; the documents rows come with each record's report.
  DocumentChained: null,
  AuthorityReportRequested: requested,
  // The attempt marker is the worker's bookkeeping: history only.
  AuthorityReportAttempted: null,
  // Sent again once the authority's wait is over (the reporting worker's resend sweep), not by the consumer.
  AuthorityReportAttemptTurnedAway: async (db, event) => {
    const d = event.data as AuthorityReportAttemptTurnedAwayData;
    if (!d.documentId) return;
    await db.write(
      `UPDATE documents SET resend_at = $2::timestamptz + make_interval(secs => $3::float8 / 1000) WHERE id = $1 AND report_id = $4 AND report_state = 'pending'`,
      [d.documentId, d.turnedAwayAt, d.retryAfterMs ?? 0, d.reportId],
      { row: `documents/${d.documentId}` },
    );
  },
  AuthorityReportAccepted: (db, event) => {
    const d = event.data as AuthorityReportAcceptedData;
    return moved(db, event, d.documentId, {
      state: d.final ? 'reported' : 'processing',
      authority: { recovered: d.recovered, answeredAt: d.acceptedAt },
      receipt: d.receipt,
      nextPollAt: d.final ? null : (d.nextPollAt ?? d.acceptedAt),
      at: d.acceptedAt,
    });
  },
  AuthorityReportRejected: (db, event) => {
    const d = event.data as AuthorityReportRejectedData;
    return moved(db, event, d.documentId, { state: 'rejected', authority: { error: d.error, answeredAt: d.rejectedAt }, receipt: d.receipt, at: d.rejectedAt });
  },
  AuthorityReportPolled: (db, event) => {
    const d = event.data as AuthorityReportPolledData;
    return moved(db, event, d.documentId, { authority: { polls: d.pollNo, polledAt: d.polledAt }, nextPollAt: d.nextPollAt, at: d.polledAt });
  },
  AuthorityReportValidated: (db, event) => {
    const d = event.data as AuthorityReportValidatedData;
    return moved(db, event, d.documentId, { state: 'reported', authority: { validatedAt: d.validatedAt }, receipt: d.receipt, at: d.validatedAt });
  },
  AuthorityReportInvalidated: (db, event) => {
    const d = event.data as AuthorityReportInvalidatedData;
    return moved(db, event, d.documentId, { state: 'invalid', authority: { error: d.error, invalidatedAt: d.invalidatedAt }, receipt: d.receipt, at: d.invalidatedAt });
  },
  AuthorityReportCancellationRequested: (db, event) => {
    const d = event.data as AuthorityReportCancellationRequestedData;
    return moved(db, event, d.documentId, { state: 'cancelling', authority: { cancellationReason: d.reason, cancellationError: null }, at: d.requestedAt });
  },
  AuthorityReportCancelled: (db, event) => {
    const d = event.data as AuthorityReportCancelledData;
    return moved(db, event, d.documentId, { state: 'cancelled', authority: { cancelledAt: d.cancelledAt }, at: d.cancelledAt });
  },
  AuthorityReportCancellationRefused: (db, event) => {
    const d = event.data as AuthorityReportCancellationRefusedData;
    return moved(db, event, d.documentId, { state: 'reported', authority: { cancellationError: d.error }, at: d.refusedAt });
  },
  AuthorityReportAmendmentRequested: (db, event) => {
    const d = event.data as AuthorityReportAmendmentRequestedData;
    return moved(db, event, d.documentId, { authority: { amendment: { id: d.amendmentId, change: d.change, status: 'requested', requestedAt: d.requestedAt } }, at: d.requestedAt });
  },
  // The change joins the document's fields (what GET shows) in the transaction that records it.
  AuthorityReportAmended: async (db, event) => {
    const d = event.data as AuthorityReportAmendedData;
    await db.write(`UPDATE documents SET fields = fields || $2::jsonb WHERE id = $1 AND coalesce(report_version, 0) < $3`, [d.documentId, JSON.stringify(d.change), event.streamPosition], { row: `documents/${d.documentId}` });
    return moved(db, event, d.documentId, { authority: { amendment: { id: d.amendmentId, change: d.change, status: 'amended', amendedAt: d.amendedAt } }, at: d.amendedAt });
  },
  AuthorityReportAmendmentRefused: (db, event) => {
    const d = event.data as AuthorityReportAmendmentRefusedData;
    return moved(db, event, d.documentId, { authority: { amendment: { id: d.amendmentId, status: 'refused', error: d.error, refusedAt: d.refusedAt } }, at: d.refusedAt });
  },
  // The document stays accepted (its issuer may still cancel it); GET shows the buyer's reason.
  AuthorityReportBuyerRejected: (db, event) => {
    const d = event.data as AuthorityReportBuyerRejectedData;
    return moved(db, event, d.documentId, { authority: { buyerRejection: { reason: d.reason, requestedAt: d.requestedAt } }, at: d.requestedAt });
  },
  AuthorityReportPeppolCopyWithheld: (db, event) => {
    const d = event.data as AuthorityReportPeppolCopyWithheldData;
    return moved(db, event, d.documentId, { authority: { peppolWithheld: d.reason }, at: d.withheldAt });
  },
};

/** Which report a document is, and when its verdict is next asked for (the reporting worker's poll sweep). */
const documentsReportPolling: SqlMigration = {
  name: 'DocumentsReportPolling1732200000019',
  up: [
    `ALTER TABLE documents ADD COLUMN report_id uuid, ADD COLUMN next_poll_at timestamptz`,
    `CREATE INDEX documents_poll_due ON documents (next_poll_at) WHERE state = 'processing' AND next_poll_at IS NOT NULL`,
  ],
  down: [`DROP INDEX documents_poll_due`, `ALTER TABLE documents DROP COLUMN next_poll_at, DROP COLUMN report_id`],
};

/**
 * A document can have two tracks (UAE: delivery over Peppol and the report to the authority), each
 * moved by its own stream: the report's state and stream position get columns of their own, so
 * neither track's events overwrite or out-version the other's.
 */
const documentsReportTrack: SqlMigration = {
  name: 'DocumentsReportTrack1732200000024',
  up: [
    `ALTER TABLE documents ADD COLUMN report_state text, ADD COLUMN report_version integer`,
    `UPDATE documents SET report_state = state, report_version = version WHERE report_id IS NOT NULL`,
    `DROP INDEX documents_poll_due`,
    `CREATE INDEX documents_poll_due ON documents (next_poll_at) WHERE report_state = 'processing' AND next_poll_at IS NOT NULL`,
  ],
  down: [
    `DROP INDEX documents_poll_due`,
    `CREATE INDEX documents_poll_due ON documents (next_poll_at) WHERE state = 'processing' AND next_poll_at IS NOT NULL`,
    `ALTER TABLE documents DROP COLUMN report_version, DROP COLUMN report_state`,
  ],
};

/**
 * Batched reporting (area registry `authority.batch`): the batch sweep finds, per area and issuer,
 * the reports not answered yet, oldest first; `authority_call_windows` keeps, per area and issuer,
 * when the authority allows the next call (the wait it stated in its last answer).
 */
const authorityBatches: SqlMigration = {
  name: 'AuthorityBatches1732200000029',
  up: [
    `CREATE INDEX documents_report_pending ON documents (area, supplier_id, created_at) WHERE report_state = 'pending'`,
    `CREATE TABLE authority_call_windows (
       area text NOT NULL,
       supplier_id uuid NOT NULL,
       next_call_at timestamptz NOT NULL,
       PRIMARY KEY (area, supplier_id)
     )`,
  ],
  down: [`DROP TABLE authority_call_windows`, `DROP INDEX documents_report_pending`],
};

/**
 * Reports a caller submitted together (`batchKey`, MyInvois's submissions) are found and sent
 * together; a cancelled document's number is free again, as a refused one's (MyInvois takes a
 * cancelled document's ID for its replacement), so the uniqueness of outgoing numbers leaves it out too.
 */
const authorityBatchKeys: SqlMigration = {
  name: 'AuthorityBatchKeys1732200000034',
  up: [
    `ALTER TABLE documents ADD COLUMN batch_key text`,
    `DROP INDEX documents_report_pending`,
    `CREATE INDEX documents_report_pending ON documents (area, supplier_id, batch_key, created_at) WHERE report_state = 'pending'`,
    `DROP INDEX documents_supplier_number_key`,
    `CREATE UNIQUE INDEX documents_supplier_number_key ON documents (supplier_id, document_number)
       WHERE direction = 'outgoing' AND (report_state IS NULL OR report_state NOT IN ('rejected', 'invalid', 'cancelled'))`,
  ],
  down: [
    `DROP INDEX documents_supplier_number_key`,
    `CREATE UNIQUE INDEX documents_supplier_number_key ON documents (supplier_id, document_number)
       WHERE direction = 'outgoing' AND (report_state IS NULL OR report_state NOT IN ('rejected', 'invalid'))`,
    `DROP INDEX documents_report_pending`,
    `CREATE INDEX documents_report_pending ON documents (area, supplier_id, created_at) WHERE report_state = 'pending'`,
    `ALTER TABLE documents DROP COLUMN batch_key`,
  ],
};

/**
 * Reports the authority turned away (429): when each is sent again (`resend_at`: the turn-away plus the
 * wait the authority asked for), found by the reporting worker's resend sweep while still pending.
 */
const reportResends: SqlMigration = {
  name: 'ReportResends1732200001810',
  up: [
    `ALTER TABLE documents ADD COLUMN resend_at timestamptz`,
    `CREATE INDEX documents_resend_due ON documents (resend_at) WHERE report_state = 'pending' AND resend_at IS NOT NULL`,
  ],
  down: [`DROP INDEX documents_resend_due`, `ALTER TABLE documents DROP COLUMN resend_at`],
};

/**
 * Whether a report asked for a Peppol copy (`peppolCopy`, Poland and Malaysia `transport_mode: peppol`): its
 * document's GET says where the copy is before it is released (MyInvois: `awaiting_validation`, `withheld`),
 * which the row alone did not tell (the request event did, read on every GET). Null where unknown: a row
 * without a report, or written by a gateway of before this column during a rolling deploy (the reads look
 * at the request event then: apps/gateway/src/pipeline/document-rows.ts).
 */
const documentsPeppolCopy: SqlMigration = {
  name: 'DocumentsPeppolCopy1732200001850',
  up: [
    `ALTER TABLE documents ADD COLUMN peppol_copy boolean`,
    `UPDATE documents d SET peppol_copy = EXISTS (
       SELECT 1 FROM events e WHERE e.stream_id = 'report-' || d.report_id AND e.stream_position = 1 AND e.data ? 'peppolCopy')
     WHERE d.report_id IS NOT NULL`,
  ],
  down: [`ALTER TABLE documents DROP COLUMN peppol_copy`],
};

/** Which areas' documents of before the reporting pipeline were carried onto it (area registry `authority.carryOver`), once each. */
const reportCarryOvers: SqlMigration = {
  name: 'ReportCarryOvers1732200000036',
  up: [
    `CREATE TABLE report_carry_overs (
       name text PRIMARY KEY,
       reports integer NOT NULL,
       done_at timestamptz NOT NULL DEFAULT now()
     )`,
  ],
  down: [`DROP TABLE report_carry_overs`],
};

/**
 * Reports to tax authorities, for every area that has one (libs/domain/src/authority-report): the
 * `report-<id>` streams and their documents rows. Part of every app's registry (platformEventRegistry).
 */
export const reportingPlugin: EventPlugin = {
  name: 'reporting',
  streams: { report: 'reports', chain: 'reports' },
  projectors,
  migrations: [documentsReportPolling, documentsReportTrack, authorityBatches, authorityBatchKeys, reportCarryOvers, reportResends, documentsPeppolCopy],
  // The reporting worker's bookkeeping, which no consumer handles: an attempt marker (read back from the
  // stream by the worker itself) and a poll that found no verdict (its next poll is the read model's).
  unpublished: ['AuthorityReportAttempted', 'AuthorityReportAttemptTurnedAway', 'AuthorityReportPolled'],
  schemas: {
    // Schema 1 had no `final`: every accepted report was final then.
    AuthorityReportAccepted: { current: 2, upcasters: { 1: (data) => ({ ...data, final: true }) } },
  },
};
