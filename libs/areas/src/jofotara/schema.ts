/**
 * Request bodies of the Jordanian area (seed 002 "Jordan"; decisions in README.md): field for field as
 * the seed lists them, with the additions the issue decided (`payment_method`, the supplier's
 * `invoice_class`, credit notes).
 */
import { DateText, Nested, NestedList, Num, OneOf, Text, TimeText } from '../shared/fields';

/** The classes a JoFotara device can be registered for (`InvoiceTypeCode@name` 0x1, 0x2, 0x3). */
export const INVOICE_CLASSES = ['income', 'general_sales', 'special_sales'] as const;
export type InvoiceClass = (typeof INVOICE_CLASSES)[number];
export const PAYMENT_METHODS = ['cash', 'receivable'] as const;
export const TAX_CATEGORIES = ['Exempted', 'ZeroTax', 'Standard'] as const;

/** `POST /jo/supplier/onboard`. */
export class JofotaraOnboardingBody {
  @Text(300) supplier_name!: string;
  /** The supplier's TIN (digits). */
  @Text(20) supplier_tin!: string;
  /** The income-source sequence the portal's device belongs to (digits). */
  @Text(20) default_income_source!: string;
  /** From the portal's "Link a device" screen; sealed at rest, never returned. */
  @Text(200) client_id!: string;
  @Text(200) client_secret!: string;
  /** e.g. `JO-IR` (ISO 3166-2:JO). */
  @Text(10, { optional: true }) city_code?: string;
  @Text(20, { optional: true }) postal_code?: string;
  @Text(30, { optional: true }) phone?: string;
  /** (addition) The class the device is registered for; default `general_sales`. */
  @OneOf(INVOICE_CLASSES, { optional: true }) invoice_class?: InvoiceClass;
}

export class JofotaraBuyerDetails {
  /** Required for receivable invoices and cash invoices above 10,000 JOD (JoFotara). */
  @Text(300, { optional: true }) buyer_name?: string;
  @Text(30, { optional: true }) buyer_tin?: string;
  @Text(30, { optional: true }) buyer_nin?: string;
  @Text(30, { optional: true }) buyer_pn?: string;
  @Text(10, { optional: true }) city_code?: string;
  @Text(20, { optional: true }) postal_code?: string;
  @Text(30, { optional: true }) phone?: string;
}

export class JofotaraLineDiscount {
  @Num() amount!: number;
  @Text(200, { optional: true }) reason?: string;
}

export class JofotaraLine {
  @Text(300) description!: string;
  @Num() quantity!: number;
  /** The unit price before tax (and before the line's discounts). */
  @Num() tax_exclusive_price!: number;
  /** A fraction: 0.16 for 16 %. */
  @Num() tax_percentage!: number;
  @OneOf(TAX_CATEGORIES) tax_category!: (typeof TAX_CATEGORIES)[number];
  @NestedList(() => JofotaraLineDiscount, { optional: true }) discounts?: JofotaraLineDiscount[];
  /** (addition) Special-sales suppliers: the line's special tax (JoFotara's OTH subtotal), default 0. */
  @Num({ optional: true }) special_tax_amount?: number;
}

/** `POST /jo/einvoice/generate`. */
export class JofotaraInvoiceBody {
  @Text(50) invoice_ref_number!: string;
  @DateText() issue_date!: string;
  /** `HH-MM-ss` (the seed) or `HH:MM:ss` (its sample). */
  @TimeText() issue_time!: string;
  @Nested(() => JofotaraBuyerDetails) buyer_details!: JofotaraBuyerDetails;
  /** The seed's `lineitems`, at least one. */
  @NestedList(() => JofotaraLine, { min: 1 }) lineitems!: JofotaraLine[];
  /** (addition) default `cash`. */
  @OneOf(PAYMENT_METHODS, { optional: true }) payment_method?: (typeof PAYMENT_METHODS)[number];
  @Text(1000, { optional: true }) note?: string;
}

export class JofotaraReturnedLine {
  /** The original invoice's line, 1-based, in its `lineitems` order. */
  @Num() line!: number;
  @Num() quantity!: number;
}

/** `POST /jo/einvoice/generate/credit-note`: quantities of an invoice's lines returned, nothing else. */
export class JofotaraCreditNoteBody {
  @Text(50) credit_note_ref_number!: string;
  @Text(36) original_uuid!: string;
  @Text(500) reason!: string;
  @DateText() issue_date!: string;
  @TimeText() issue_time!: string;
  @NestedList(() => JofotaraReturnedLine, { min: 1 }) returned_lines!: JofotaraReturnedLine[];
}
