import { type ConstraintErrorMap, type ProjectionContext, type RecordedEvent, conflict } from '@einvoice/domain';
import { type MyInvoisDocumentCancellationRefusedData, type MyInvoisDocumentCancellationRequestedData, type MyInvoisDocumentCancelledData, type MyInvoisDocumentInvalidatedData, type MyInvoisDocumentRejectedByBuyerData, type MyInvoisDocumentValidatedData, type MyInvoisDocumentsSubmittedData, type MyInvoisPeppolCopyWithheldData, type MyInvoisSubmissionAcceptedData, type MyInvoisSubmissionDeferredData, type MyInvoisSubmissionPolledData, type MyInvoisSubmissionRejectedData, type SubmissionError, PEPPOL_WITHHELD } from '../domain';

/** SET clause: a copy still awaiting validation never leaves once the document is rejected or invalid (`reason`: its parameter). */
const withhold = (reason: string) => `peppol_reason = CASE WHEN peppol_state = 'awaiting_validation' THEN ${reason}::jsonb ELSE peppol_reason END,
  peppol_state = CASE WHEN peppol_state = 'awaiting_validation' THEN 'withheld' ELSE peppol_state END`;

/**
 * The `myinvois_documents` read model (#4): one row per submitted document, states `pending`
 * (at the gateway, not yet answered), `submitted` (MyInvois gave it a uuid), `rejected`,
 * `valid`, `invalid`, `cancelling`, `cancelled`, `rejected_by_buyer` (the buyer asked MyInvois to
 * reject it, seen by the rejection-watch; still valid there, and its ID still taken, until the
 * issuer cancels it: `rejected` already means refused at submission). Inserts are idempotent on
 * replay; updates are versioned by the stream position (`version < position`).
 * `peppol_state` follows the PINT MY copy: `awaiting_validation` until MyInvois says Valid, then
 * `released` (the `documents` row of its DocumentSubmitted tells how far it got), or `withheld` with
 * `peppol_reason` when it never leaves.
 */
