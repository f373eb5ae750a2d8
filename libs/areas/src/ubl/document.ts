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
  /** `@schemeAgencyID` / `@schemeAgencyName` (PINT AE: legal registration type and issuing authority, BTAE-15/12). */
  readonly schemeAgencyId?: string;
  readonly schemeAgencyName?: string;
}

/** A postal address (BG-5, BG-8, BG-12, BG-15). */
export interface UblAddress {
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
}

/**
 * A party that is not seller or buyer: payee (BG-10), tax representative (BG-11), and the parties
 * PINT AE uses for the free-zone beneficiary (BuyerCustomerParty, BTAE-01) and the principal of
 * disclosed-agent billing (SellerSupplierParty, BTAE-14).
 */
export interface UblOtherParty {
  readonly identifications?: readonly UblIdentifier[];
  readonly name?: string;
  readonly address?: UblAddress;
  readonly taxSchemes?: readonly { readonly companyId: string; readonly taxScheme: string }[];
  readonly legalCompanyId?: UblIdentifier;
}

/** A document reference (BG-24 and the single references BT-11..BT-17). */
export interface UblDocumentReference {
  readonly id: string;
  readonly schemeId?: string;
  readonly typeCode?: string;
  readonly description?: string;
  /** External attachment (BT-124). */
  readonly uri?: string;
  /** Embedded attachment (BT-125), content already base64. */
  readonly embedded?: { readonly mimeCode: string; readonly filename: string; readonly base64: string };
}

/** One PaymentMeans (BG-16) with its card (BG-18), account (BG-17) and mandate (BG-19). */
export interface UblPaymentMeans {
  readonly code: string;
  readonly name?: string;
  readonly dueDate?: string;
  readonly paymentId?: string;
  readonly card?: { readonly primaryAccountNumber?: string; readonly networkId?: string; readonly holderName?: string };
  readonly account?: { readonly id: string; readonly name?: string; readonly branchId?: string };
  readonly mandateId?: string;
}

/** One PaymentTerms: free text (BT-20) and/or an instalment. */
export interface UblPaymentTerm {
  readonly note?: string;
  readonly amount?: Decimal;
  readonly installmentDueDate?: string;
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
  /** UNCL 5189 (allowances) or 7161 (charges): BT-98, BT-105, BT-140, BT-145. */
  readonly reasonCode?: string;
  readonly reason?: string;
  /** Percentage and base amount (BT-94/93, BT-101/100, BT-138/137): both or neither. */
  readonly multiplier?: Decimal;
  readonly amount: Decimal;
  readonly baseAmount?: Decimal;
  readonly category?: UblTaxCategory;
}

/** Seller (BG-4) or buyer (BG-7). */
export interface UblParty {
  readonly endpoint: UblIdentifier;
  readonly industryClassification?: { readonly code: string; readonly name?: string };
  readonly identifications?: readonly UblIdentifier[];
  /** PartyName (trading name). */
  readonly name?: string;
  readonly address: UblAddress;
  /** PartyTaxScheme entries: the party's tax ids by scheme (BT-31/32, BT-48). */
  readonly taxSchemes?: readonly { readonly companyId: string; readonly taxScheme: string }[];
  readonly legalEntity: { readonly registrationName: string; readonly companyId?: UblIdentifier };
  readonly contact?: { readonly name?: string; readonly telephone?: string; readonly email?: string };
}

