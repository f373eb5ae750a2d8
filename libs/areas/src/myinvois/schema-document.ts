/**
 * The invoice-type document of the Malaysian area, field for field as seed 000 ("Invoice-type
 * document", CustomerParty, DeliveryDetails, InvoiceLines, LineTaxes, consolidated differences),
 * plus the self-billed body (README "Self-billed body"). Rules that span fields are in rules.ts.
 */
import { JSONSchema } from 'class-validator-jsonschema';
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
  @JSONSchema({ description: 'The amount, in the document currency, without tax (cac:AllowanceCharge/cbc:Amount).', example: 10 })
  @Num() Amount: number;
  /** MyInvois "description" of an allowance or charge, at most 300. */
  @JSONSchema({ description: 'Why it is given (cbc:AllowanceChargeReason).', example: 'Loyalty discount' })
  @Text(300, { optional: true }) Reason?: string;
}

/** `Prepayments[]`. */
export class Prepayment {
  @JSONSchema({ description: 'Reference of the prepayment (cac:PrepaidPayment/cbc:ID).', example: 'PP-2026-0007' })
  @Text(150, { optional: true }) PaymentID?: string;
  @JSONSchema({ description: 'The amount prepaid, in the document currency (cac:PrepaidPayment/cbc:PaidAmount).', example: 20 })
  @Num() Amount: number;
  @JSONSchema({ description: 'When it was paid, `YYYY-MM-DD` (cbc:PaidDate).', example: '2026-03-01' })
  @DateText({ optional: true }) Date?: string;
  @JSONSchema({ description: 'When it was paid, UTC `HH:MM:ssZ` (cbc:PaidTime).', example: '09:00:00Z' })
  @UtcTime({ optional: true }) Time?: string;
}

/** `InvoiceDocumentReference[]`: the document a credit, debit or refund note adjusts. */
export class DocumentReference {
  /** LHDN's unique identifier of the referenced document. */
  @JSONSchema({ description: 'The MyInvois uuid of the document adjusted (cac:BillingReference/cac:InvoiceDocumentReference/cbc:UUID).', example: 'F9D425P6DS7D8IU4A8R5EY2K10' })
  @Text(100) UUID: string;
  /** Its internal id / number (the referenced `ID`). */
  @JSONSchema({ description: 'Its `ID`, the supplier\'s number of the adjusted document (cbc:ID).', example: 'INV-2026-0001' })
  @Text(50) InternalID: string;
}

/** `InvoiceLines[].LineTaxes[]`. */
export class LineTax {
  @JSONSchema({ description: 'MyInvois tax type (cac:TaxCategory/cbc:ID): 01 Sales Tax, 02 Service Tax, 03 Tourism Tax, 04 High-Value Goods Tax, 05 Sales Tax on Low Value Goods, 06 Not Applicable, E exempt.', example: '02' })
  @OneOf(taxTypes) TaxType: TaxType;
  /** Mandatory when TaxType is `E`. */
  @JSONSchema({ description: 'Why the line is exempt (cbc:TaxExemptionReason); mandatory with TaxType E.', example: 'Exempt under Sales Tax (Persons Exempted from Payment of Tax) Order 2018' })
  @Text(300, { optional: true }) TaxExemptionReason?: string;
  /** A fraction: 0.10 is 10 %. Either TaxRate, or TaxBaseUnit with TaxPerUnit. */
  @JSONSchema({ description: 'The rate as a fraction, 0.06 for 6 % (rendered cbc:Percent 6); give it, or TaxBaseUnit with TaxPerUnit.', example: 0.06 })
  @Num({ optional: true }) TaxRate?: number;
  @JSONSchema({ description: 'The number of units a fixed tax applies to (cbc:BaseUnitMeasure), with TaxPerUnit instead of TaxRate.', example: 2 })
  @Num({ optional: true }) TaxBaseUnit?: number;
  @JSONSchema({ description: 'The fixed tax per unit, in the document currency (cbc:PerUnitAmount); mandatory with TaxBaseUnit.', example: 10 })
  @Num({ optional: true }) TaxPerUnit?: number;
}

