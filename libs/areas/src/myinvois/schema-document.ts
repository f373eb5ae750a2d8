/**
 * The invoice-type document of the Malaysian area, field for field as seed 000 ("Invoice-type
 * document", CustomerParty, DeliveryDetails, InvoiceLines, LineTaxes, consolidated differences),
 * plus the self-billed body (README "Self-billed body"). Rules that span fields are in rules.ts.
 */
import { CurrencyCode, DateText, Nested, NestedList, Num, OneOf, Text } from '../shared/fields';
import { DecimalValue, Exact, StringList, UtcTime } from './fields';

/** `InvoiceTypeCode` (MyInvois e-invoice types 01–04). */
export const invoiceTypeCodes = ['01', '02', '03', '04'] as const;
/** One of {@link invoiceTypeCodes}. */
export type InvoiceTypeCode = (typeof invoiceTypeCodes)[number];

/** `LineTaxes[].TaxType` (MyInvois tax types). */
export const taxTypes = ['01', '02', '03', '04', '05', '06', 'E'] as const;
/** One of {@link taxTypes}. */
export type TaxType = (typeof taxTypes)[number];

/** `{Amount, Reason}` of Discounts, Charges and ShipmentCharges. */
export class AmountReason {
  @Num() Amount: number;
  /** MyInvois "description" of an allowance or charge, at most 300. */
  @Text(300, { optional: true }) Reason?: string;
}

/** `Prepayments[]`. */
export class Prepayment {
  @Text(150, { optional: true }) PaymentID?: string;
  @Num() Amount: number;
  @DateText({ optional: true }) Date?: string;
  @UtcTime({ optional: true }) Time?: string;
}

/** `InvoiceDocumentReference[]`: the document a credit, debit or refund note adjusts. */
export class DocumentReference {
  /** LHDN's unique identifier of the referenced document. */
  @Text(100) UUID: string;
  /** Its internal id / number (the referenced `ID`). */
  @Text(50) InternalID: string;
}

/** `InvoiceLines[].LineTaxes[]`. */
export class LineTax {
  @OneOf(taxTypes) TaxType: TaxType;
  /** Mandatory when TaxType is `E`. */
  @Text(300, { optional: true }) TaxExemptionReason?: string;
  /** A fraction: 0.10 is 10 %. Either TaxRate, or TaxBaseUnit with TaxPerUnit. */
  @Num({ optional: true }) TaxRate?: number;
  @Num({ optional: true }) TaxBaseUnit?: number;
  @Num({ optional: true }) TaxPerUnit?: number;
}

/** One element of `InvoiceLines` (class named for its area: see {@link MyInvoisCustomerParty}). */
export class MyInvoisInvoiceLine {
  @Text(300) Description: string;
  @Num() InvoicedQuantity: number;
  /** UN/ECE Rec 20 / 21 unit code; default `C62`. */
  @Text(3, { optional: true }) UOM?: string;
  @Num() PriceAmount: number;
  @NestedList(() => LineTax, { min: 1 }) LineTaxes: LineTax[];
  /** MyInvois classification codes (listID CLASS), each exactly 3 characters. */
  @StringList() ClassificationCode: string[];
  @NestedList(() => AmountReason, { optional: true }) Discounts?: AmountReason[];
  @NestedList(() => AmountReason, { optional: true }) Charges?: AmountReason[];
}

/** Address fields shared by CustomerParty, DeliveryDetails and SupplierParty. */
export class Address {
  @Text(300) CityName: string;
  /** 1 to 3 lines (rules.ts); `NA` if not recognisable. */
  @StringList() AddressLines: string[];
  /** Seed: rules not shown; MyInvois postal zone max 50. */
  @Text(50, { optional: true }) PostalZone?: string;
  /** MyInvois state code `01`–`17`; `17` for foreign addresses. */
  @Exact(2) CountrySubentityCode: string;
  /** ISO 3166-1 alpha-3. */
  @Exact(3) CountryCode: string;
}

/**
 * The buyer of an invoice (`CustomerParty`). Named for its area: the OpenAPI schemas are keyed by class
 * name, and the Peppol area's CustomerParty and InvoiceLine would merge with these (#47).
 * Exactly one of BRN / NRIC / Passport / ArmyID (rules.ts). */
export class MyInvoisCustomerParty extends Address {
  @Text(300) LegalName: string;
  /** `EI00000000010` general public, `EI00000000020` foreign buyer. */
  @Text(14) CustomerTIN: string;
  @Text(20, { optional: true }) CustomerBRN?: string;
  @Text(12, { optional: true }) CustomerNRIC?: string;
  @Text(12, { optional: true }) CustomerPassport?: string;
  @Text(12, { optional: true }) CustomerArmyID?: string;
  @Text(35, { optional: true }) CustomerSST?: string;
  @Text(20) Telephone: string;
  @Text(300, { optional: true }) Email?: string;
}

