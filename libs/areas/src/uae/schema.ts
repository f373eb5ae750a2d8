/**
 * The UAE document as the Regional API receives it (seed 001 "Resources and their fields", names
 * decided in issue 10), as class-validator DTOs like every area's request: phase 1 of the seed's
 * "Errors" (a key missing, a wrong JSON type, a value outside its list, a malformed text, a field
 * required once its block is sent), answered in every area's codes and paths (shared/validate.ts).
 * Everything the PINT AE Schematron decides (rule ids such as ibr-190-ae) is left to the rule phase.
 */
import { IsArray, IsDefined, IsIn, IsOptional, IsString, ValidateIf, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { issue, type FieldIssue } from '@einvoice/domain';
import { compose, CurrencyCode, DateText, Nested, NestedList, NoArrayElements, OneOf } from '../shared/fields';
import { FieldCode } from '../shared/validate';
import { Amount, Base64, Decimal, Flag, FreeText, Identifier, RequiredInBlock, TimeOfDay, taxCategories } from './schema-fields';
import { UaeAllowanceCharge, UaeInstalment, UaeInvoiceTotals, UaeLine, UaePaymentMeans, UaeTaxTotalRow } from './schema-lines';
import { UaeDelivery, UaeInvoicePeriod, UaeIssuingParty, UaePayeeParty, UaeReceivingParty, UaeTaxRepresentative } from './schema-parties';

export const documentTypes = ['380', '480', '381', '81', '389', '261'] as const;

/** BTAE-03; only VD discharges ibr-055-ae (no preceding invoice needed). */
export const creditNoteReasonCodes = ['DL8.61.1.A', 'DL8.61.1.B', 'DL8.61.1.C', 'DL8.61.1.D', 'DL8.61.1.E', 'VD'] as const;

/** The nine flags (seed "Flags"); each defaults to false. */
export const flagNames = ['is_ftz', 'is_deemed', 'is_margin', 'is_summary', 'is_continuous', 'is_dab', 'is_ecommerce', 'is_export', 'is_selfbilled'] as const;
export type UaeFlagName = (typeof flagNames)[number];

/** The nine flags as sent; parseUaeDocument makes an absent one false. */
export class UaeFlags implements Partial<Record<UaeFlagName, boolean>> {
  @Flag({ optional: true }) is_ftz?: boolean;
  @Flag({ optional: true }) is_deemed?: boolean;
  @Flag({ optional: true }) is_margin?: boolean;
  @Flag({ optional: true }) is_summary?: boolean;
  @Flag({ optional: true }) is_continuous?: boolean;
  @Flag({ optional: true }) is_dab?: boolean;
  @Flag({ optional: true }) is_ecommerce?: boolean;
  @Flag({ optional: true }) is_export?: boolean;
  @Flag({ optional: true }) is_selfbilled?: boolean;
}

/** An attachment embedded in a reference (IBT-125): seed "References", mime_code and filename are mandatory once it is sent. */
export class UaeEmbeddedDocument {
  /** cbc:EmbeddedDocumentBinaryObject@mimeCode is mandatory in the XSD. */
  @RequiredInBlock('embedded_document', 'e.g. application/pdf') mime_code!: string;
  @RequiredInBlock('embedded_document', 'the file name, e.g. timesheet.pdf') filename!: string;
  @Base64() content!: string;
}

/**
 * A document reference: plain (`document_identifier`, `document_type_code`, `scheme_id`, and
 * `issue_date` for a preceding invoice), URI (`attachment_uri`) or embedded (`embedded_document`).
 * An entry without `document_identifier` is accepted and dropped (document.ts).
 */
export class UaeDocumentReference {
  @Identifier({ optional: true }) document_identifier?: string;
  @DateText({ optional: true }) issue_date?: string;
  @FreeText({ optional: true }) document_type_code?: string;
  @FreeText({ optional: true }) scheme_id?: string;
  @FreeText({ optional: true }) attachment_uri?: string;
  @Nested(() => UaeEmbeddedDocument, { optional: true }) embedded_document?: UaeEmbeddedDocument;
}

/** IBT-011..IBT-017 and the customs declaration (BTAE-21), all optional. */
export class UaeOtherReferences {
  @FreeText({ optional: true }) despatch_reference?: string;
  @FreeText({ optional: true }) receipt_reference?: string;
  @FreeText({ optional: true }) tender_reference?: string;
  @Identifier({ optional: true }) contract_reference?: string;
  @FreeText({ optional: true }) customs_reference?: string;
  @FreeText({ optional: true }) project_reference?: string;
}

/**
 * Payment terms: one free text (IBT-020), or instalments each with an amount and a due date. A text
 * is taken as it is; anything else must be the list, whose entries are checked at their own paths.
 */
function PaymentTerms(): PropertyDecorator {
  return compose(
    IsOptional(),
    ValidateIf((o: { payment_terms?: unknown }) => typeof o.payment_terms !== 'string'),
    IsArray({ message: 'must be a text or a list of instalments' }),
    NoArrayElements(),
    ValidateNested({ each: true, message: 'must be an object' }),
    Type(() => UaeInstalment),
  );
}

export class UaeDocumentBody {
  @Identifier() document_identifier!: string;
  @DateText() issue_date!: string;
  @TimeOfDay({ optional: true }) issue_time?: string;
  @OneOf(documentTypes) document_type!: (typeof documentTypes)[number];
  @CurrencyCode() document_currency!: string;
  /** Seed "Document header": mandatory on a credit note (381). */
  @ValidateIf((o: UaeDocumentBody) => o.document_type === '381' || o.credit_note_reason_code !== undefined)
  @IsDefined({ message: `is required on a credit note (381): one of ${creditNoteReasonCodes.join(', ')}` })
  @IsString({ message: 'must be a string' })
  @IsIn([...creditNoteReasonCodes], { message: `must be one of: ${creditNoteReasonCodes.join(', ')}` })
  credit_note_reason_code?: (typeof creditNoteReasonCodes)[number];
  @FreeText({ optional: true }) note?: string;
  @FreeText({ optional: true }) buyer_reference?: string;
  @FreeText({ optional: true }) order_reference?: string;
  @PaymentTerms() payment_terms?: string | UaeInstalment[];
  @DateText({ optional: true }) due_date?: string;
  @FreeText({ optional: true }) uuid?: string;
  @FreeText({ optional: true }) customization_id?: string;
  @Nested(() => UaeFlags, { optional: true }) flags?: UaeFlags;
  @FreeText({ optional: true }) fz_beneficiary_id?: string;
  @FreeText({ optional: true }) principal_id?: string;
  @Nested(() => UaeReceivingParty) receiving_party!: UaeReceivingParty;
  @Nested(() => UaeIssuingParty, { optional: true }) issuing_party?: UaeIssuingParty;
  @Nested(() => UaeTaxRepresentative, { optional: true }) tax_representative?: UaeTaxRepresentative;
  @Nested(() => UaePayeeParty, { optional: true }) payee_party?: UaePayeeParty;
  @Nested(() => UaeDelivery, { optional: true }) delivery?: UaeDelivery;
  @Nested(() => UaeInvoicePeriod, { optional: true }) invoice_period?: UaeInvoicePeriod;
  @NestedList(() => UaePaymentMeans, { optional: true }) payment_means?: UaePaymentMeans[];
  @NestedList(() => UaeLine, { min: 1 }) lines!: UaeLine[];
  @NestedList(() => UaeAllowanceCharge, { optional: true }) allowance_charges?: UaeAllowanceCharge[];
  @NestedList(() => UaeTaxTotalRow, { optional: true }) tax_totals?: UaeTaxTotalRow[];
  @Nested(() => UaeInvoiceTotals, { optional: true }) invoice_totals?: UaeInvoiceTotals;
  /** Never derived; both mandatory when `document_currency` is not AED (rule phase: ibr-053, ibr-175-ae). */
  @Amount({ optional: true }) total_tax_amount_in_aed?: string;
  @Amount({ optional: true }) total_amount_with_tax_in_aed?: string;
  /** Document currency to AED (BTAE-04); derived from the AED totals when omitted. */
  @Decimal({ optional: true }) exchange_rate?: string;
  @NestedList(() => UaeDocumentReference, { optional: true }) document_references?: UaeDocumentReference[];
  @Nested(() => UaeOtherReferences, { optional: true }) other_references?: UaeOtherReferences;
  /** BTAE-05, rendered with `other_references.contract_reference`. */
  @FreeText({ optional: true }) contract_value?: string;
}

/** The Unified API's body (issue 10 "Unified API"): the same document plus `country`, one of those it serves. */
export class UaeUnifiedEnvelope {
  @OneOf(['AE']) country!: 'AE';
}

/**
 * Seed "Lines": a line's `tax_category` is mandatory, except on an out-of-scope credit note (81).
 * The one rule a line's decorators cannot say (it reads the document's type), so it reads the body
 * (`null` is absent) and its issues are answered with the decorators'.
 */
export function uncategorisedLineIssues(body: unknown): FieldIssue[] {
  if (typeof body !== 'object' || body === null) return [];
  const { document_type: type, lines } = body as { document_type?: unknown; lines?: unknown };
  if (type === '81' || !Array.isArray(lines)) return [];
  return lines.flatMap((line, i) => typeof line === 'object' && line !== null && !Array.isArray(line) && (line as { tax_category?: unknown }).tax_category == null
    ? [issue(`lines[${i}].tax_category`, FieldCode.REQUIRED, `lines[${i}].tax_category is required: one of ${taxCategories.join(', ')}`)]
    : []);
}
