/**
 * Request bodies of the Nigerian area (seed 002 "Nigeria"; decisions in README.md), field for field as the
 * seed and the official MBS sample name them (snake_case), with the issue's decisions (`invoice_line`,
 * `lineitems` as its alias, `tax_total`, `allowance_charge`, `legal_monetary_total`). The names are FIRS MBS's
 * (`invoice/validate`, `invoice/sign`): each field's description says what it becomes there (#47).
 */
import { IsBoolean, IsDefined, IsEmail, Matches } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Country, CurrencyCode, DateText, Nested, NestedList, Num, OneOf, Text, TimeText } from '../shared/fields';

export const PAYMENT_STATUSES = ['PENDING', 'PAID', 'CANCELED'] as const;
const TELEPHONE = /^\+[1-9]\d{6,14}$/;
const TELEPHONE_MESSAGE = 'must start with + and the country code, then digits only (E.164), e.g. +2348012345678';
const TELEPHONE_TEXT = 'Telephone in E.164: `+`, the country code, then digits (FIRS refuses others)';
const TIN_TEXT = 'FIRS tax identification number (TIN), 8 to 20 letters, digits or hyphens';
const MONEY = 'in the document currency';

export class FirsPostalAddress {
  @JSONSchema({ description: 'The street and number: MBS `postal_address.street_name`.', example: '12 Marina' })
  @Text(300, { optional: true }) street_name?: string;
  @JSONSchema({ description: 'The city: MBS `postal_address.city_name`.', example: 'Lagos' })
  @Text(100, { optional: true }) city_name?: string;
  @JSONSchema({ description: 'The postal code: MBS `postal_address.postal_zone`.', example: '101001' })
  @Text(20, { optional: true }) postal_zone?: string;
  @JSONSchema({ description: 'ISO 3166-1 alpha-2 country code, as FIRS\'s `resources/countries`: MBS `postal_address.country`.', example: 'NG' })
  @Country() country!: string;
}

/** `POST /api/auth/taxpayer/login`. */
export class FirsOnboardingBody {
  @JSONSchema({ description: 'The taxpayer\'s registered name: its invoices\' `accounting_supplier_party.party_name` (the TIN when absent).', example: 'Lagos Trading Ltd' })
  @Text(300, { optional: true }) party_name?: string;
  @JSONSchema({ description: `The taxpayer's ${TIN_TEXT}: \`accounting_supplier_party.tin\` and the login's \`tin\`. It identifies the supplier and cannot change.`, example: '64721593-0001' })
  @Text(20) tin!: string;
  @JSONSchema({ description: 'The e-mail of the taxpayer\'s FIRS portal account: the login\'s (`utilities/authenticate`) `email` and `accounting_supplier_party.email`; sealed at rest.', example: 'billing@lagostrading.example' })
  @Text(200) @IsEmail({}, { message: 'must be an e-mail address' }) email!: string;
  /** The supplier's password for the FIRS portal: used to log in, sealed at rest, never returned. */
  @JSONSchema({ description: 'The FIRS portal password: FIRS logs the taxpayer in with it (`utilities/authenticate`) before anything is stored (refused: 400 `FIRS.LOGIN_REFUSED` here); sealed at rest for later logins, never returned or logged.', example: 'portal-password-1' })
  @Text(200) password!: string;
  @JSONSchema({ description: `The taxpayer's ${TELEPHONE_TEXT}: \`accounting_supplier_party.telephone\`.`, example: '+2348012345678' })
  @Text(20, { optional: true }) @Matches(TELEPHONE, { message: TELEPHONE_MESSAGE }) telephone?: string;
  @JSONSchema({ description: 'What the taxpayer does: `accounting_supplier_party.business_description`.', example: 'Wholesale of electronics' })
  @Text(1000) business_description!: string;
  @JSONSchema({ description: 'The taxpayer\'s address: `accounting_supplier_party.postal_address`.', example: { street_name: '12 Marina', city_name: 'Lagos', postal_zone: '101001', country: 'NG' } })
  @Nested(() => FirsPostalAddress) postal_address!: FirsPostalAddress;
}