/** One element of `InvoiceLines` (class named for its area: see {@link MyInvoisCustomerParty}). */
export class MyInvoisInvoiceLine {
  @JSONSchema({ description: 'What is sold (cac:Item/cbc:Description); on a consolidated document, the range of receipts it summarises.', example: 'Widget' })
  @Text(300) Description: string;
  @JSONSchema({ description: 'Quantity, in UOM (cbc:InvoicedQuantity).', example: 2 })
  @Num() InvoicedQuantity: number;
  /** UN/ECE Rec 20 / 21 unit code; default `C62`. */
  @JSONSchema({ description: 'UN/ECE Recommendation 20/21 unit code of the quantity (@unitCode); `C62` (one) when absent.', example: 'C62' })
  @Text(3, { optional: true }) UOM?: string;
  @JSONSchema({ description: 'Unit price without tax, in the document currency (cac:Price/cbc:PriceAmount); the line amount is PriceAmount × InvoicedQuantity less discounts plus charges.', example: 50 })
  @Num() PriceAmount: number;
  @JSONSchema({ description: 'The taxes of the line (cac:TaxTotal/cac:TaxSubtotal), at least one; TaxType 06 when none applies.', example: [{ TaxType: '02', TaxRate: 0.06 }] })
  @NestedList(() => LineTax, { min: 1 }) LineTaxes: LineTax[];
  /** MyInvois classification codes (listID CLASS), each exactly 3 characters. */
  @JSONSchema({ description: 'MyInvois classification codes of the item (cac:CommodityClassification/cbc:ItemClassificationCode listID CLASS), each exactly 3 characters; 022 Others.', example: ['022'] })
  @StringList() ClassificationCode: string[];
  @JSONSchema({ description: 'Discounts of this line (cac:AllowanceCharge, ChargeIndicator false).', example: [{ Amount: 5, Reason: 'Bulk discount' }] })
  @NestedList(() => AmountReason, { optional: true }) Discounts?: AmountReason[];
  @JSONSchema({ description: 'Charges of this line (cac:AllowanceCharge, ChargeIndicator true).', example: [{ Amount: 3, Reason: 'Gift wrapping' }] })
  @NestedList(() => AmountReason, { optional: true }) Charges?: AmountReason[];
}

/** Address fields shared by CustomerParty, DeliveryDetails and SupplierParty. */
export class Address {
  @JSONSchema({ description: 'City of the party\'s address (cac:PostalAddress/cbc:CityName); `NA` for the general public.', example: 'Petaling Jaya' })
  @Text(300) CityName: string;
  /** 1 to 3 lines (rules.ts); `NA` if not recognisable. */
  @JSONSchema({ description: '1 to 3 address lines (cac:AddressLine/cbc:Line); `NA` when not recognisable.', example: ['Jalan Jalan 20'] })
  @StringList() AddressLines: string[];
  /** Seed: rules not shown; MyInvois postal zone max 50. */
  @JSONSchema({ description: 'Postal code (cbc:PostalZone).', example: '47500' })
  @Text(50, { optional: true }) PostalZone?: string;
  /** MyInvois state code `01`–`17`; `17` for foreign addresses. */
  @JSONSchema({ description: 'MyInvois state code (cbc:CountrySubentityCode): `01`–`16` (10: Selangor), `17` for a foreign address.', example: '10' })
  @Exact(2) CountrySubentityCode: string;
  /** ISO 3166-1 alpha-3. */
  @JSONSchema({ description: 'ISO 3166-1 alpha-3 country code (cac:Country/cbc:IdentificationCode; alpha-2 in the PINT MY copy).', example: 'MYS' })
  @Exact(3) CountryCode: string;
}

/**
 * The buyer of an invoice (`CustomerParty`). Named for its area: the OpenAPI schemas are keyed by class
 * name, and the Peppol area's CustomerParty and InvoiceLine would merge with these (#47).
 * Exactly one of BRN / NRIC / Passport / ArmyID (rules.ts). */
export class MyInvoisCustomerParty extends Address {
  @JSONSchema({ description: 'The buyer\'s registered or full name (cac:PartyLegalEntity/cbc:RegistrationName); `General Public` on a consolidated document.', example: 'Syarikat Pembeli Bhd' })
  @Text(300) LegalName: string;
  /** `EI00000000010` general public, `EI00000000020` foreign buyer. */
  @JSONSchema({ description: 'The buyer\'s TIN (cac:PartyIdentification TIN): `EI00000000010` the general public, `EI00000000020` a foreign buyer.', example: 'C20880050010' })
  @Text(14) CustomerTIN: string;
  @JSONSchema({ description: 'Its business registration number (PartyIdentification BRN); one of BRN, NRIC, Passport or ArmyID is mandatory.', example: '199901012345' })
  @Text(20, { optional: true }) CustomerBRN?: string;
  @JSONSchema({ description: 'MyKad number of a Malaysian individual buyer (PartyIdentification NRIC).', example: '880515105522' })
  @Text(12, { optional: true }) CustomerNRIC?: string;
  @JSONSchema({ description: 'Passport number of a non-Malaysian individual buyer (PartyIdentification PASSPORT).', example: 'A12345678' })
  @Text(12, { optional: true }) CustomerPassport?: string;
  @JSONSchema({ description: 'Armed-forces identification number of the buyer (PartyIdentification ARMY).', example: '551587706543' })
  @Text(12, { optional: true }) CustomerArmyID?: string;
  @JSONSchema({ description: 'SST registration number of an SST-registered buyer (PartyIdentification SST), else `NA`.', example: 'NA' })
  @Text(35, { optional: true }) CustomerSST?: string;
  @JSONSchema({ description: 'The buyer\'s telephone number (cac:Contact/cbc:Telephone); `NA` for the general public.', example: '+60312345678' })
  @Text(20) Telephone: string;
  @JSONSchema({ description: 'The buyer\'s e-mail address (cbc:ElectronicMail).', example: 'ap@pembeli.example.my' })
  @Text(300, { optional: true }) Email?: string;
}

