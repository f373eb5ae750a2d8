/**
 * References and attachments (seed "References, attachments and other blocks", issue 10). A
 * plain `document_references[]` entry is a preceding invoice (IBG-03, cac:BillingReference) when it
 * carries an `issue_date` (the advance invoice of seed §10, the corrected invoice), or when it is a
 * credit note's entry without a `document_type_code`; every other entry is an additional
 * supporting document (IBG-24), with its URI (IBT-124) or embedded content (IBT-125). Embedded
 * contents also come out as attachments, numbered 1, 2... in order, for `…/attachments/{index}`.
 */
import type { UblBillingReference, UblDocumentReference } from '../ubl';
import type { UaeDocument } from './document';

/** An embedded attachment, stored once and read back by index (`…/attachments/{index}`, 1-based). */
export interface UaeAttachment {
  readonly index: number;
  readonly filename: string;
  readonly mimeCode: string;
  readonly bytes: Buffer;
}

type Reference = NonNullable<UaeDocument['document_references']>[number];

export interface UaeReferences {
  readonly billing: readonly UblBillingReference[];
  readonly additional: readonly UblDocumentReference[];
  readonly attachments: readonly UaeAttachment[];
}

const isPlain = (r: Reference) => r.attachment_uri === undefined && r.embedded_document === undefined;

function isPrecedingInvoice(r: Reference, creditNote: boolean): boolean {
  return isPlain(r) && (r.issue_date !== undefined || (creditNote && r.document_type_code === undefined && r.scheme_id === undefined));
}

/** Splits the references; `creditNote` for types 381, 81, 261. */
export function uaeReferences(d: UaeDocument, creditNote: boolean): UaeReferences {
  const billing: UblBillingReference[] = [];
  const additional: UblDocumentReference[] = [];
  const attachments: UaeAttachment[] = [];
  for (const r of d.document_references ?? []) {
    if (isPrecedingInvoice(r, creditNote)) {
      billing.push({ id: r.document_identifier, issueDate: r.issue_date });
      continue;
    }
    const e = r.embedded_document;
    // Both are present once embedded_document is (phase 1, schema.ts `UaeEmbeddedDocument`).
    const embedded = e && { mimeCode: e.mime_code as string, filename: e.filename as string, base64: e.content.replace(/\s/g, '') };
    if (embedded) attachments.push({ index: attachments.length + 1, filename: embedded.filename, mimeCode: embedded.mimeCode, bytes: Buffer.from(embedded.base64, 'base64') });
    additional.push({ id: r.document_identifier, schemeId: r.scheme_id, typeCode: r.document_type_code, uri: r.attachment_uri, embedded });
  }
  return { billing, additional, attachments };
}

/**
 * The request as accepted, for GET: the normalised document with each embedded content replaced
 * by its attachment's `index` and `size_bytes` (seed: "described by an index and size_bytes, not inlined").
 */
export function storedDocument(d: UaeDocument, attachments: readonly UaeAttachment[]): Record<string, unknown> {
  let next = 0;
  const references = d.document_references?.map((r) => {
    const e = r.embedded_document;
    if (!e) return r;
    const a = attachments[next++];
    return { ...r, embedded_document: { mime_code: e.mime_code, filename: e.filename, index: a.index, size_bytes: a.bytes.length } };
  });
  return JSON.parse(JSON.stringify({ ...d, ...(references ? { document_references: references } : {}) })) as Record<string, unknown>;
}
