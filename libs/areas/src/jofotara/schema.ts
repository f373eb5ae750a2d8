/**
 * Request bodies of the Jordanian area (seed 002 "Jordan"; decisions in README.md): field for field as
 * the seed lists them, with the additions the issue decided (`payment_method`, the supplier's
 * `invoice_class`, credit notes). Each field's description names the JoFotara UBL 2.1 element it becomes
 * (ubl.ts), for the OpenAPI document (#47).
 */
import { JSONSchema } from 'class-validator-jsonschema';
import { DateText, Nested, NestedList, Num, OneOf, Text, TimeText } from '../shared/fields';

/** The classes a JoFotara device can be registered for (`InvoiceTypeCode@name` 0x1, 0x2, 0x3). */
export const INVOICE_CLASSES = ['income', 'general_sales', 'special_sales'] as const;
export type InvoiceClass = (typeof INVOICE_CLASSES)[number];
export const PAYMENT_METHODS = ['cash', 'receivable'] as const;
export const TAX_CATEGORIES = ['Exempted', 'ZeroTax', 'Standard'] as const;

const CITY_CODE = 'An ISO 3166-2:JO code (`JO-AM` Amman, `JO-IR` Irbid, `JO-AZ` Zarqa…)';

/** `POST /jo/supplier/onboard`. */
export class JofotaraOnboardingBody {
  @JSONSchema({ description: 'The supplier\'s registered name: the invoice\'s `AccountingSupplierParty/Party/PartyLegalEntity/RegistrationName`.', example: 'Amman Stationery Co' })
  @Text(300) supplier_name!: string;
  /** The supplier's TIN (digits). */
  @JSONSchema({ description: 'The supplier\'s tax number (TIN), 6 to 15 digits: `AccountingSupplierParty/Party/PartyTaxScheme/CompanyID`. It identifies the supplier and cannot change.', example: '20817364' })
  @Text(20) supplier_tin!: string;
  /** The income-source sequence the portal's device belongs to (digits). */
  @JSONSchema({ description: 'The income-source sequence the JoFotara portal shows for the device (digits): `SellerSupplierParty/Party/PartyIdentification/ID`.', example: '4419618' })
  @Text(20) default_income_source!: string;
  /** From the portal's "Link a device" screen; sealed at rest, never returned. */
  @JSONSchema({ description: 'The device\'s client id from the portal\'s "Link a device" screen, sent as JoFotara\'s `Client-Id` header. Checked with JoFotara before anything is stored (refused: 400 `JOFOTARA.403` here); sealed at rest, never returned.', example: 'device-1764547200' })
  @Text(200) client_id!: string;
  @JSONSchema({ description: 'The device\'s secret key from the same screen, sent as JoFotara\'s `Secret-Key` header; sealed at rest, never returned or logged.', example: 'secret-of-the-device' })
  @Text(200) client_secret!: string;
  /** e.g. `JO-IR` (ISO 3166-2:JO). */
  @JSONSchema({ description: `The supplier's city: ${CITY_CODE}.`, example: 'JO-AM' })
  @Text(10, { optional: true }) city_code?: string;
  @JSONSchema({ description: 'The supplier\'s postal code.', example: '11118' })
  @Text(20, { optional: true }) postal_code?: string;
  @JSONSchema({ description: 'The supplier\'s telephone number.', example: '+96265001234' })
  @Text(30, { optional: true }) phone?: string;
  /** (addition) The class the device is registered for; default `general_sales`. */
  @JSONSchema({ description: 'The class the portal registered the device for (default `general_sales`): the last digit of `InvoiceTypeCode@name` (1 income, 2 general sales, 3 special sales). Income invoices carry no tax.', example: 'general_sales' })
  @OneOf(INVOICE_CLASSES, { optional: true }) invoice_class?: InvoiceClass;
}