/** The shipping recipient. Exactly one of BRN / NRIC / Passport / ArmyID (rules.ts). */
export class DeliveryDetails extends Address {
  @JSONSchema({ description: 'Name of the shipping recipient (cac:Delivery/cac:DeliveryParty/cac:PartyLegalEntity/cbc:RegistrationName).', example: 'Gudang Pembeli Sdn Bhd' })
  @Text(300) RecipientName: string;
  @JSONSchema({ description: 'The recipient\'s TIN; `EI00000000020` a foreign recipient.', example: 'C20880050010' })
  @Text(14) RecipientTIN: string;
  @JSONSchema({ description: 'The recipient\'s business registration number; one of BRN, NRIC, Passport or ArmyID is mandatory.', example: '199901012345' })
  @Text(20, { optional: true }) RecipientBRN?: string;
  @JSONSchema({ description: 'MyKad number of a Malaysian individual recipient.', example: '880515105522' })
  @Text(12, { optional: true }) RecipientNRIC?: string;
  @JSONSchema({ description: 'Passport number of a non-Malaysian individual recipient.', example: 'A12345678' })
  @Text(12, { optional: true }) RecipientPassport?: string;
  @JSONSchema({ description: 'Armed-forces identification number of the recipient.', example: '551587706543' })
  @Text(12, { optional: true }) RecipientArmyID?: string;
  @JSONSchema({ description: 'SST registration number of the recipient, else `NA`.', example: 'NA' })
  @Text(35, { optional: true }) RecipientSST?: string;
  @JSONSchema({ description: 'Reference of the shipment (cac:Shipment/cbc:ID).', example: 'SHP-2026-0315' })
  @Text(50, { optional: true }) ShipmentID?: string;
  @JSONSchema({ description: 'Charges of the shipment (cac:Shipment/cac:FreightAllowanceCharge), at least one when given.', example: [{ Amount: 15, Reason: 'Delivery to Petaling Jaya' }] })
  @NestedList(() => AmountReason, { min: 1, optional: true }) ShipmentCharges?: AmountReason[];
}

/**
 * The seller of a self-billed document (our addition, README "Self-billed body"): the
 * onboarded supplier is the buyer, so the body names the party it buys from, with the same
 * field names the seed uses for a customer, `Supplier*` instead of `Customer*`.
 */
export class SupplierParty extends Address {
  @JSONSchema({ description: 'The seller\'s registered or full name (cac:AccountingSupplierParty … cbc:RegistrationName).', example: 'Pekebun Kecil Ahmad' })
  @Text(300) LegalName: string;
  /** `EI00000000030` for a foreign supplier. */
  @JSONSchema({ description: 'The seller\'s TIN; `EI00000000030` a foreign seller.', example: 'IG21136626090' })
  @Text(14) SupplierTIN: string;
  @JSONSchema({ description: 'The seller\'s business registration number; one of BRN, NRIC, Passport or ArmyID is mandatory.', example: '202001234567' })
  @Text(20, { optional: true }) SupplierBRN?: string;
  @JSONSchema({ description: 'MyKad number of a Malaysian individual seller.', example: '770625015324' })
  @Text(12, { optional: true }) SupplierNRIC?: string;
  @JSONSchema({ description: 'Passport number of a non-Malaysian individual seller.', example: 'A12345678' })
  @Text(12, { optional: true }) SupplierPassport?: string;
  @JSONSchema({ description: 'Armed-forces identification number of the seller.', example: '551587706543' })
  @Text(12, { optional: true }) SupplierArmyID?: string;
  @JSONSchema({ description: 'SST registration number of the seller, else `NA`.', example: 'NA' })
  @Text(35, { optional: true }) SupplierSST?: string;
  @JSONSchema({ description: 'Tourism tax registration number of the seller, else `NA`.', example: 'NA' })
  @Text(17, { optional: true }) SupplierTTX?: string;
  /** MSIC code of the seller; default `00000` (not applicable). */
  @JSONSchema({ description: 'MSIC 2008 code of the seller\'s activity (cbc:IndustryClassificationCode); `00000` when absent.', example: '01131' })
  @Exact(5, { optional: true }) MSICCode?: string;
  /** Its description; default `NOT APPLICABLE`. */
  @JSONSchema({ description: 'Description of that activity; `NOT APPLICABLE` when absent.', example: 'Growing of leafy or stem vegetables' })
  @Text(300, { optional: true }) BusinessActivityDescription?: string;
  @JSONSchema({ description: 'The seller\'s telephone number (cac:Contact/cbc:Telephone).', example: '+60197654321' })
  @Text(20) Telephone: string;
  @JSONSchema({ description: 'The seller\'s e-mail address (cbc:ElectronicMail).', example: 'ahmad@pekebun.example.my' })
  @Text(300, { optional: true }) Email?: string;
}

