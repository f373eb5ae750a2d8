/**
 * Lines, allowances and charges, tax rows and totals of the UAE document (seed 001 "Lines",
 * "Allowances and charges", "Totals"; key names decided in issue 10).
 */
import { z } from 'zod';
import { amount, date, identifier, numeric, taxCategory } from './schema-fields';

/**
 * A line allowance or charge (IBG-27/28): no tax category of its own, it reduces or raises the
 * line net amount. `reason` / `reason_code` (UNCL 5189 for allowances, 7161 for charges).
 */
export const lineAllowanceCharge = z.object({
  charge_indicator: z.boolean(),
  amount,
  reason: z.string().optional(),
  reason_code: z.string().optional(),
});

/** A document-level allowance or charge (IBG-20/21); the rate key is `tax_percentage`. */
export const allowanceCharge = lineAllowanceCharge.extend({
  tax_category: taxCategory.optional(),
  tax_percentage: numeric.optional(),
});

/** An invoice or credit note line (IBG-25). `tax_category` is checked by hand: optional on type 81 only. */
export const line = z.object({
  /** IBT-126; the lines are numbered 1, 2... when it is left out. */
  line_id: identifier.optional(),
  item_name: z.string(),
  item_description: z.string().optional(),
  quantity: numeric,
  unit_code: z.string(),
  unit_price: amount,
  price_discount: amount.optional(),
  gross_price: amount.optional(),
  base_quantity: numeric.optional(),
  /** The stated line net amount (IBT-131); derived when omitted (fill-missing-only). */
  line_amount: amount.optional(),
  tax_category: taxCategory.optional(),
  tax_percentage: numeric.optional(),
  tax_exemption_reason_code: z.string().optional(),
  tax_exemption_reason: z.string().optional(),
  standard_item_id: z.string().optional(),
  standard_item_id_scheme: z.string().optional(),
  /** BTAE-09, the reverse-charge goods or services type. */
  reverse_charge_item_type: z.string().optional(),
  /** BTAE-13: G goods, S services, B both. */
  commodity_code: z.enum(['G', 'S', 'B']).optional(),
  hs_code: z.string().optional(),
  sac_code: z.string().optional(),
  /** BTAE-10 and BTAE-08; derived when omitted. */
  line_amount_aed: amount.optional(),
  tax_line_amount_aed: amount.optional(),
  allowance_charges: z.array(lineAllowanceCharge).optional(),
});

/** A VAT breakdown row as sent (rendered as sent); `tax_rate`, not `tax_percentage` (dropped silently). */
export const taxTotalRow = z.object({ tax_category: taxCategory, tax_rate: numeric, taxable_amount: amount, tax_amount: amount });

/** Document totals, fill-missing-only: a stated value is used, an omitted one derived. */
export const invoiceTotals = z.object({
  payable_amount: numeric.optional(),
  line_extension_amount: amount.optional(),
  /** The tax-exclusive amount (IBT-109). */
  taxable_amount: amount.optional(),
  allowance_total_amount: amount.optional(),
  prepaid_amount: amount.optional(),
});

/** Payment instructions (IBG-16); code 30 needs `payment_account_id` (ibr-192-ae, rule phase). */
export const paymentMeans = z.object({
  type_code: z.enum(['1', '10', '20', '21', '30', '49', '54', '55', '68']),
  payment_account_id: z.string().optional(),
  payment_account_name: z.string().optional(),
  card: z.object({
    primary_account_number: z.string().optional(),
    network_id: z.string().optional(),
    holder_name: z.string().optional(),
  }).optional(),
});

/** Payment terms: one free text (IBT-020), or instalments each with an amount and a due date. */
export const paymentTerms = z.union([
  z.string(),
  z.array(z.object({ note: z.string().optional(), amount, installment_due_date: date })),
]);