/** The shipping recipient. Exactly one of BRN / NRIC / Passport / ArmyID (rules.ts). */
export class DeliveryDetails extends Address {
  @Text(300) RecipientName: string;
  @Text(14) RecipientTIN: string;
  @Text(20, { optional: true }) RecipientBRN?: string;
  @Text(12, { optional: true }) RecipientNRIC?: string;
  @Text(12, { optional: true }) RecipientPassport?: string;
  @Text(12, { optional: true }) RecipientArmyID?: string;
  @Text(35, { optional: true }) RecipientSST?: string;
  @Text(50, { optional: true }) ShipmentID?: string;
  @NestedList(() => AmountReason, { min: 1, optional: true }) ShipmentCharges?: AmountReason[];
}

/**
 * The seller of a self-billed document (our addition, README "Self-billed body"): the
 * onboarded supplier is the buyer, so the body names the party it buys from, with the same
 * field names the seed uses for a customer, `Supplier*` instead of `Customer*`.
 */
export class SupplierParty extends Address {
  @Text(300) LegalName: string;
  /** `EI00000000030` for a foreign supplier. */
  @Text(14) SupplierTIN: string;
  @Text(20, { optional: true }) SupplierBRN?: string;
  @Text(12, { optional: true }) SupplierNRIC?: string;
  @Text(12, { optional: true }) SupplierPassport?: string;
  @Text(12, { optional: true }) SupplierArmyID?: string;
  @Text(35, { optional: true }) SupplierSST?: string;
  @Text(17, { optional: true }) SupplierTTX?: string;
  /** MSIC code of the seller; default `00000` (not applicable). */
  @Exact(5, { optional: true }) MSICCode?: string;
  /** Its description; default `NOT APPLICABLE`. */
  @Text(300, { optional: true }) BusinessActivityDescription?: string;
  @Text(20) Telephone: string;
  @Text(300, { optional: true }) Email?: string;
}

/** Fields common to every document kind. */
export class DocumentBase {
  /** Unique invoice reference number, issued in sequence. */
  @Text(50) ID: string;
  @DateText() IssueDate: string;
  /** UTC, `HH:MM:ssZ` or `HH-MM-ssZ`; normalised to `HH:MM:ssZ`. */
  @UtcTime() IssueTime: string;
  @OneOf(invoiceTypeCodes) InvoiceTypeCode: InvoiceTypeCode;
  /** The total including all taxes as the client computed it (README "InvoiceTotal"). */
  @Num({ optional: true }) InvoiceTotal?: number;
  /** Default `MYR`. */
  @CurrencyCode({ optional: true }) DocumentCurrencyCode?: string;
  /** MYR per 1 unit of DocumentCurrencyCode; mandatory when it is not MYR. */
  @DecimalValue({ optional: true }) TaxExchangeRate?: string | number;
  @NestedList(() => DocumentReference, { optional: true }) InvoiceDocumentReference?: DocumentReference[];
  @NestedList(() => AmountReason, { optional: true }) Discounts?: AmountReason[];
  @NestedList(() => AmountReason, { optional: true }) Charges?: AmountReason[];
  @NestedList(() => Prepayment, { optional: true }) Prepayments?: Prepayment[];
  /** Customs Form No. 1, 9... reference; at most 19, no special characters. */
  @Text(19, { optional: true }) CustomsImportForm?: string;
  /** Incoterms code such as `CIF`; at most 3, no special characters. */
  @Text(3, { optional: true }) Incoterms?: string;
  @NestedList(() => MyInvoisInvoiceLine, { min: 1 }) InvoiceLines: MyInvoisInvoiceLine[];
}

/** Body of a single (or bulk element) invoice-type document. */
export class InvoiceDocument extends DocumentBase {
  @Nested(() => MyInvoisCustomerParty) CustomerParty: MyInvoisCustomerParty;
  @Nested(() => DeliveryDetails, { optional: true }) DeliveryDetails?: DeliveryDetails;
}

/** Body of a consolidated (general-public) document: no DeliveryDetails; ids may be left out (rules.ts). */
export class ConsolidatedDocument extends DocumentBase {
  @Nested(() => MyInvoisCustomerParty) CustomerParty: MyInvoisCustomerParty;
}

/** Body of a self-billed document: SupplierParty instead of CustomerParty; types 01–04 render as 11–14. */
export class SelfBilledDocument extends DocumentBase {
  @Nested(() => SupplierParty) SupplierParty: SupplierParty;
  @Nested(() => DeliveryDetails, { optional: true }) DeliveryDetails?: DeliveryDetails;
}

/** The three document kinds. */
export type DocumentKind = 'invoice' | 'consolidated' | 'self-billed';

/** A parsed document of any kind, after defaults: currency set, IssueTime normalised, UOM filled. */
export type MyInvoisDocument =
  | { readonly kind: 'invoice'; readonly body: InvoiceDocument }
  | { readonly kind: 'consolidated'; readonly body: ConsolidatedDocument }
  | { readonly kind: 'self-billed'; readonly body: SelfBilledDocument };
