/**
 * The mandatory fields the seed checks by hand (code `custom`, a written message): they read the
 * raw body, independently of the schema, so that they are reported together with type errors
 * elsewhere in the document (zod skips an object's refinements once one of its keys failed).
 */
import type { UaeIssue } from './document';
import { creditNoteReasonCodes } from './schema';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const custom = (path: string, message: string): UaeIssue => ({ path, code: 'custom', message, severity: 'error' });

/** Issues for hand-checked mandatory fields that are absent from `body` (the document, nulls already removed). */
export function mandatoryFieldIssues(body: Json): UaeIssue[] {
  const issues: UaeIssue[] = [];
  const party = body.receiving_party;
  // Seed "Parties": the receiver's Peppol id routes the document; a missing one is refused first.
  if (isObject(party) && party.peppol_id === undefined) {
    issues.push(custom('receiving_party.peppol_id',
      'receiving_party.peppol_id is required: the Peppol participant id of the receiver, written <scheme>:<identifier> such as 0235:1234567890'));
  }
  // Seed "Document header": mandatory on 381.
  if (body.document_type === '381' && body.credit_note_reason_code === undefined) {
    issues.push(custom('credit_note_reason_code', `credit_note_reason_code is required on a credit note (381): one of ${creditNoteReasonCodes.join(', ')}`));
  }
  // Seed "Lines": on every line, except on an out-of-scope credit note (81).
  if (Array.isArray(body.lines) && body.document_type !== '81') {
    body.lines.forEach((l, i) => {
      if (isObject(l) && l.tax_category === undefined) issues.push(custom(`lines.${i}.tax_category`, `lines.${i}.tax_category is required: one of S, Z, E, O, AE, N`));
    });
  }
  // Seed "References": mime_code and filename are mandatory once embedded_document exists.
  if (Array.isArray(body.document_references)) {
    body.document_references.forEach((r, i) => {
      const embedded = isObject(r) ? r.embedded_document : undefined;
      if (!isObject(embedded)) return;
      const path = `document_references.${i}.embedded_document`;
      if (embedded.mime_code === undefined) issues.push(custom(`${path}.mime_code`, `${path}.mime_code is required once embedded_document is sent, e.g. application/pdf`));
      if (embedded.filename === undefined) issues.push(custom(`${path}.filename`, `${path}.filename is required once embedded_document is sent`));
    });
  }
  return issues;
}
