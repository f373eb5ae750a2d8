/**
 * The PINT AE layer (shared/conformance/pint-ae/2026.5) over the one UBL document (../ubl): this
 * file decides what a UAE document says; `writeUbl` how UBL says it. `uaeUblDocument` is the model
 * a PINT AE rule check (phase 2, `checkUaeRules`) will read.
 */
import { createHash } from 'node:crypto';
import { dec } from '../shared/money';
import { stated, writeUbl, type UblAllowanceCharge, type UblDocument, type UblDocumentReference, type UblLine, type UblTaxTotal } from '../ubl';
import type { UaeDocument } from './document';
import { transactionTypeCode } from './flags';
import { storedDocument, type UaeAttachment, uaeReferences } from './references';
import { type UaeIssuer, uaeDelivery, uaeOtherParties, uaeParties } from './render-parties';
import { uaeDocumentKind, uaeDocumentTypeId } from './specification';
import { allowanceRate, computeUaeTotals, exchangeRate, type UaeLineAmounts, type UaeTotals } from './totals';

// The issuer is a party (render-parties.ts), an attachment a reference (references.ts); the
// rendering takes the one and returns the others, so they are named here too.
export type { UaeAttachment, UaeIssuer };

export interface RenderedUae {
  readonly xml: string;
  /** SHA-256 of the UTF-8 XML, hex. */
  readonly sha256: string;
  readonly customizationId: string;
  readonly profileId: string;
  /** Peppol document type identifier (`scheme::value`) the document is routed with. */
  readonly documentTypeId: string;
  readonly attachments: readonly UaeAttachment[];
  /** The request as accepted, embedded contents removed (GET shows it). */
  readonly stored: Record<string, unknown>;
}

const AED = 'AED';

/**
 * Reason of an allowance or charge that states neither reason nor code: the PINT AE rules require
 * one (ibr-033/038/042/044) and a code on category E (ibr-168/169-ae), so UNCL 5189 `95`
 * (discount) for an allowance and UNCL 7161 `ZZZ` (mutually defined) for a charge.
 */
const defaultReasons = { allowance: { reasonCode: '95', reason: 'Discount' }, charge: { reasonCode: 'ZZZ', reason: 'Charge' } } as const;

function reasonOf(a: { charge_indicator: boolean; reason?: string; reason_code?: string }) {
  if (a.reason === undefined && a.reason_code === undefined) return defaultReasons[a.charge_indicator ? 'charge' : 'allowance'];
  return { reasonCode: a.reason_code, reason: a.reason };
}

function line(l: UaeDocument['lines'][number], a: UaeLineAmounts): UblLine {
  const classified = l.reverse_charge_item_type !== undefined || l.commodity_code !== undefined || l.hs_code !== undefined;
  return {
    id: l.line_id,
    quantity: a.quantity,
    unitCode: l.unit_code,
    lineExtension: a.net,
    allowanceCharges: (l.allowance_charges ?? []).map((c): UblAllowanceCharge => ({ charge: c.charge_indicator, ...reasonOf(c), amount: dec(c.amount) })),
    item: {
      // ibr-125-ae: a description is mandatory; the name stands in when none is sent.
      description: l.item_description ?? l.item_name,
      name: l.item_name,
      standardId: l.standard_item_id === undefined ? undefined : { id: l.standard_item_id, schemeId: l.standard_item_id_scheme },
      additionalIds: l.sac_code === undefined ? undefined : [{ id: l.sac_code, schemeId: 'SAC' }], // BTAE-17 (ibr-189-ae)
      classifications: classified ? [{ natureCode: l.reverse_charge_item_type, commodityCode: l.commodity_code, code: l.hs_code, listId: l.hs_code && 'HS' }] : undefined,
      taxCategories: [{
        id: a.category,
        percent: a.percent,
        // An exemption reason belongs to category E only (ibr-167-ae).
        exemptionReasonCode: a.category === 'E' ? stated(l.tax_exemption_reason_code) : undefined,
        exemptionReason: a.category === 'E' ? stated(l.tax_exemption_reason) : undefined,
        taxScheme: 'VAT',
      }],
    },
    price: a.price,
    priceBaseQuantity: a.baseQuantity, // ibr-126-ae: base quantity and gross price are mandatory
    priceDiscount: { amount: a.discount, gross: a.gross },
    priceExtension: { amount: a.withTax, tax: a.tax }, // BTAE-10, BTAE-08
  };
}

/** The tax in the document currency, and in AED for a foreign currency (IBT-111, ibr-053, ibr-175-ae). */
function taxTotals(d: UaeDocument, t: UaeTotals): UblTaxTotal[] {
  const own: UblTaxTotal = {
    currency: d.document_currency,
    tax: t.tax,
    subtotals: t.breakdown.map((b) => ({ taxable: b.taxable, tax: b.tax, category: { id: b.category, percent: b.percent, taxScheme: 'VAT' } })),
  };
  const foreign = d.document_currency !== AED && d.total_tax_amount_in_aed !== undefined;
  return foreign ? [own, { currency: AED, tax: dec(d.total_tax_amount_in_aed as string), subtotals: [] }] : [own];
}

