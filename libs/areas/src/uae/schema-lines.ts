/**
 * Lines, allowances and charges, tax rows and totals of the UAE document (seed 001 "Lines",
 * "Allowances and charges", "Totals"; key names decided in issue 10).
 */
import { DateText, Nested, NestedList, OneOf } from '../shared/fields';
import { Amount, Decimal, Flag, FreeText, Identifier, RequiredInBlock, taxCategories, type UaeTaxCategory } from './schema-fields';

/**
 * A line allowance or charge (IBG-27/28): no tax category of its own, it reduces or raises the
 * line net amount. `reason` / `reason_code` (UNCL 5189 for allowances, 7161 for charges).
 */
export class UaeLineAllowanceCharge {
  @Flag() charge_indicator!: boolean;
  @Amount() amount!: string;
  @FreeText({ optional: true }) reason?: string;
  @FreeText({ optional: true }) reason_code?: string;
}

/** A document-level allowance or charge (IBG-20/21); the rate key is `tax_percentage`. */
export class UaeAllowanceCharge extends UaeLineAllowanceCharge {
  @OneOf(taxCategories, { optional: true }) tax_category?: UaeTaxCategory;
  @Decimal({ optional: true }) tax_percentage?: string;
}

/** An invoice or credit note line (IBG-25). `tax_category` is mandatory except on type 81 (schema.ts). */
export class UaeLine {
  /** IBT-126; the lines are numbered 1, 2... when it is left out. */
  @Identifier({ optional: true }) line_id?: string;
  @FreeText() item_name!: string;
  @FreeText({ optional: true }) item_description?: string;
  @Decimal() quantity!: string;
  @FreeText() unit_code!: string;
  @Amount() unit_price!: string;
  @Amount({ optional: true }) price_discount?: string;
  @Amount({ optional: true }) gross_price?: string;
  @Decimal({ optional: true }) base_quantity?: string;
  /** The stated line net amount (IBT-131); derived when omitted (fill-missing-only). */
  @Amount({ optional: true }) line_amount?: string;
  @OneOf(taxCategories, { optional: true }) tax_category?: UaeTaxCategory;
  @Decimal({ optional: true }) tax_percentage?: string;
  @FreeText({ optional: true }) tax_exemption_reason_code?: string;
  @FreeText({ optional: true }) tax_exemption_reason?: string;
  @FreeText({ optional: true }) standard_item_id?: string;
  @FreeText({ optional: true }) standard_item_id_scheme?: string;
  /** BTAE-09, the reverse-charge goods or services type. */
  @FreeText({ optional: true }) reverse_charge_item_type?: string;
  /** BTAE-13: G goods, S services, B both. */
  @OneOf(['G', 'S', 'B'], { optional: true }) commodity_code?: 'G' | 'S' | 'B';
  @FreeText({ optional: true }) hs_code?: string;
  @FreeText({ optional: true }) sac_code?: string;
  /** BTAE-10 and BTAE-08; derived when omitted. */
  @Amount({ optional: true }) line_amount_aed?: string;
  @Amount({ optional: true }) tax_line_amount_aed?: string;
  @NestedList(() => UaeLineAllowanceCharge, { optional: true }) allowance_charges?: UaeLineAllowanceCharge[];
}

/** A VAT breakdown row as sent (rendered as sent); `tax_rate`, not `tax_percentage` (dropped silently). */
export class UaeTaxTotalRow {
  @OneOf(taxCategories) tax_category!: UaeTaxCategory;
  @Decimal() tax_rate!: string;
  @Amount() taxable_amount!: string;
  @Amount() tax_amount!: string;
}

/** Document totals, fill-missing-only: a stated value is used, an omitted one derived. */
export class UaeInvoiceTotals {
  @Decimal({ optional: true }) payable_amount?: string;
  @Amount({ optional: true }) line_extension_amount?: string;
  /** The tax-exclusive amount (IBT-109). */
  @Amount({ optional: true }) taxable_amount?: string;
  @Amount({ optional: true }) allowance_total_amount?: string;
  @Amount({ optional: true }) prepaid_amount?: string;
}

/** cac:CardAccount (IBG-18): cbc:PrimaryAccountNumberID and cbc:NetworkID are mandatory in the UBL 2.1 XSD. */
export class UaeCard {
  @RequiredInBlock('card', 'the card number as it may be shown (IBT-087: at most its first 6 and last 4 digits, e.g. XXXXXXXXXXXX1234)')
  primary_account_number!: string;
  @RequiredInBlock('card', 'the card network, e.g. VISA or MasterCard') network_id!: string;
  @FreeText({ optional: true }) holder_name?: string;
}

/** Payment instructions (IBG-16); code 30 needs `payment_account_id` (ibr-192-ae, rule phase). */
export class UaePaymentMeans {
  @OneOf(['1', '10', '20', '21', '30', '49', '54', '55', '68']) type_code!: string;
  @FreeText({ optional: true }) payment_account_id?: string;
  @FreeText({ optional: true }) payment_account_name?: string;
  /** Card codes (54, 55) do not require it (seed). */
  @Nested(() => UaeCard, { optional: true }) card?: UaeCard;
}

/** One instalment of `payment_terms`. */
export class UaeInstalment {
  @FreeText({ optional: true }) note?: string;
  @Amount() amount!: string;
  @DateText() installment_due_date!: string;
}
