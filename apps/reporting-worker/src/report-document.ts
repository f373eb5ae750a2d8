import type { DocumentSubmittedData, Logger } from '@einvoice/domain';
import type { EventHandler } from '@einvoice/domain/infrastructure';

/**
 * Areas whose documents are reported to a tax authority. Belgium, Germany and Singapore are
 * Peppol-only (no continuous reporting in the seed), so nothing of theirs is reported; the
 * Malaysian (MyInvois) connector joins here with its own area.
 */
const REPORTING_AREAS = new Set<string>();

export function createReportingHandler(log: Logger): EventHandler {
  return async (event) => {
    if (event.type !== 'DocumentSubmitted') return;
    const document = event.data as DocumentSubmittedData;
    if (!REPORTING_AREAS.has(document.area)) {
      log('debug', 'no tax reporting for this area', { documentId: document.documentId, area: document.area });
    }
  };
}
