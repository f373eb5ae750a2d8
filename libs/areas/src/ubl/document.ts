/**
 * The one UBL 2.1 billing document every Peppol layer fills (BIS 3.0 for BE/DE, PINT SG, PINT MY,
 * and the layers to come): the EN 16931 business terms as plain data, amounts as Decimals in the
 * document currency unless a currency is given. `writeUbl` (write.ts) is the only code that
 * knows UBL's element names and their XSD order; a layer only decides what to say.
 *
 * Optional text that is undefined or '' is left out (PEPPOL-EN16931-R008: no empty elements).
 */
import type Decimal from 'decimal.js';

/** An identifier with its scheme (an ICD such as 0208, or none). */
export interface UblIdentifier {
  readonly id: string;
  readonly schemeId?: string;
}

/** TaxCategory / ClassifiedTaxCategory (BG-23 category, BT-151/152). */
export interface UblTaxCategory {
  readonly id: string;
  readonly percent?: Decimal;
  readonly exemptionReasonCode?: string;
  readonly exemptionReason?: string;
  /** TaxScheme ID: VAT, GST, OTH... */
  readonly taxScheme: string;
}

/** One TaxSubtotal: taxable and tax amounts of a category, per-unit taxes with their base. */
export interface UblTaxSubtotal {
  readonly taxable: Decimal;
  readonly tax: Decimal;
  readonly baseUnitMeasure?: { readonly value: Decimal; readonly unitCode: string };
  readonly perUnitAmount?: Decimal;
  readonly category: UblTaxCategory;
}

/** A TaxTotal in `currency` (the document's, or the tax accounting currency with no subtotals, BT-111). */
export interface UblTaxTotal {
  readonly currency: string;
  readonly tax: Decimal;
  readonly subtotals: readonly UblTaxSubtotal[];
}

/** An AllowanceCharge of the document (BG-20/21) or a line (BG-27/28). */
export interface UblAllowanceCharge {
  readonly charge: boolean;
  readonly reason: string;
  readonly amount: Decimal;
  readonly category?: UblTaxCategory;
}

/** Seller (BG-4) or buyer (BG-7). */
export interface UblParty {
  readonly endpoint: UblIdentifier;
  readonly industryClassification?: { readonly code: string; readonly name?: string };
  readonly identifications?: readonly UblIdentifier[];
  /** PartyName (trading name). */
  readonly name?: string;
  readonly address: {
    readonly street?: string;
    readonly additionalStreet?: string;
    readonly city?: string;
    readonly postalZone?: string;
    readonly countrySubentity?: string;
    readonly countrySubentityCode?: string;
    /** Further address lines (cac:AddressLine). */
    readonly lines?: readonly string[];
    /** ISO 3166-1 alpha-2. */
    readonly country: string;
  };
  /** PartyTaxScheme entries: the party's tax ids by scheme (BT-31/32, BT-48). */
  readonly taxSchemes?: readonly { readonly companyId: string; readonly taxScheme: string }[];
  readonly legalEntity: { readonly registrationName: string; readonly companyId?: UblIdentifier };
  readonly contact?: { readonly name?: string; readonly telephone?: string; readonly email?: string };
}

/** An invoice or credit note line (BG-25). */
export interface UblLine {
  readonly quantity: Decimal;
  readonly unitCode: string;
  readonly lineExtension: Decimal;
  readonly allowanceCharges?: readonly UblAllowanceCharge[];
  readonly taxTotal?: UblTaxTotal;
  readonly item: {
    readonly name: string;
    readonly classifications?: readonly { readonly code: string; readonly listId: string }[];
    readonly taxCategories: readonly UblTaxCategory[];
  };
  readonly price: Decimal;
}

/** A whole document; lines are numbered 1, 2... in order (BT-126). */
export interface UblDocument {
  readonly root: 'Invoice' | 'CreditNote';
  readonly customizationId: string;
  readonly profileId: string;
  readonly id: string;
  readonly uuid?: string;
  readonly issueDate: string;
  readonly issueTime?: string;
  /** Invoice only (a CreditNote has no cbc:DueDate). */
  readonly dueDate?: string;
  readonly typeCode: string;
  readonly note?: string;
  readonly currency: string;
  readonly taxCurrency?: string;
  readonly buyerReference?: string;
  readonly billingReference?: { readonly id: string; readonly uuid?: string; readonly issueDate?: string };
  readonly additionalDocumentReferences?: readonly { readonly id: string; readonly typeCode?: string; readonly description?: string }[];
  readonly seller: UblParty;
  readonly buyer: UblParty;
  readonly delivery?: { readonly date: string; readonly country: string };
  readonly paymentMeans?: { readonly code: string; readonly dueDate?: string; readonly account?: { readonly id: string; readonly name?: string } };
  readonly paymentTerms?: string;
  readonly allowanceCharges?: readonly UblAllowanceCharge[];
  readonly taxTotals: readonly UblTaxTotal[];
  readonly totals: {
    readonly lineExtension: Decimal;
    readonly taxExclusive: Decimal;
    readonly taxInclusive: Decimal;
    readonly allowanceTotal?: Decimal;
    readonly chargeTotal?: Decimal;
    readonly prepaid?: Decimal;
    readonly payable: Decimal;
  };
  readonly lines: readonly UblLine[];
}

/** Text where a blank value means "not stated" (leaf semantics of shared/xml.ts). */
export function stated(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : text;
}