/** Fields common to every document kind. */
export class DocumentBase {
  /** Unique invoice reference number, issued in sequence. */
  @JSONSchema({ description: 'The supplier\'s document number (cbc:ID), unique per supplier and issued in sequence: a reused ID is a 409. Also reads the document back.', example: 'INV-2026-0347' })
  @Text(50) ID: string;
  @JSONSchema({ description: 'Date of issue, `YYYY-MM-DD` (cbc:IssueDate); MyInvois takes documents issued within the last 72 hours.', example: '2026-03-15' })
  @DateText() IssueDate: string;
  /** UTC, `HH:MM:ssZ` or `HH-MM-ssZ`; normalised to `HH:MM:ssZ`. */
  @JSONSchema({ description: 'Time of issue in UTC, `HH:MM:ssZ` or `HH-MM-ssZ` (cbc:IssueTime).', example: '10:30:00Z' })
  @UtcTime() IssueTime: string;
  @JSONSchema({ description: 'MyInvois e-invoice type (cbc:InvoiceTypeCode): 01 invoice, 02 credit note, 03 debit note, 04 refund note; self-billed: rendered 11–14.', example: '01' })
  @OneOf(invoiceTypeCodes) InvoiceTypeCode: InvoiceTypeCode;
  /** The total including all taxes as the client computed it (README "InvoiceTotal"). */
  @JSONSchema({ description: 'The total including tax as the client computed it; when given, it must match the computed total within rounding (cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount).', example: 106 })
  @Num({ optional: true }) InvoiceTotal?: number;
  /** Default `MYR`. */
  @JSONSchema({ description: 'ISO 4217 currency of the amounts (cbc:DocumentCurrencyCode); `MYR` when absent.', example: 'MYR' })
  @CurrencyCode({ optional: true }) DocumentCurrencyCode?: string;
  /** MYR per 1 unit of DocumentCurrencyCode; mandatory when it is not MYR. */
  @JSONSchema({ description: 'MYR per one unit of DocumentCurrencyCode (cac:TaxExchangeRate/cbc:CalculationRate); mandatory when the currency is not MYR.', example: '4.4720' })
  @DecimalValue({ optional: true }) TaxExchangeRate?: string | number;
  @JSONSchema({ description: 'The document(s) a credit, debit or refund note (02–04) adjusts (cac:BillingReference); mandatory for those types.', example: [{ UUID: 'F9D425P6DS7D8IU4A8R5EY2K10', InternalID: 'INV-2026-0001' }] })
  @NestedList(() => DocumentReference, { optional: true }) InvoiceDocumentReference?: DocumentReference[];
  @JSONSchema({ description: 'Document-level discounts (cac:AllowanceCharge, ChargeIndicator false).', example: [{ Amount: 10, Reason: 'Loyalty discount' }] })
  @NestedList(() => AmountReason, { optional: true }) Discounts?: AmountReason[];
  @JSONSchema({ description: 'Document-level charges (cac:AllowanceCharge, ChargeIndicator true).', example: [{ Amount: 8, Reason: 'Handling' }] })
  @NestedList(() => AmountReason, { optional: true }) Charges?: AmountReason[];
  @JSONSchema({ description: 'Amounts paid before the document (cac:PrepaidPayment); they reduce the amount payable.', example: [{ PaymentID: 'PP-2026-0007', Amount: 20, Date: '2026-03-01', Time: '09:00:00Z' }] })
  @NestedList(() => Prepayment, { optional: true }) Prepayments?: Prepayment[];
  /** Customs Form No. 1, 9... reference; at most 19, no special characters. */
  @JSONSchema({ description: 'Reference of the Customs Form No. 1 or 9 of imported goods (cac:AdditionalDocumentReference CustomsImportForm); mandatory if applicable.', example: 'E12345678912' })
  @Text(19, { optional: true }) CustomsImportForm?: string;
  /** Incoterms code such as `CIF`; at most 3, no special characters. */
  @JSONSchema({ description: 'Incoterms code of the delivery terms (MyInvois Incoterms).', example: 'CIF' })
  @Text(3, { optional: true }) Incoterms?: string;
  @JSONSchema({ description: 'The lines (cac:InvoiceLine), at least one.', example: [{ Description: 'Widget', InvoicedQuantity: 2, PriceAmount: 50, LineTaxes: [{ TaxType: '02', TaxRate: 0.06 }], ClassificationCode: ['022'] }] })
  @NestedList(() => MyInvoisInvoiceLine, { min: 1 }) InvoiceLines: MyInvoisInvoiceLine[];
}

