import type { ProjectionContext, RecordedEvent } from '@einvoice/domain';
import type { MyInvoisBuyerRejectionRecordedData, MyInvoisBuyerRejectionRefusedData, MyInvoisBuyerRejectionRequestedData } from '../domain';

/**
 * The `myinvois_rejections` read model: one row per buyer and received document
 * (`GET /api/einvoice/received/{uuid}/rejection`), states `requested` (MyInvois not answered
 * yet), `rejected` (MyInvois recorded it), `refused` (with the authority's error and its kind).
 * A new request after a refusal reuses the row. Versioned by stream position, so replay is idempotent.
 */
export async function projectMyInvoisRejections(uow: ProjectionContext, event: RecordedEvent): Promise<void> {
  const position = event.streamPosition;
  switch (event.type) {
    case 'MyInvoisBuyerRejectionRequested': {
      const d = event.data as MyInvoisBuyerRejectionRequestedData;
      await uow.query(
        `INSERT INTO myinvois_rejections (id, tenant_id, supplier_id, uuid, state, reason, requested_at, version)
         VALUES ($1, $2, $3, $4, 'requested', $5, $6, $7)
         ON CONFLICT (id) DO UPDATE SET state = 'requested', reason = $5, requested_at = $6, error = NULL, error_kind = NULL,
           answered_at = NULL, version = $7 WHERE myinvois_rejections.version < $7`,
        [d.rejectionId, d.tenantId, d.supplierId, d.uuid, d.reason, d.requestedAt, position],
      );
      return;
    }
    case 'MyInvoisBuyerRejectionRecorded': {
      const d = event.data as MyInvoisBuyerRejectionRecordedData;
      await uow.query(`UPDATE myinvois_rejections SET state = 'rejected', answered_at = $2, version = $3 WHERE id = $1 AND version < $3`, [d.rejectionId, d.rejectedAt, position]);
      return;
    }
    case 'MyInvoisBuyerRejectionRefused': {
      const d = event.data as MyInvoisBuyerRejectionRefusedData;
      await uow.query(
        `UPDATE myinvois_rejections SET state = 'refused', error = $2, error_kind = $3, answered_at = $4, version = $5 WHERE id = $1 AND version < $5`,
        [d.rejectionId, d.error, d.kind, d.refusedAt, position],
      );
      return;
    }
    default:
      return;
  }
}