export class JofotaraBuyerDetails {
  /** Required for receivable invoices and cash invoices above 10,000 JOD (JoFotara). */
  @JSONSchema({ description: 'The buyer\'s name: `AccountingCustomerParty/Party/PartyLegalEntity/RegistrationName`. Required on a receivable invoice and on a cash invoice above 10,000 JOD.', example: 'Irbid Buyer' })
  @Text(300, { optional: true }) buyer_name?: string;
  @JSONSchema({ description: 'The buyer\'s tax number: `PartyIdentification/ID@schemeID="TN"` and `PartyTaxScheme/CompanyID`. One of buyer_tin, buyer_nin, buyer_pn is required, taken in that order.', example: '87654321' })
  @Text(30, { optional: true }) buyer_tin?: string;
  @JSONSchema({ description: 'The buyer\'s national id number, when it has no tax number: `PartyIdentification/ID@schemeID="NIN"`.', example: '9861012345' })
  @Text(30, { optional: true }) buyer_nin?: string;
  @JSONSchema({ description: 'A foreign buyer\'s passport number, when it has neither: `PartyIdentification/ID@schemeID="PN"`.', example: 'N1234567' })
  @Text(30, { optional: true }) buyer_pn?: string;
  @JSONSchema({ description: `The buyer's city: ${CITY_CODE}: \`PostalAddress/CountrySubentityCode\`.`, example: 'JO-IR' })
  @Text(10, { optional: true }) city_code?: string;
  @JSONSchema({ description: 'The buyer\'s postal code: `PostalAddress/PostalZone`.', example: '21110' })
  @Text(20, { optional: true }) postal_code?: string;
  @JSONSchema({ description: 'The buyer\'s telephone: `AccountingContact/Telephone`.', example: '+96227201234' })
  @Text(30, { optional: true }) phone?: string;
}

export class JofotaraLineDiscount {
  @JSONSchema({ description: 'The discount on the line, in JOD (not per unit): `Price/AllowanceCharge/Amount`; the line\'s discounts may not exceed price × quantity. Their sum over the lines is the document\'s `AllowanceCharge` (JoFotara has no document-level discount).', example: 1 })
  @Num() amount!: number;
  @JSONSchema({ description: 'Why the discount is given (kept here; JoFotara\'s element reads `DISCOUNT`).', example: 'Bulk order' })
  @Text(200, { optional: true }) reason?: string;
}

export class JofotaraLine {
  @JSONSchema({ description: 'What is sold: the line\'s `Item/Name`.', example: 'Pen' })
  @Text(300) description!: string;
  @JSONSchema({ description: 'The quantity, more than 0: `InvoicedQuantity` (unit `PCE`).', example: 4 })
  @Num() quantity!: number;
  /** The unit price before tax (and before the line's discounts). */
  @JSONSchema({ description: 'The unit price in JOD before tax and before the line\'s discounts: `Price/PriceAmount`. The line\'s `LineExtensionAmount` is price × quantity − discounts, rounded to fils (3 decimals) half up.', example: 2.5 })
  @Num() tax_exclusive_price!: number;
  /** A fraction: 0.16 for 16 %. */
  @JSONSchema({ description: 'The tax rate as a fraction (0.16 for 16 %): `TaxCategory/Percent`. A Standard line takes 0.01, 0.02, 0.03, 0.04, 0.05, 0.07, 0.08, 0.10 or 0.16; ZeroTax and Exempted take 0.', example: 0.16 })
  @Num() tax_percentage!: number;
  @JSONSchema({ description: 'The tax category: `TaxCategory/ID` `S` (Standard), `O` (ZeroTax), `Z` (Exempted), JoFotara\'s letters. Income-class suppliers use ZeroTax or Exempted.', example: 'Standard' })
  @OneOf(TAX_CATEGORIES) tax_category!: (typeof TAX_CATEGORIES)[number];
  @JSONSchema({ description: 'Discounts on this line (`Price/AllowanceCharge`, summed).', example: [{ amount: 1, reason: 'Bulk order' }] })
  @NestedList(() => JofotaraLineDiscount, { optional: true }) discounts?: JofotaraLineDiscount[];
  /** (addition) Special-sales suppliers: the line's special tax (JoFotara's OTH subtotal), default 0. */
  @JSONSchema({ description: 'Special-sales suppliers only: the line\'s special tax in JOD, JoFotara\'s `TaxSubtotal` of scheme `OTH` (default 0); others: 400.', example: 0.5 })
  @Num({ optional: true }) special_tax_amount?: number;
}