export class FirsParty {
  @JSONSchema({ description: 'The buyer\'s registered name: MBS `accounting_customer_party.party_name`.', example: 'Abuja Buyer Ltd' })
  @Text(300) party_name!: string;
  @JSONSchema({ description: `The buyer's ${TIN_TEXT}: MBS \`accounting_customer_party.tin\`.`, example: '87654321-0001' })
  @Text(20) tin!: string;
  @JSONSchema({ description: 'The buyer\'s e-mail: MBS `accounting_customer_party.email`.', example: 'ap@abujabuyer.example' })
  @Text(200) @IsEmail({}, { message: 'must be an e-mail address' }) email!: string;
  @JSONSchema({ description: `The buyer's ${TELEPHONE_TEXT}: MBS \`accounting_customer_party.telephone\`.`, example: '+2349098765432' })
  @Text(20, { optional: true }) @Matches(TELEPHONE, { message: TELEPHONE_MESSAGE }) telephone?: string;
  @JSONSchema({ description: 'What the buyer does: MBS `accounting_customer_party.business_description`.', example: 'Office equipment retail' })
  @Text(1000, { optional: true }) business_description?: string;
  @JSONSchema({ description: 'The buyer\'s address: MBS `accounting_customer_party.postal_address`.', example: { street_name: '1 Garki', city_name: 'Abuja', postal_zone: '900001', country: 'NG' } })
  @Nested(() => FirsPostalAddress) postal_address!: FirsPostalAddress;
}

export class FirsItem {
  @JSONSchema({ description: 'The item\'s name: MBS `invoice_line[].item.name`.', example: 'Router' })
  @Text(300) name!: string;
  @JSONSchema({ description: 'Its description: MBS `item.description`.', example: 'Wi-Fi router' })
  @Text(1000, { optional: true }) description?: string;
  @JSONSchema({ description: 'The supplier\'s own code for it: MBS `item.sellers_item_identification`.', example: 'RTR-AX3000' })
  @Text(100, { optional: true }) sellers_item_identification?: string;
}

export class FirsPrice {
  /** The unit price. */
  @JSONSchema({ description: `The unit price before tax, ${MONEY}: MBS \`price.price_amount\`; the line's amount is \`invoiced_quantity\` × this.`, example: 100 })
  @Num() price_amount!: number;
  @JSONSchema({ description: 'The quantity the price is for: MBS `price.base_quantity`.', example: 1 })
  @Num({ optional: true }) base_quantity?: number;
  @JSONSchema({ description: 'The price\'s unit, as FIRS\'s sample writes it: MBS `price.price_unit`.', example: 'NGN per 1' })
  @Text(50, { optional: true }) price_unit?: string;
}

export class FirsLine {
  @JSONSchema({ description: 'The product\'s classification code (HS code; FIRS\'s sample writes `CC-001`): MBS `invoice_line[].hsn_code`.', example: 'CC-001' })
  @Text(50) hsn_code!: string;
  @JSONSchema({ description: 'The product category: MBS `invoice_line[].product_category`.', example: 'Electronics' })
  @Text(200) product_category!: string;
  /** Percent. */
  @JSONSchema({ description: 'The discount in percent (2.5 for 2.5 %), as shown: MBS `discount_rate`; `discount_amount` is what counts.', example: 10 })
  @Num({ optional: true }) discount_rate?: number;
  @JSONSchema({ description: `The discount on the line, ${MONEY}: MBS \`discount_amount\`, subtracted from the line's amount.`, example: 30 })
  @Num({ optional: true }) discount_amount?: number;
  /** Percent. */
  @JSONSchema({ description: 'A fee in percent, as shown: MBS `fee_rate`; `fee_amount` is what counts.', example: 1 })
  @Num({ optional: true }) fee_rate?: number;
  @JSONSchema({ description: `A fee on the line, ${MONEY}: MBS \`fee_amount\`, added to the line's amount.`, example: 3 })
  @Num({ optional: true }) fee_amount?: number;
  @JSONSchema({ description: 'The quantity: MBS `invoiced_quantity`.', example: 3 })
  @Num() invoiced_quantity!: number;
  /** Before tax: quantity × price − discount + fee (checked). */
  @JSONSchema({ description: `The line's amount before tax, ${MONEY}: MBS \`line_extension_amount\`. Must be invoiced_quantity × price_amount − discount_amount + fee_amount, within a cent (else 400 naming the expected value).`, example: 300 })
  @Num() line_extension_amount!: number;
  @JSONSchema({ description: 'What is sold: MBS `invoice_line[].item`.', example: { name: 'Router', description: 'Wi-Fi router' } })
  @Nested(() => FirsItem) item!: FirsItem;
  @JSONSchema({ description: 'Its unit price: MBS `invoice_line[].price`.', example: { price_amount: 100, base_quantity: 1, price_unit: 'NGN per 1' } })
  @Nested(() => FirsPrice) price!: FirsPrice;
}

export class FirsTaxCategory {
  @JSONSchema({ description: 'The tax category from FIRS\'s `resources/tax-categories`: `STANDARD_VAT`, `REDUCED_VAT`, `ZERO_VAT`, `EXEMPTED`, `STANDARD_GST`, `REDUCED_GST`, `ZERO_GST`, `STATE_SALES_TAX`, `LOCAL_SALES_TAX`, `ALCOHOL_EXCISE_TAX`, `EXCISE_TAX`, `CUSTOMS_DUTY`: MBS `tax_category.id`.', example: 'STANDARD_VAT' })
  @Text(50) id!: string;
  @JSONSchema({ description: 'The rate in percent (7.5 for Nigeria\'s VAT): MBS `tax_category.percent`.', example: 7.5 })
  @Num() percent!: number;
}

