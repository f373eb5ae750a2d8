import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { notFound } from '@einvoice/domain';

/** A document's exact bytes, their media type, and the SHA-256 they are served with. */
export interface RawDocument {
  readonly contentType: string;
  readonly bytes: Buffer;
  /** Lower-case hex, the MyInvois `documentHash` form. */
  readonly sha256Hex: string;
}

function raw(text: string, contentType: string): RawDocument {
  // UTF-8 bytes of the exact text: the bytes the MyInvois documentHash covers (hash.ts), never re-serialised.
  const bytes = Buffer.from(text, 'utf8');
  return { contentType, bytes, sha256Hex: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * Headers of a raw document: `Repr-Digest` (RFC 9530, `sha-256=:<base64>:`, the successor of
 * RFC 3230's `Digest`) for any HTTP client, and `X-Document-Hash` (lower-case hex) to compare with
 * MyInvois's `documentHash` as it is.
 */
export function digestHeaders(document: RawDocument): Record<string, string> {
  return {
    'content-type': document.contentType,
    'repr-digest': `sha-256=:${Buffer.from(document.sha256Hex, 'hex').toString('base64')}:`,
    'x-document-hash': document.sha256Hex,
  };
}

interface SubmittedRow {
  format: 'JSON' | 'XML';
  document: string;
  peppol_xml: string | null;
}

/** The document as it stands in its submission event (the read model keeps only the hash). */
async function submittedDocument(dataSource: DataSource, submissionId: string, documentId: string): Promise<SubmittedRow | undefined> {
  const rows: SubmittedRow[] = await dataSource.query(
    `SELECT doc->>'format' AS format, doc->>'document' AS document, doc->'peppol'->>'xml' AS peppol_xml
     FROM events e CROSS JOIN LATERAL jsonb_array_elements(e.data->'documents') doc
     WHERE e.stream_id = $1 AND e.type = 'MyInvoisDocumentsSubmitted' AND doc->>'documentId' = $2`,
    [`myinvois-${submissionId}`, documentId],
  );
  return rows[0];
}

/** `GET /api/einvoice/documents/{id}/raw`: the exact document submitted to MyInvois. */
export async function myInvoisDocumentBytes(dataSource: DataSource, row: { id: string; submission_id: string }): Promise<RawDocument> {
  const submitted = await submittedDocument(dataSource, row.submission_id, row.id);
  if (!submitted) throw notFound('DOCUMENT.NOT_FOUND', `No MyInvois document ${row.id} for this supplier.`);
  return raw(submitted.document, submitted.format === 'XML' ? 'application/xml; charset=utf-8' : 'application/json; charset=utf-8');
}

/**
 * `GET /api/einvoice/documents/{id}/peppol`: its PINT MY copy, sent, awaiting validation or
 * withheld (GET `peppol` says which); 404 `DOCUMENT.NO_PEPPOL_COPY` when it has none.
 */
export async function peppolCopyBytes(dataSource: DataSource, row: { id: string; submission_id: string; peppol_document_id: string | null }): Promise<RawDocument> {
  const submitted = await submittedDocument(dataSource, row.submission_id, row.id);
  // Schema-1 submissions carried no copy: theirs left at submission and sits in `documents`.
  const [sent]: Array<{ xml: string }> = row.peppol_document_id && !submitted?.peppol_xml
    ? await dataSource.query(`SELECT xml FROM documents WHERE id = $1`, [row.peppol_document_id])
    : [];
  const xml = submitted?.peppol_xml ?? sent?.xml;
  if (!xml) throw notFound('DOCUMENT.NO_PEPPOL_COPY', `MyInvois document ${row.id} has no Peppol copy (sent without transport_mode: peppol, consolidated, or to a generic TIN).`);
  return raw(xml, 'application/xml; charset=utf-8');
}