export async function projectMyInvoisDocuments(uow: ProjectionContext, event: RecordedEvent): Promise<void> {
  const position = event.streamPosition;
  switch (event.type) {
    case 'MyInvoisDocumentsSubmitted': {
      const d = event.data as MyInvoisDocumentsSubmittedData;
      for (const doc of d.documents) {
        await uow.query(
          `INSERT INTO myinvois_documents (id, submission_id, tenant_id, supplier_id, kind, invoice_code_number, document_hash,
             state, created_at, updated_at, version, peppol_document_id, peppol_state)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING`,
          [
            doc.documentId, d.submissionId, d.tenantId, d.supplierId, d.kind, doc.invoiceCodeNumber, doc.documentHash, d.submittedAt, position,
            doc.peppol?.documentId ?? null, doc.peppol ? ('sentAtSubmission' in doc.peppol ? 'released' : 'awaiting_validation') : null,
          ],
        );
      }
      return;
    }
    case 'MyInvoisSubmissionAccepted': {
      const d = event.data as MyInvoisSubmissionAcceptedData;
      for (const doc of d.acceptedDocuments) {
        await uow.query(
          // Due for its first poll at once (next_poll_at: the reporting worker's poll sweep).
          `UPDATE myinvois_documents SET state = 'submitted', uuid = $2, submission_uid = $3, updated_at = $4, version = $5, next_poll_at = $4
           WHERE id = $1 AND version < $5`,
          [doc.documentId, doc.uuid, doc.submissionUid ?? d.submissionUid, d.acceptedAt, position],
        );
      }
      for (const doc of d.rejectedDocuments) {
        await uow.query(
          `UPDATE myinvois_documents SET state = 'rejected', error = $2, submission_uid = $3, updated_at = $4, version = $5, ${withhold('$6')}
           WHERE id = $1 AND version < $5`,
          [doc.documentId, doc.error, d.submissionUid, d.acceptedAt, position, PEPPOL_WITHHELD.rejected(doc.error)],
        );
      }
      return;
    }
    case 'MyInvoisSubmissionDeferred': {
      // When the reporting worker's submit sweep tries again (its per-client-id scheduler). Still `pending` for the client.
      const d = event.data as MyInvoisSubmissionDeferredData;
      await uow.query(`UPDATE myinvois_documents SET next_submit_at = $2, version = $3 WHERE submission_id = $1 AND state = 'pending' AND version < $3`, [
        d.submissionId,
        d.dueAt,
        position,
      ]);
      return;
    }
    case 'MyInvoisSubmissionPolled': {
      // When the poll sweep asks again; null when the chain of polls is over. `updated_at` stays the state change's time.
      const d = event.data as MyInvoisSubmissionPolledData;
      await uow.query(`UPDATE myinvois_documents SET next_poll_at = $2, version = $3 WHERE submission_id = $1 AND state = 'submitted' AND version < $3`, [
        d.submissionId,
        d.nextPollAt ?? null,
        position,
      ]);
      return;
    }
    case 'MyInvoisSubmissionRejected': {
      const d = event.data as MyInvoisSubmissionRejectedData;
      await uow.query(
        `UPDATE myinvois_documents SET state = 'rejected', error = $2, updated_at = $3, version = $4, ${withhold('$5')}
         WHERE submission_id = $1 AND version < $4`,
        [d.submissionId, d.error, d.rejectedAt, position, PEPPOL_WITHHELD.rejected(d.error)],
      );
      return;
    }
    case 'MyInvoisDocumentValidated': {
      const d = event.data as MyInvoisDocumentValidatedData;
      await uow.query(
        // Its copy's DocumentSubmitted is appended in this transaction (or MyInvoisPeppolCopyWithheld right after).
        `UPDATE myinvois_documents SET state = 'valid', long_id = $2, validated_at = $3, updated_at = $3, version = $4,
           peppol_state = CASE WHEN peppol_state = 'awaiting_validation' THEN 'released' ELSE peppol_state END
         WHERE id = $1 AND version < $4`,
        [d.documentId, d.longId, d.validatedAt, position],
      );
      return;
    }
    case 'MyInvoisDocumentInvalidated': {
      const d = event.data as MyInvoisDocumentInvalidatedData;
      await uow.query(
        `UPDATE myinvois_documents SET state = 'invalid', error = $2, updated_at = $3, version = $4, ${withhold('$5')}
         WHERE id = $1 AND version < $4`,
        [d.documentId, { code: 'Invalid', message: d.reason }, d.invalidatedAt, position, PEPPOL_WITHHELD.invalid(d.reason)],
      );
      return;
    }
    case 'MyInvoisPeppolCopyWithheld': {
      const d = event.data as MyInvoisPeppolCopyWithheldData;
      await uow.query(
        `UPDATE myinvois_documents SET peppol_state = 'withheld', peppol_reason = $2, updated_at = $3, version = $4 WHERE id = $1 AND version < $4`,
        [d.documentId, d.reason satisfies SubmissionError, d.withheldAt, position],
      );
      return;
    }
    case 'MyInvoisDocumentCancellationRequested': {
      const d = event.data as MyInvoisDocumentCancellationRequestedData;
      await uow.query(`UPDATE myinvois_documents SET state = 'cancelling', updated_at = $2, version = $3 WHERE id = $1 AND version < $3`, [d.documentId, d.requestedAt, position]);
      return;
    }
    case 'MyInvoisDocumentCancelled': {
      const d = event.data as MyInvoisDocumentCancelledData;
      await uow.query(`UPDATE myinvois_documents SET state = 'cancelled', updated_at = $2, version = $3 WHERE id = $1 AND version < $3`, [d.documentId, d.cancelledAt, position]);
      return;
    }
    case 'MyInvoisDocumentRejectedByBuyer': {
      const d = event.data as MyInvoisDocumentRejectedByBuyerData;
      await uow.query(
        `UPDATE myinvois_documents SET state = 'rejected_by_buyer', rejection_reason = $2, rejection_requested_at = $3, updated_at = $5, version = $4
         WHERE id = $1 AND version < $4`,
        [d.documentId, d.reason, d.requestedAt, position, event.recordedAt],
      );
      return;
    }
    case 'MyInvoisDocumentCancellationRefused': {
      // The document is as it was before the request: valid, or rejected by the buyer and still valid.
      const d = event.data as MyInvoisDocumentCancellationRefusedData;
      await uow.query(
        `UPDATE myinvois_documents SET state = CASE WHEN rejection_requested_at IS NULL THEN 'valid' ELSE 'rejected_by_buyer' END,
           error = $2, updated_at = $3, version = $4 WHERE id = $1 AND version < $4`,
        [d.documentId, d.error, d.refusedAt, position],
      );
      return;
    }
    default:
      return;
  }
}

/** A concurrent request that submitted the same ID first wins; this one is a 409. */
export const myInvoisConstraintErrors: ConstraintErrorMap = {
  myinvois_documents_supplier_number_key: () =>
    conflict('DOCUMENT.DUPLICATE_ID', 'A document with this ID was already submitted by this supplier.', [
      { path: 'ID', code: 'DOCUMENT.DUPLICATE_ID', message: 'ID is already used by another document of this supplier.', severity: 'error' },
    ]),
};
