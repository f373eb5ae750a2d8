// The largest event the API can produce, built with the real renderers, for the tests that prove
// the outbox relay and Kafka carry it (README "How it works", Kafka: message sizes).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type AuthorityReportRequestedData } from '@einvoice/domain';
import { areaOf, myinvois } from '@einvoice/areas';
import { invoiceBody, line, sst, supplier } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { reportRequestOf } from '../../apps/gateway/src/pipeline/report-requests';

/** MyInvois's own limit per document (Submit Documents): 300 KB. */
const { MAX_DOCUMENT_BYTES } = myinvois;

/**
 * Descriptions of random text, so that compression cannot make the event look smaller than a
 * real one with varied content (base64 of random bytes: about 75% after GZIP, the worst case).
 */
const randomText = (length: number) => randomBytes(length).toString('base64').slice(0, length);

/** An invoice with `lines` lines of 300-character descriptions (the schema's longest). */
function bigInvoice(id: string, lines: number): Record<string, unknown> {
  return invoiceBody({ ID: id, InvoiceLines: Array.from({ length: lines }, () => line(randomText(300), 1, 10, [sst()])) });
}

/** Rendered MyInvois bytes of one invoice of `lines` lines (the bytes the 300 KB limit counts). */
function renderedBytes(lines: number): number {
  const prepared = myinvois.prepareSubmission('invoice', [bigInvoice('PROBE', lines)], supplier, new Set(), { submissionId: randomUUID(), transportMode: 'myinvois' });
  return Buffer.byteLength(prepared.documents[0].rendered.bytes);
}

/**
 * The `AuthorityReportRequested` the gateway appends for one MyInvois document at MyInvois's limit
 * with `transport_mode: peppol`: its rendered JSON just under 300 KB, the caller's fields and its PINT
 * MY copy (each document of a bulk is a report of its own since #8).
 */
export function largestMyInvoisReport(): { data: AuthorityReportRequestedData; documentBytes: number } {
  const oneLine = renderedBytes(2) - renderedBytes(1);
  const lines = Math.floor((MAX_DOCUMENT_BYTES - renderedBytes(1)) / oneLine);
  const submissionId = randomUUID();
  const prepared = myinvois.prepareSubmission('invoice', [bigInvoice('BIG-1', lines)], supplier, new Set(), { submissionId, transportMode: 'peppol' });
  if (prepared.rejected.length > 0) throw new Error(`fixture refused: ${JSON.stringify(prepared.rejected[0])}`);
  const data = reportRequestOf(areaOf('my'), prepared.documents[0], {
    tenantId: randomUUID(), supplierId: randomUUID(), documentId: randomUUID(), reportId: randomUUID(), requestedAt: new Date().toISOString(), batchKey: submissionId,
  });
  return { data, documentBytes: Buffer.byteLength(data.document.bytes) };
}

/** SHA-256 over the document and its PINT MY copy: what must arrive unchanged. */
export function reportDigest(data: AuthorityReportRequestedData): string {
  return createHash('sha256').update(data.document.bytes).update('\0').update(data.peppolCopy?.xml ?? '').digest('hex');
}
