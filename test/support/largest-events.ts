// The largest events the API can produce, built with the real renderers, for the tests that prove
// the outbox relay and Kafka carry them (README "How it works", Kafka: message sizes).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { myinvois } from '@einvoice/areas';
import type { MyInvoisDocumentsSubmittedData } from '@einvoice/areas';
import { invoiceBody, line, sst, supplier } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { submittedDocumentOf } from '../../apps/gateway/src/areas/myinvois/peppol-leg';

/** MyInvois's own limits (Submit Documents): 100 documents, 5 MB in all. */
const { MAX_DOCUMENTS_PER_SUBMISSION, MAX_SUBMISSION_BYTES } = myinvois;

/**
 * Descriptions of random text, so that compression cannot make the event look smaller than a
 * real one with varied content (base64 of random bytes: about 75% after GZIP, the worst case).
 */
const randomText = (length: number) => randomBytes(length).toString('base64').slice(0, length);

/** An invoice with `lines` lines of 300-character descriptions (the schema's longest). */
function bigInvoice(id: string, lines: number): Record<string, unknown> {
  return invoiceBody({ ID: id, InvoiceLines: Array.from({ length: lines }, () => line(randomText(300), 1, 10, [sst()])) });
}

/** Rendered MyInvois bytes of one invoice of `lines` lines (the bytes the 5 MB limit counts). */
function renderedBytes(lines: number): number {
  const prepared = myinvois.prepareSubmission('invoice', [bigInvoice('PROBE', lines)], supplier, new Set());
  return Buffer.byteLength(String(prepared.documents[0].submission.document));
}

/**
 * A `MyInvoisDocumentsSubmitted` as the gateway appends it for a bulk at MyInvois's limits with
 * `transport_mode: peppol`: 100 documents whose rendered JSON adds up to just under 5 MB, each
 * with its PINT MY copy and the caller's fields.
 */
export function largestMyInvoisBulk(): { data: MyInvoisDocumentsSubmittedData; documentBytes: number } {
  const perDocument = Math.floor(MAX_SUBMISSION_BYTES / MAX_DOCUMENTS_PER_SUBMISSION);
  const oneLine = renderedBytes(2) - renderedBytes(1);
  const lines = Math.floor((perDocument - renderedBytes(1)) / oneLine);
  const bodies = Array.from({ length: MAX_DOCUMENTS_PER_SUBMISSION }, (_, i) => bigInvoice(`BULK-${i + 1}`, lines));
  const prepared = myinvois.preparePeppolLeg(myinvois.prepareSubmission('invoice', bodies, supplier, new Set()), supplier);
  if (prepared.rejected.length > 0) throw new Error(`fixture refused: ${JSON.stringify(prepared.rejected[0])}`);
  const data: MyInvoisDocumentsSubmittedData = {
    submissionId: randomUUID(),
    tenantId: randomUUID(),
    supplierId: randomUUID(),
    kind: 'invoice',
    submittedAt: new Date().toISOString(),
    documents: prepared.documents.map(submittedDocumentOf),
  };
  const documentBytes = data.documents.reduce((sum, d) => sum + Buffer.byteLength(d.document), 0);
  return { data, documentBytes };
}

/** SHA-256 over every document and PINT MY copy, in order: what must arrive unchanged. */
export function bulkDigest(data: MyInvoisDocumentsSubmittedData): string {
  const hash = createHash('sha256');
  for (const d of data.documents) hash.update(d.document).update('\0').update(d.peppol && 'xml' in d.peppol ? d.peppol.xml : '').update('\0');
  return hash.digest('hex');
}
