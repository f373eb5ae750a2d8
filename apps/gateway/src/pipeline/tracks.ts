import {
  type AuthorityReportRequestedData,
  type PeppolCopyData,
  type DocumentSubmittedData,
  type EventMetadata,
  authorityReportDecider,
  authorityReportStreamId,
  documentDecider,
  documentStreamId,
} from '@einvoice/domain';
import { type UnitOfWork, handleCommand, storeDocumentAttachments } from '@einvoice/domain/infrastructure';
import type { DocumentAttachment, DocumentCodec, ParsedDocument, PeppolExchange, RenderedDocument } from '@einvoice/areas';
import type { SupplierRecord } from '../suppliers/supplier-lookup';

/**
 * What a submission records besides its answer, each on its own aggregate: its delivery over Peppol
 * (the exchange track: `DocumentSubmitted`, taken by the delivery worker) and its report to the
 * authority (`AuthorityReportRequested`, taken by the reporting worker). Either or both; both make one
 * `documents` row. The files its document embeds are stored with them, once (`RenderedDocument.attachments`).
 */
export interface Tracks {
  readonly delivery?: DocumentSubmittedData;
  readonly report?: AuthorityReportRequestedData;
  readonly attachments?: readonly DocumentAttachment[];
}

/** Appends a submission's tracks, in the caller's transaction (the one of its idempotency record). */
export async function recordTracks(uow: UnitOfWork, metadata: EventMetadata, { delivery, report, attachments }: Tracks): Promise<void> {
  // The delivery first: the report then joins the row its DocumentSubmitted made (projections/authority-reports.ts).
  if (delivery) {
    await handleCommand(uow, documentDecider, documentStreamId(delivery.documentId), { type: 'SubmitDocument', data: delivery }, metadata, { newStream: true });
  }
  if (report) {
    await handleCommand(uow, authorityReportDecider, authorityReportStreamId(report.reportId), { type: 'RequestAuthorityReport', data: report }, metadata, { newStream: true });
  }
  const documentId = (delivery ?? report)?.documentId;
  if (attachments?.length && documentId) await storeDocumentAttachments((sql, parameters) => uow.query(sql, parameters), documentId, attachments);
}

/**
 * A document's delivery over Peppol (area registry `exchange`): its envelope, sent by the supplier's
 * first participant (the one its profile names, when none is registered any more). `rendered` is what
 * the authority is sent, when the area reports too.
 */
export function deliveryOf(
  exchange: PeppolExchange,
  parsed: ParsedDocument,
  supplier: SupplierRecord,
  documentId: string,
  submittedAt: string,
  rendered?: RenderedDocument,
): DocumentSubmittedData {
  const { xml, receiverParticipantId } = exchange.envelope(parsed, supplier.profile, documentId, rendered);
  return {
    documentId,
    tenantId: supplier.tenantId,
    supplierId: supplier.id,
    area: supplier.area,
    documentNumber: parsed.number,
    documentType: parsed.type,
    transportMode: 'peppol',
    senderParticipantId: supplier.participantIds[0] ?? exchange.participantIds(supplier.profile)[0] ?? '',
    receiverParticipantId,
    // Peppol's C1 is the supplier, whatever the document's roles (a self-billed invoice is sent by its buyer):
    // its country travels in the envelope (SBDH COUNTRY_C1) and Peppol Reporting counts by it (#46).
    countryC1: supplier.profile.country,
    // The parsed fields themselves, not a plain copy: nothing reads them before they are written as
    // JSON, which is the same text (a JSON round trip here was 65 µs of every submission; issue 11).
    fields: parsed.fields,
    ...(parsed.total !== undefined ? { total: parsed.total } : {}),
    xml,
    submittedAt,
  };
}

/**
 * A reported document's Peppol copy (area codec `peppolCopy`), with its sender's country (C1: the
 * supplier's), which the copy's envelope and Peppol Reporting need once it is released (#46).
 */
export function peppolCopyOf(documents: DocumentCodec, parsed: ParsedDocument, supplier: SupplierRecord, documentId: string): PeppolCopyData | undefined {
  const copy = documents.peppolCopy?.(parsed, supplier.profile, documentId);
  return copy && { ...copy, countryC1: supplier.profile.country };
}
