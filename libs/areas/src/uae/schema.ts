/**
 * The UAE document as the Regional API receives it (seed 001 "Resources and their fields", names
 * decided in issue 10). Phase 1 of the seed's "Errors": key missing, wrong JSON type, value outside
 * its enum, and the few mandatory fields the seed checks by hand (`custom`). Everything the PINT AE
 * Schematron decides (rule ids such as ibr-190-ae) is left to the rule phase. The hand-checked
 * mandatory fields (`custom`) are in mandatory.ts, so that they are reported next to type errors.
 */
import { z } from 'zod';
import { amount, base64, currency, date, identifier, numeric, time } from './schema-fields';
import { allowanceCharge, invoiceTotals, line, paymentMeans, paymentTerms, taxTotalRow } from './schema-lines';
import { delivery, invoicePeriod, issuingParty, payeeParty, receivingParty, taxRepresentative } from './schema-parties';

export const documentTypes = ['380', '480', '381', '81', '389', '261'] as const;

/** BTAE-03; only VD discharges ibr-055-ae (no preceding invoice needed). */
export const creditNoteReasonCodes = ['DL8.61.1.A', 'DL8.61.1.B', 'DL8.61.1.C', 'DL8.61.1.D', 'DL8.61.1.E', 'VD'] as const;

/** The nine flags (seed "Flags"); each defaults to false. */
export const flagNames = ['is_ftz', 'is_deemed', 'is_margin', 'is_summary', 'is_continuous', 'is_dab', 'is_ecommerce', 'is_export', 'is_selfbilled'] as const;
export type UaeFlagName = (typeof flagNames)[number];

const flags = z.object(Object.fromEntries(flagNames.map((n) => [n, z.boolean().default(false)])) as Record<UaeFlagName, z.ZodDefault<z.ZodBoolean>>);

/**
 * A document reference: plain (`document_identifier`, `document_type_code`, `scheme_id`, and
 * `issue_date` for a preceding invoice), URI (`attachment_uri`) or embedded (`embedded_document`).
 * An entry without `document_identifier` is accepted and dropped (document.ts).
 */
const documentReference = z.object({
  document_identifier: identifier.optional(),
  issue_date: date.optional(),
  document_type_code: z.string().optional(),
  scheme_id: z.string().optional(),
  attachment_uri: z.string().optional(),
  /** `mime_code` and `filename` are mandatory once it is sent (mandatory.ts). */
  embedded_document: z.object({ mime_code: z.string().optional(), filename: z.string().optional(), content: base64 }).optional(),
});

/** IBT-011..IBT-017 and the customs declaration (BTAE-21), all optional. */
const otherReferences = z.object({
  despatch_reference: z.string().optional(),
  receipt_reference: z.string().optional(),
  tender_reference: z.string().optional(),
  contract_reference: identifier.optional(),
  customs_reference: z.string().optional(),
  project_reference: z.string().optional(),
});

export const uaeDocumentSchema = z.object({
  document_identifier: identifier,
  issue_date: date,
  issue_time: time.optional(),
  document_type: z.enum(documentTypes),
  document_currency: currency,
  credit_note_reason_code: z.enum(creditNoteReasonCodes).optional(),
  note: z.string().optional(),
  buyer_reference: z.string().optional(),
  order_reference: z.string().optional(),
  payment_terms: paymentTerms.optional(),
  due_date: date.optional(),
  uuid: z.string().optional(),
  customization_id: z.string().optional(),
  flags: flags.optional(),
  fz_beneficiary_id: z.string().optional(),
  principal_id: z.string().optional(),
  receiving_party: receivingParty,
  issuing_party: issuingParty.optional(),
  tax_representative: taxRepresentative.optional(),
  payee_party: payeeParty.optional(),
  delivery: delivery.optional(),
  invoice_period: invoicePeriod.optional(),
  payment_means: z.array(paymentMeans).optional(),
  lines: z.array(line).min(1, 'lines must contain at least one line'),
  allowance_charges: z.array(allowanceCharge).optional(),
  tax_totals: z.array(taxTotalRow).optional(),
  invoice_totals: invoiceTotals.optional(),
  /** Never derived; both mandatory when `document_currency` is not AED (rule phase: ibr-053, ibr-175-ae). */
  total_tax_amount_in_aed: amount.optional(),
  total_amount_with_tax_in_aed: amount.optional(),
  /** Document currency to AED (BTAE-04); derived from the AED totals when omitted. */
  exchange_rate: numeric.optional(),
  document_references: z.array(documentReference).optional(),
  other_references: otherReferences.optional(),
  /** BTAE-05, rendered with `other_references.contract_reference`. */
  contract_value: z.string().optional(),
});

/** The document as zod hands it back (flags defaulted, numbers as decimal strings). */
export type ParsedUaeDocument = z.output<typeof uaeDocumentSchema>;