/** `POST /jo/einvoice/generate`. */
export class JofotaraInvoiceBody {
  @JSONSchema({ description: 'The invoice number: `cbc:ID`. Unique per supplier (409) and in sequence, compared part by part with digit runs as numbers (`INV-9` < `INV-10`); one before the supplier\'s last: 400 `JOFOTARA.NUMBER_ORDER`.', example: 'INV-1764547200' })
  @Text(50) invoice_ref_number!: string;
  @JSONSchema({ description: 'The issue date, `YYYY-MM-DD`: `cbc:IssueDate`.', example: '2026-11-25' })
  @DateText() issue_date!: string;
  /** `HH-MM-ss` (the seed) or `HH:MM:ss` (its sample). */
  @JSONSchema({ description: 'The issue time, `HH-MM-ss` or `HH:MM:ss`: `cbc:IssueTime`, written `HH:MM:SS`.', example: '10-30-00' })
  @TimeText() issue_time!: string;
  @JSONSchema({ description: 'The buyer: `AccountingCustomerParty`.', example: { buyer_name: 'Irbid Buyer', buyer_tin: '87654321', city_code: 'JO-IR' } })
  @Nested(() => JofotaraBuyerDetails) buyer_details!: JofotaraBuyerDetails;
  /** The seed's `lineitems`, at least one. */
  @JSONSchema({ description: 'The lines, at least one: each an `InvoiceLine` with its `TaxTotal`; the document\'s `TaxTotal` and `LegalMonetaryTotal` are their sums.', example: [{ description: 'Pen', quantity: 4, tax_exclusive_price: 2.5, tax_percentage: 0.16, tax_category: 'Standard' }] })
  @NestedList(() => JofotaraLine, { min: 1 }) lineitems!: JofotaraLine[];
  /** (addition) default `cash`. */
  @JSONSchema({ description: 'How the invoice is paid (default `cash`): the middle digit of `InvoiceTypeCode@name` (1 cash, 2 receivable). A receivable invoice names its buyer.', example: 'cash' })
  @OneOf(PAYMENT_METHODS, { optional: true }) payment_method?: (typeof PAYMENT_METHODS)[number];
  @JSONSchema({ description: 'A free-text note: `cbc:Note`.', example: 'Delivered to the Irbid branch.' })
  @Text(1000, { optional: true }) note?: string;
}

export class JofotaraReturnedLine {
  /** The original invoice's line, 1-based, in its `lineitems` order. */
  @JSONSchema({ description: 'The original invoice\'s line, from 1 in its `lineitems` order; the credit note\'s `InvoiceLine/ID` keeps it.', example: 1 })
  @Num() line!: number;
  @JSONSchema({ description: 'How much of it comes back, more than 0 and never more than the line sold (over all credit notes, JoFotara\'s `returnedQuantity`); at the original\'s price, rate and pro-rata discount.', example: 1 })
  @Num() quantity!: number;
}

/** `POST /jo/einvoice/generate/credit-note`: quantities of an invoice's lines returned, nothing else. */
export class JofotaraCreditNoteBody {
  @JSONSchema({ description: 'The credit note\'s own number: `cbc:ID` (InvoiceTypeCode 381). Unique per supplier (409).', example: 'CN-1764547200' })
  @Text(50) credit_note_ref_number!: string;
  @JSONSchema({ description: 'The `uuid` generate answered for the invoice being credited, a cleared invoice of the same supplier (unknown: 404): `BillingReference/InvoiceDocumentReference/UUID`, with its number and total.', example: '019ad0c4-5e21-7c3a-9b8e-2f41d6a0c7e5' })
  @Text(36) original_uuid!: string;
  @JSONSchema({ description: 'Why the goods come back: `PaymentMeans/InstructionNote`.', example: 'One pen returned damaged.' })
  @Text(500) reason!: string;
  @JSONSchema({ description: 'The credit note\'s issue date, `YYYY-MM-DD`: `cbc:IssueDate`.', example: '2026-11-26' })
  @DateText() issue_date!: string;
  @JSONSchema({ description: 'Its issue time, `HH-MM-ss` or `HH:MM:ss`: `cbc:IssueTime`.', example: '09-15-00' })
  @TimeText() issue_time!: string;
  @JSONSchema({ description: 'The lines returned (quantities of the original\'s lines, nothing else), at least one.', example: [{ line: 1, quantity: 1 }] })
  @NestedList(() => JofotaraReturnedLine, { min: 1 }) returned_lines!: JofotaraReturnedLine[];
}
