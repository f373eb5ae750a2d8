/**
 * The Nigerian request bodies' examples in the OpenAPI document (#47). `first` is README.md's first
 * document (```sh example=ng) with concrete values; its TIN is one no test onboards.
 */
import type { RequestExamples } from '../shared/examples';

const lagos = { street_name: '12 Marina', city_name: 'Lagos', postal_zone: '101001', country: 'NG' };
const abujaBuyer = {
  party_name: 'Abuja Buyer Ltd', tin: '87654321-0001', email: 'ap@abujabuyer.example',
  postal_address: { street_name: '1 Garki', city_name: 'Abuja', postal_zone: '900001', country: 'NG' },
};

const onboard: RequestExamples = {
  first: {
    summary: 'A taxpayer logged in with its FIRS portal account (README\'s first document)',
    value: {
      party_name: 'Lagos Trading Ltd', tin: '64721593-0001', email: 'billing@lagostrading.example',
      password: 'portal-password-1', telephone: '+2348012345678', business_description: 'Wholesale of electronics',
      postal_address: lagos,
    },
  },
};

const generate: RequestExamples = {
  first: {
    summary: 'A commercial invoice of one line with VAT (README\'s first document)',
    description: '3 × 100 NGN = 300 NGN, 7.5 % VAT 22.50: 322.50 NGN payable (totals derived).',
    value: {
      document_identifier: 'INV-1764547200', issue_date: '2026-11-25', due_date: '2026-12-25', issue_time: '17-59-04',
      invoice_type_code: '380', document_currency_code: 'NGN', tax_currency_code: 'NGN',
      accounting_customer_party: abujaBuyer,
      invoice_line: [{
        hsn_code: 'CC-001', product_category: 'Electronics', invoiced_quantity: 3, line_extension_amount: 300,
        item: { name: 'Router', description: 'Wi-Fi router' }, price: { price_amount: 100, base_quantity: 1, price_unit: 'NGN per 1' },
      }],
      tax_total: [{ tax_amount: 22.5, tax_subtotal: [{ taxable_amount: 300, tax_amount: 22.5, tax_category: { id: 'STANDARD_VAT', percent: 7.5 } }] }],
    },
  },
  discounted: {
    summary: 'A line discount, a document allowance, the totals sent',
    description: '10 × 50 − 50 discount = 450; − 20 allowance = 430 tax exclusive; 7.5 % VAT 32.25: 462.25 payable.',
    value: {
      document_identifier: 'INV-1764547201', issue_date: '2026-11-26', due_date: '2026-12-26', issue_time: '09:12:00',
      invoice_type_code: '380', payment_status: 'PENDING', buyer_reference: 'PO-2026-118', note: 'Delivered to the Garki warehouse.',
      invoice_delivery_period: { start_date: '2026-11-01', end_date: '2026-11-26' },
      accounting_customer_party: { ...abujaBuyer, telephone: '+2349098765432', business_description: 'Office equipment retail' },
      invoice_line: [{
        hsn_code: 'CC-002', product_category: 'Electronics', discount_rate: 10, discount_amount: 50, invoiced_quantity: 10,
        line_extension_amount: 450, item: { name: 'Network switch', description: '8-port gigabit switch', sellers_item_identification: 'SW-8G' },
        price: { price_amount: 50, base_quantity: 1, price_unit: 'NGN per 1' },
      }],
      allowance_charge: [{ charge_indicator: false, amount: 20 }],
      tax_total: [{ tax_amount: 32.25, tax_subtotal: [{ taxable_amount: 430, tax_amount: 32.25, tax_category: { id: 'STANDARD_VAT', percent: 7.5 } }] }],
      legal_monetary_total: { line_extension_amount: 450, tax_exclusive_amount: 430, tax_inclusive_amount: 462.25, payable_amount: 462.25 },
    },
  },
};

const paymentStatus: RequestExamples = {
  paid: { summary: 'Paid, with the transfer\'s reference', value: { payment_status: 'PAID', reference: 'TRF-20261210-0042' } },
  canceled: { summary: 'Canceled', value: { payment_status: 'CANCELED' } },
};

/** By operation: the onboarding (taxpayer login), the invoice, the payment status. */
export const firsExamples = { onboard, generate, paymentStatus } as const;