/** BTAE-20: the AED total with VAT, as the official examples state it. */
function aedTotalReference(d: UaeDocument): UblDocumentReference[] {
  if (d.document_currency === AED || d.total_amount_with_tax_in_aed === undefined) return [];
  return [{ id: AED, typeCode: 'aedtotal-incl-vat', description: `${AED} ${d.total_amount_with_tax_in_aed}` }];
}

function paymentMeans(d: UaeDocument, creditNote: boolean) {
  return (d.payment_means ?? []).map((m, i) => ({
    code: m.type_code,
    // A CreditNote has no cbc:DueDate: its due date goes with the first payment instruction.
    dueDate: creditNote && i === 0 ? d.due_date : undefined,
    card: m.card && { primaryAccountNumber: m.card.primary_account_number, networkId: m.card.network_id, holderName: m.card.holder_name },
    account: m.payment_account_id === undefined ? undefined : { id: m.payment_account_id, name: m.payment_account_name },
  }));
}

/** The UBL model of a validated UAE document. */
export function uaeUblDocument(d: UaeDocument, issuer: UaeIssuer, stamps: { readonly uuid: string }): { ubl: UblDocument; attachments: readonly UaeAttachment[] } {
  const kind = uaeDocumentKind(d.document_type);
  const creditNote = kind.root === 'CreditNote';
  const t = computeUaeTotals(d);
  const refs = uaeReferences(d, creditNote);
  const other = d.other_references ?? {};
  const foreign = d.document_currency !== AED;
  const rate = foreign ? exchangeRate(d, t) : undefined;
  const ubl: UblDocument = {
    root: kind.root,
    customizationId: kind.specification.customizationId,
    profileId: kind.specification.profileId,
    profileExecutionId: transactionTypeCode(d.flags),
    id: d.document_identifier,
    uuid: stamps.uuid, // BTAE-07 (ibr-193-ae)
    issueDate: d.issue_date,
    issueTime: d.issue_time,
    dueDate: d.due_date,
    typeCode: d.document_type,
    note: stated(d.note),
    currency: d.document_currency,
    taxCurrency: foreign && d.total_tax_amount_in_aed !== undefined ? AED : undefined,
    buyerReference: stated(d.buyer_reference),
    invoicePeriod: d.invoice_period && { start: d.invoice_period.start_date, end: d.invoice_period.end_date },
    discrepancyResponseCode: d.credit_note_reason_code,
    orderReference: d.order_reference === undefined ? undefined : { id: d.order_reference },
    billingReferences: refs.billing,
    despatchReference: other.despatch_reference,
    receiptReference: other.receipt_reference,
    statementReference: other.customs_reference,
    originatorReference: other.tender_reference,
    contractReference: other.contract_reference === undefined ? undefined : { id: other.contract_reference, description: d.contract_value },
    additionalDocumentReferences: [...aedTotalReference(d), ...refs.additional],
    projectReference: other.project_reference,
    ...uaeParties(d, issuer, kind.selfBilled),
    ...uaeOtherParties(d),
    delivery: uaeDelivery(d),
    paymentMeans: paymentMeans(d, creditNote),
    paymentTerms: typeof d.payment_terms === 'string' ? d.payment_terms
      : d.payment_terms?.map((p) => ({ note: p.note, amount: dec(p.amount), installmentDueDate: p.installment_due_date })),
    allowanceCharges: (d.allowance_charges ?? []).map((a): UblAllowanceCharge => ({
      charge: a.charge_indicator,
      ...reasonOf(a),
      amount: dec(a.amount),
      category: a.tax_category && { id: a.tax_category, percent: allowanceRate(a), taxScheme: 'VAT' },
    })),
    taxExchangeRate: rate && { source: d.document_currency, target: AED, rate },
    taxTotals: taxTotals(d, t),
    totals: {
      lineExtension: t.lineExtension,
      taxExclusive: t.taxExclusive,
      taxInclusive: t.taxInclusive,
      allowanceTotal: t.allowanceTotal,
      chargeTotal: t.chargeTotal,
      prepaid: t.prepaid,
      payable: t.payable,
    },
    lines: d.lines.map((l, i) => line(l, t.lines[i])),
  };
  return { ubl, attachments: refs.attachments };
}

/** Renders a validated document (`parseUaeDocument`) as PINT AE UBL for `issuer`, with the platform's uuid. */
export function renderUae(document: UaeDocument, issuer: UaeIssuer, stamps: { readonly uuid: string }): RenderedUae {
  const { ubl, attachments } = uaeUblDocument(document, issuer, stamps);
  const xml = writeUbl(ubl);
  return {
    xml,
    sha256: createHash('sha256').update(xml, 'utf8').digest('hex'),
    customizationId: ubl.customizationId,
    profileId: ubl.profileId,
    documentTypeId: uaeDocumentTypeId(uaeDocumentKind(document.document_type)),
    attachments,
    stored: storedDocument(document, attachments),
  };
}
