import { createHash } from 'node:crypto';
import type { SupplierProfile } from '@einvoice/domain';
import type { ParsedDocument, RenderedDocument } from '../registry/area';

/** The toy authority's document: compact JSON of the seller's tax id and the caller's fields, in a fixed order. */
export function renderToyDocument(document: ParsedDocument, supplier: SupplierProfile, documentId: string): RenderedDocument {
  const taxId = supplier.identifiers.find((i) => i.scheme === 'TOY:TAX')?.id ?? '';
  const { ID, IssueDate, Total, Note } = document.fields as { ID: string; IssueDate: string; Total: number; Note?: string };
  const bytes = JSON.stringify({ documentId, seller: taxId, number: ID, issueDate: IssueDate, total: Total, note: Note ?? null });
  return { bytes, mediaType: 'application/json', sha256: createHash('sha256').update(bytes).digest('hex') };
}