/** An invoice or credit note line (BG-25). */
export interface UblLine {
  /** BT-126; lines without one are numbered by position. */
  readonly id?: string;
  readonly quantity: Decimal;
  readonly unitCode: string;
  readonly lineExtension: Decimal;
  readonly allowanceCharges?: readonly UblAllowanceCharge[];
  readonly taxTotal?: UblTaxTotal;
  readonly item: {
    /** BT-154. */
    readonly description?: string;
    readonly name: string;
    /** BT-157 (PINT AE: GTIN, scheme 0160, for reverse charge). */
    readonly standardId?: UblIdentifier;
    /** AdditionalItemIdentification (PINT AE: service accounting code, scheme SAC, BTAE-17). */
    readonly additionalIds?: readonly UblIdentifier[];
    /** BT-158; PINT AE adds the nature (BTAE-09) and the goods/services type (BTAE-13) in the same element. */
    readonly classifications?: readonly {
      readonly natureCode?: string;
      readonly commodityCode?: string;
      readonly code?: string;
      readonly listId?: string;
      readonly listVersionId?: string;
    }[];
    readonly taxCategories: readonly UblTaxCategory[];
  };
  /** Item net price (BT-146). */
  readonly price: Decimal;
  /** BT-149 (in the line's unit). */
  readonly priceBaseQuantity?: Decimal;
  /** Price discount (BT-147) and gross price (BT-148). */
  readonly priceDiscount?: { readonly amount: Decimal; readonly gross: Decimal };
  /** PINT AE line amount with tax (BTAE-10) and line tax (BTAE-08): cac:ItemPriceExtension. */
  readonly priceExtension?: { readonly amount: Decimal; readonly tax?: Decimal };
}

/** A preceding invoice (BG-3). */
export interface UblBillingReference {
  readonly id: string;
  readonly uuid?: string;
  readonly issueDate?: string;
}

/** A whole document; lines are numbered 1, 2... in order (BT-126). */
export interface UblDocument {
  readonly root: 'Invoice' | 'CreditNote';
  readonly customizationId: string;
  readonly profileId: string;
  /** PINT AE transaction type code (BTAE-02). */
  readonly profileExecutionId?: string;
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
  /** BG-14 with PINT AE's billing frequency (BTAE-06). */
  readonly invoicePeriod?: { readonly start?: string; readonly end?: string; readonly descriptionCode?: string };
  /** CreditNote only: the reason code (PINT AE BTAE-03). */
  readonly discrepancyResponseCode?: string;
  /** BT-13, BT-14. */
  readonly orderReference?: { readonly id: string; readonly salesOrderId?: string };
  readonly billingReference?: UblBillingReference;
  /** Further preceding-invoice references (IBG-03 repeats). */
  readonly billingReferences?: readonly UblBillingReference[];
  /** BT-16, BT-15, BT-17 (tender or lot), BT-12 (+ PINT AE contract value BTAE-05), BT-11. */
  readonly despatchReference?: string;
  readonly receiptReference?: string;
  /** StatementDocumentReference (PINT AE: customs declaration, BTAE-21). */
  readonly statementReference?: string;
  readonly originatorReference?: string;
  readonly contractReference?: { readonly id: string; readonly description?: string };
  readonly additionalDocumentReferences?: readonly UblDocumentReference[];
  readonly projectReference?: string;
  readonly seller: UblParty;
  readonly buyer: UblParty;
  readonly payee?: UblOtherParty;
  /** BuyerCustomerParty / SellerSupplierParty (each wraps a cac:Party). */
  readonly buyerCustomer?: UblOtherParty;
  readonly sellerSupplier?: UblOtherParty;
  readonly taxRepresentative?: UblOtherParty;
  readonly delivery?: {
    readonly date?: string;
    /** Deliver-to country alone (BT-80), when no address is given. */
    readonly country?: string;
    readonly locationId?: UblIdentifier;
    readonly address?: UblAddress;
    readonly partyName?: string;
  };
  readonly paymentMeans?: UblPaymentMeans | readonly UblPaymentMeans[];
  readonly paymentTerms?: string | readonly UblPaymentTerm[];
  readonly allowanceCharges?: readonly UblAllowanceCharge[];
  /** The document-to-tax-currency rate (PINT AE BTAE-04: cac:TaxExchangeRate). */
  readonly taxExchangeRate?: { readonly source: string; readonly target: string; readonly rate: Decimal };
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
