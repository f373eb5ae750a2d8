import { AppError, issue } from '@einvoice/domain';
import { uae } from '@einvoice/areas';
import type { OnAccepted } from '../../pipeline/submission';

/**
 * Takes a document's number for its financial year (`uae_document_numbers`), in the transaction that
 * records the request's answer (the pipeline's `onAccepted` step), so it is taken exactly when its
 * document or its validation is recorded. Seed 001: a number that went through `validate` is consumed.
 * A number already taken is a 409: by a document, a duplicate; by a validation, the seed's retention
 * rule (409, not its 500: libs/areas/src/uae/README.md). Kept here, not in the area registry: no other
 * area reserves numbers this way (libs/areas/src/uae/README.md "On the pipeline").
 */
export function takeNumber(supplierId: string, takenBy: 'document' | 'validate'): OnAccepted {
  return async (uow, { documentId, parsed }) => {
    const { financialYear, identifier } = uae.uaeNumberParts(parsed.number);
    const taken: unknown[] = await uow.query(
      `INSERT INTO uae_document_numbers (supplier_id, financial_year, document_identifier, taken_by, document_id) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING 1`,
      [supplierId, financialYear, identifier, takenBy, takenBy === 'document' ? documentId : null],
    );
    if (taken.length === 1) return;
    const [holder]: Array<{ taken_by: string }> = await uow.query(
      `SELECT taken_by FROM uae_document_numbers WHERE supplier_id = $1 AND financial_year = $2 AND document_identifier = $3`,
      [supplierId, financialYear, identifier],
    );
    if (holder?.taken_by === 'validate') {
      throw new AppError('conflict', 'DOCUMENT.RETENTION_BLOCKED', 'The operation was blocked by a retention rule.', {
        issues: [issue('document_identifier', 'DOCUMENT.RETENTION_BLOCKED', `${identifier} went through validate in financial year ${financialYear}: send the document under a new number.`)],
      });
    }
    throw new AppError('conflict', 'DOCUMENT.DUPLICATE_ID', `Document ${identifier} exists already in financial year ${financialYear}.`, {
      issues: [issue('document_identifier', 'DOCUMENT.DUPLICATE_ID', `${identifier} is already used by this participant in financial year ${financialYear}.`)],
    });
  };
}
