/**
 * Request bodies of the Nigerian area (seed 002 "Nigeria"; decisions in README.md), field for field as the
 * seed and the official MBS sample name them (snake_case), with the issue's decisions (`invoice_line`,
 * `lineitems` as its alias, `tax_total`, `allowance_charge`, `legal_monetary_total`).
 */
import { IsBoolean, IsDefined, IsEmail, Matches } from 'class-validator';
import { Country, CurrencyCode, DateText, Nested, NestedList, Num, OneOf, Text, TimeText } from '../shared/fields';

export const PAYMENT_STATUSES = ['PENDING', 'PAID', 'CANCELED'] as const;
const TELEPHONE = /^\+[1-9]\d{6,14}$/;
const TELEPHONE_MESSAGE = 'must start with + and the country code, then digits only (E.164), e.g. +2348012345678';

export class FirsPostalAddress {
  @Text(300, { optional: true }) street_name?: string;
  @Text(100, { optional: true }) city_name?: string;
  @Text(20, { optional: true }) postal_zone?: string;
  @Country() country!: string;
}

/** `POST /api/auth/taxpayer/login`. */
export class FirsOnboardingBody {
  @Text(300, { optional: true }) party_name?: string;
  @Text(20) tin!: string;
  @Text(200) @IsEmail({}, { message: 'must be an e-mail address' }) email!: string;
  /** The supplier's password for the FIRS portal: used to log in, sealed at rest, never returned. */
  @Text(200) password!: string;
  @Text(20, { optional: true }) @Matches(TELEPHONE, { message: TELEPHONE_MESSAGE }) telephone?: string;
  @Text(1000) business_description!: string;
  @Nested(() => FirsPostalAddress) postal_address!: FirsPostalAddress;
}

export class FirsParty {
  @Text(300) party_name!: string;
  @Text(20) tin!: string;
  @Text(200) @IsEmail({}, { message: 'must be an e-mail address' }) email!: string;
  @Text(20, { optional: true }) @Matches(TELEPHONE, { message: TELEPHONE_MESSAGE }) telephone?: string;
  @Text(1000, { optional: true }) business_description?: string;
  @Nested(() => FirsPostalAddress) postal_address!: FirsPostalAddress;
}

export class FirsItem {
  @Text(300) name!: string;
  @Text(1000, { optional: true }) description?: string;
  @Text(100, { optional: true }) sellers_item_identification?: string;
}

export class FirsPrice {
  /** The unit price. */
  @Num() price_amount!: number;
  @Num({ optional: true }) base_quantity?: number;
  @Text(50, { optional: true }) price_unit?: string;
}

export class FirsLine {
  @Text(50) hsn_code!: string;
  @Text(200) product_category!: string;
  /** Percent. */
  @Num({ optional: true }) discount_rate?: number;
  @Num({ optional: true }) discount_amount?: number;
  /** Percent. */
  @Num({ optional: true }) fee_rate?: number;
  @Num({ optional: true }) fee_amount?: number;
  @Num() invoiced_quantity!: number;
  /** Before tax: quantity × price − discount + fee (checked). */
  @Num() line_extension_amount!: number;
  @Nested(() => FirsItem) item!: FirsItem;
  @Nested(() => FirsPrice) price!: FirsPrice;
}

export class FirsTaxCategory {
  @Text(50) id!: string;
  @Num() percent!: number;
}

export class FirsTaxSubtotal {
  @Num() taxable_amount!: number;
  @Num() tax_amount!: number;
  @Nested(() => FirsTaxCategory) tax_category!: FirsTaxCategory;
}

export class FirsTaxTotal {
  @Num() tax_amount!: number;
  @NestedList(() => FirsTaxSubtotal, { min: 1 }) tax_subtotal!: FirsTaxSubtotal[];
}

export class FirsAllowanceCharge {
  /** true: a charge; false: an allowance. */
  @IsDefined({ message: 'is required' }) @IsBoolean({ message: 'must be true or false' }) charge_indicator!: boolean;
  @Num() amount!: number;
}

export class FirsMonetaryTotal {
  @Num() line_extension_amount!: number;
  @Num() tax_exclusive_amount!: number;
  @Num() tax_inclusive_amount!: number;
  @Num() payable_amount!: number;
}

export class FirsPeriod {
  @DateText() start_date!: string;
  @DateText() end_date!: string;
}

/** `POST /api/invoice/generate`. */
export class FirsInvoiceBody {
  @Text(50) document_identifier!: string;
  @DateText() issue_date!: string;
  @DateText({ optional: true }) due_date?: string;
  /** `HH-MM-ss` (the seed) or `HH:MM:ss`. */
  @TimeText() issue_time!: string;
  @Text(3) invoice_type_code!: string;
  @OneOf(PAYMENT_STATUSES, { optional: true }) payment_status?: (typeof PAYMENT_STATUSES)[number];
  @Text(200, { optional: true }) buyer_reference?: string;
  @Text(1000, { optional: true }) note?: string;
  @CurrencyCode({ optional: true }) document_currency_code?: string;
  @CurrencyCode({ optional: true }) tax_currency_code?: string;
  @Nested(() => FirsPeriod, { optional: true }) invoice_delivery_period?: FirsPeriod;
  @Nested(() => FirsParty) accounting_customer_party!: FirsParty;
  @NestedList(() => FirsLine, { min: 1 }) invoice_line!: FirsLine[];
  @NestedList(() => FirsTaxTotal, { optional: true }) tax_total?: FirsTaxTotal[];
  @NestedList(() => FirsAllowanceCharge, { optional: true }) allowance_charge?: FirsAllowanceCharge[];
  @Nested(() => FirsMonetaryTotal, { optional: true }) legal_monetary_total?: FirsMonetaryTotal;
}

/** `PATCH /api/invoice/{irn}/payment-status`. */
export class FirsPaymentStatusBody {
  @OneOf(PAYMENT_STATUSES) payment_status!: (typeof PAYMENT_STATUSES)[number];
  @Text(200, { optional: true }) reference?: string;
}