export class FirsTaxSubtotal {
  @JSONSchema({ description: `The amount taxed in this category, ${MONEY}: MBS \`tax_subtotal[].taxable_amount\`.`, example: 300 })
  @Num() taxable_amount!: number;
  @JSONSchema({ description: 'Its tax: taxable_amount × percent / 100, within a cent: MBS `tax_subtotal[].tax_amount`.', example: 22.5 })
  @Num() tax_amount!: number;
  @JSONSchema({ description: 'The category and rate: MBS `tax_subtotal[].tax_category`.', example: { id: 'STANDARD_VAT', percent: 7.5 } })
  @Nested(() => FirsTaxCategory) tax_category!: FirsTaxCategory;
}

export class FirsTaxTotal {
  @JSONSchema({ description: 'The sum of its subtotals\' tax_amount, within a cent: MBS `tax_total[].tax_amount`.', example: 22.5 })
  @Num() tax_amount!: number;
  @JSONSchema({ description: 'One subtotal per category and rate, at least one: MBS `tax_total[].tax_subtotal`.', example: [{ taxable_amount: 300, tax_amount: 22.5, tax_category: { id: 'STANDARD_VAT', percent: 7.5 } }] })
  @NestedList(() => FirsTaxSubtotal, { min: 1 }) tax_subtotal!: FirsTaxSubtotal[];
}

export class FirsAllowanceCharge {
  /** true: a charge; false: an allowance. */
  @JSONSchema({ description: 'true: a charge (added to the lines\' total); false: an allowance (subtracted): MBS `allowance_charge[].charge_indicator`.', example: false })
  @IsDefined({ message: 'is required' }) @IsBoolean({ message: 'must be true or false' }) charge_indicator!: boolean;
  @JSONSchema({ description: `The amount, ${MONEY}, not negative: MBS \`allowance_charge[].amount\`.`, example: 20 })
  @Num() amount!: number;
}

export class FirsMonetaryTotal {
  @JSONSchema({ description: 'The sum of the lines\' line_extension_amount: MBS `legal_monetary_total.line_extension_amount`.', example: 300 })
  @Num() line_extension_amount!: number;
  @JSONSchema({ description: 'The lines − allowances + charges: MBS `tax_exclusive_amount`.', example: 300 })
  @Num() tax_exclusive_amount!: number;
  @JSONSchema({ description: 'Tax exclusive + the taxes: MBS `tax_inclusive_amount`.', example: 322.5 })
  @Num() tax_inclusive_amount!: number;
  @JSONSchema({ description: 'What the buyer pays, equal to tax inclusive: MBS `payable_amount`.', example: 322.5 })
  @Num() payable_amount!: number;
}

export class FirsPeriod {
  @JSONSchema({ description: 'The first day of delivery, `YYYY-MM-DD`: MBS `invoice_delivery_period.start_date`.', example: '2026-11-01' })
  @DateText() start_date!: string;
  @JSONSchema({ description: 'The last day of delivery, `YYYY-MM-DD`: MBS `invoice_delivery_period.end_date` (the stored invoice\'s `actualDeliveryDate`).', example: '2026-11-30' })
  @DateText() end_date!: string;
}

