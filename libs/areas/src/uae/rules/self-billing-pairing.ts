/**
 * Seed 001 "Document header": "a 380 with `is_selfbilled` true is rejected by ibr-cl-01 (not a
 * valid pairing) and is not a self-billed invoice". `flags.is_selfbilled` asks for a self-billed
 * document, and the type codes of one are those the self-billing specification's ibr-cl-01 lists
 * (389 or 480 on an invoice, 261 or 81 on a credit note). The flag is not in the UBL (the type code
 * decides the rendering, specification.ts), so this rule reads the request, not the rendered XML.
 * The converse is allowed: a 389 without the flag is accepted and filed identically.
 */
import type { UaeDocument } from '../document';
import type { UaeRuleIssue } from './engine';
import { officialCodeLists } from './official-code-lists';
import { officialTexts } from './official-texts';

const [invoiceTypes, creditNoteTypes] = officialCodeLists.selfbilling['ibr-cl-01'] as readonly (readonly string[])[];
const selfBillingTypes: ReadonlySet<string> = new Set([...invoiceTypes, ...creditNoteTypes]);

/** ibr-cl-01 when the document says it is self-billed under a type code self-billing does not know (380, 381). */
export function selfBillingPairingIssues(document: Pick<UaeDocument, 'document_type' | 'flags'>): UaeRuleIssue[] {
  if (!document.flags.is_selfbilled || selfBillingTypes.has(document.document_type)) return [];
  return [{ path: 'Document', code: 'ibr-cl-01', message: officialTexts['ibr-cl-01'], severity: 'error' }];
}