/** The parties' examples of the OpenAPI document (#47), as the README's first document has them. */
const customerExample = {
  LegalName: 'Syarikat Pembeli Bhd', CustomerTIN: 'C20880050010', CustomerBRN: '199901012345', CityName: 'Petaling Jaya',
  AddressLines: ['Jalan Jalan 20'], PostalZone: '47500', CountrySubentityCode: '10', CountryCode: 'MYS', Telephone: '+60312345678',
};
const deliveryExample = {
  RecipientName: 'Gudang Pembeli Sdn Bhd', RecipientTIN: 'C20880050010', RecipientBRN: '199901012345', CityName: 'Shah Alam',
  AddressLines: ['Lot 5, Jalan Gudang 16/1'], PostalZone: '40200', CountrySubentityCode: '10', CountryCode: 'MYS',
};
const sellerExample = {
  LegalName: 'Pekebun Kecil Ahmad', SupplierTIN: 'IG21136626090', SupplierNRIC: '770625015324', CityName: 'Kluang',
  AddressLines: ['Kampung Baru'], CountrySubentityCode: '01', CountryCode: 'MYS', Telephone: '+60197654321',
};
const CUSTOMER = { description: 'The buyer (cac:AccountingCustomerParty).', example: customerExample };
const DELIVERY = { description: 'The shipping recipient when it is not the buyer (cac:Delivery/cac:DeliveryParty).', example: deliveryExample };

/** Body of a single (or bulk element) invoice-type document. */
export class InvoiceDocument extends DocumentBase {
  @JSONSchema(CUSTOMER)
  @Nested(() => MyInvoisCustomerParty) CustomerParty: MyInvoisCustomerParty;
  @JSONSchema(DELIVERY)
  @Nested(() => DeliveryDetails, { optional: true }) DeliveryDetails?: DeliveryDetails;
}

/** Body of a consolidated (general-public) document: no DeliveryDetails; ids may be left out (rules.ts). */
export class ConsolidatedDocument extends DocumentBase {
  @JSONSchema({ description: 'The general public (TIN `EI00000000010`; `NA` for city, address line and telephone).', example: { LegalName: 'General Public', CustomerTIN: 'EI00000000010', CityName: 'NA', AddressLines: ['NA'], CountrySubentityCode: '17', CountryCode: 'MYS', Telephone: 'NA' } })
  @Nested(() => MyInvoisCustomerParty) CustomerParty: MyInvoisCustomerParty;
}

/** Body of a self-billed document: SupplierParty instead of CustomerParty; types 01–04 render as 11–14. */
export class SelfBilledDocument extends DocumentBase {
  @JSONSchema({ description: 'The seller the onboarded supplier buys from (cac:AccountingSupplierParty); the onboarded supplier is the buyer.', example: sellerExample })
  @Nested(() => SupplierParty) SupplierParty: SupplierParty;
  @JSONSchema(DELIVERY)
  @Nested(() => DeliveryDetails, { optional: true }) DeliveryDetails?: DeliveryDetails;
}

/** The three document kinds. */
export type DocumentKind = 'invoice' | 'consolidated' | 'self-billed';

/** A parsed document of any kind, after defaults: currency set, IssueTime normalised, UOM filled. */
export type MyInvoisDocument =
  | { readonly kind: 'invoice'; readonly body: InvoiceDocument }
  | { readonly kind: 'consolidated'; readonly body: ConsolidatedDocument }
  | { readonly kind: 'self-billed'; readonly body: SelfBilledDocument };