/** `POST /api/invoice/generate`. */
export class FirsInvoiceBody {
  @JSONSchema({ description: 'The invoice number: MBS `invoice_reference` of `irn/validate`, and the IRN\'s first part without its non-alphanumerics (IRN = `INV1764547200-<service id>-YYYYMMDD`). Unique per supplier (409), free again when FIRS refused the invoice.', example: 'INV-1764547200' })
  @Text(50) document_identifier!: string;
  @JSONSchema({ description: 'The issue date, `YYYY-MM-DD`: MBS `issue_date`, and the IRN\'s last part.', example: '2026-11-25' })
  @DateText() issue_date!: string;
  @JSONSchema({ description: 'When payment is due, `YYYY-MM-DD`, not before issue_date: MBS `due_date`.', example: '2026-12-25' })
  @DateText({ optional: true }) due_date?: string;
  /** `HH-MM-ss` (the seed) or `HH:MM:ss`. */
  @JSONSchema({ description: 'The issue time, `HH-MM-ss` or `HH:MM:ss`: MBS `issue_time`, sent `HH:MM:SS`.', example: '17-59-04' })
  @TimeText() issue_time!: string;
  @JSONSchema({ description: 'The invoice type, a UNTDID 1001 code from FIRS\'s `resources/invoice-types`: 380 Commercial Invoice, 381 Credit Note, 383 Debit Note, 384 Corrected, 385 Consolidated, 386 Prepayment, 389 Self-billed, 390 Delcredere, 393 Factored, 394 Lease, 395 Consignment, 396 Factored Credit Note: MBS `invoice_type_code`.', example: '380' })
  @Text(3) invoice_type_code!: string;
  @JSONSchema({ description: 'Whether it is paid (default `PENDING`): MBS `payment_status`; later changed with `PATCH /api/invoice/{irn}/payment-status`.', example: 'PENDING' })
  @OneOf(PAYMENT_STATUSES, { optional: true }) payment_status?: (typeof PAYMENT_STATUSES)[number];
  @JSONSchema({ description: 'The buyer\'s own reference (its purchase order, its cost centre): MBS `buyer_reference`.', example: 'PO-2026-118' })
  @Text(200, { optional: true }) buyer_reference?: string;
  @JSONSchema({ description: 'A free-text note: MBS `note`.', example: 'Delivered to the Garki warehouse.' })
  @Text(1000, { optional: true }) note?: string;
  @JSONSchema({ description: 'The invoice\'s currency, ISO 4217 (default `NGN`): MBS `document_currency_code`.', example: 'NGN' })
  @CurrencyCode({ optional: true }) document_currency_code?: string;
  @JSONSchema({ description: 'The currency the tax is accounted in, ISO 4217 (default the document currency): MBS `tax_currency_code`.', example: 'NGN' })
  @CurrencyCode({ optional: true }) tax_currency_code?: string;
  @JSONSchema({ description: 'When the goods or services were delivered: MBS `invoice_delivery_period`.', example: { start_date: '2026-11-01', end_date: '2026-11-30' } })
  @Nested(() => FirsPeriod, { optional: true }) invoice_delivery_period?: FirsPeriod;
  @JSONSchema({ description: 'The buyer: MBS `accounting_customer_party` (the supplier, `accounting_supplier_party`, comes from its onboarding).', example: { party_name: 'Abuja Buyer Ltd', tin: '87654321-0001', email: 'ap@abujabuyer.example', postal_address: { street_name: '1 Garki', city_name: 'Abuja', postal_zone: '900001', country: 'NG' } } })
  @Nested(() => FirsParty) accounting_customer_party!: FirsParty;
  @JSONSchema({ description: 'The lines, at least one: MBS `invoice_line` (`lineitems` is accepted as its alias).', example: [{ hsn_code: 'CC-001', product_category: 'Electronics', invoiced_quantity: 3, line_extension_amount: 300, item: { name: 'Router', description: 'Wi-Fi router' }, price: { price_amount: 100, base_quantity: 1, price_unit: 'NGN per 1' } }] })
  @NestedList(() => FirsLine, { min: 1 }) invoice_line!: FirsLine[];
  @JSONSchema({ description: 'The taxes: MBS `tax_total`; their tax_amount is added to the tax-exclusive total.', example: [{ tax_amount: 22.5, tax_subtotal: [{ taxable_amount: 300, tax_amount: 22.5, tax_category: { id: 'STANDARD_VAT', percent: 7.5 } }] }] })
  @NestedList(() => FirsTaxTotal, { optional: true }) tax_total?: FirsTaxTotal[];
  @JSONSchema({ description: 'Document-level allowances and charges: MBS `allowance_charge`.', example: [{ charge_indicator: false, amount: 20 }] })
  @NestedList(() => FirsAllowanceCharge, { optional: true }) allowance_charge?: FirsAllowanceCharge[];
  @JSONSchema({ description: 'The totals: MBS `legal_monetary_total`. When sent they must agree with the lines, allowances, charges and taxes within a cent (400 at the field naming the expected value); when not, they are derived.', example: { line_extension_amount: 300, tax_exclusive_amount: 300, tax_inclusive_amount: 322.5, payable_amount: 322.5 } })
  @Nested(() => FirsMonetaryTotal, { optional: true }) legal_monetary_total?: FirsMonetaryTotal;
}

/** `PATCH /api/invoice/{irn}/payment-status`. */
export class FirsPaymentStatusBody {
  @JSONSchema({ description: 'The new payment status: MBS `payment_status` of `PATCH invoice/update/{irn}`.', example: 'PAID' })
  @OneOf(PAYMENT_STATUSES) payment_status!: (typeof PAYMENT_STATUSES)[number];
  @JSONSchema({ description: 'The payment\'s reference (a bank transfer\'s, a receipt\'s): MBS `reference`; the stored invoice\'s `paymentReference`.', example: 'TRF-20261210-0042' })
  @Text(200, { optional: true }) reference?: string;
}
