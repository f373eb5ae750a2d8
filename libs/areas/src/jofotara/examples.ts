/**
 * The Jordanian request bodies' examples in the OpenAPI document (#47). `first` is README.md's first
 * document (```sh example=jo) with concrete values; its supplier TIN is one no test onboards.
 */
import type { RequestExamples } from '../shared/examples';

const onboard: RequestExamples = {
  first: {
    summary: 'A general-sales device (README\'s first document)',
    description: 'The client id and secret from the portal\'s "Link a device" screen, checked with JoFotara before anything is stored.',
    value: {
      supplier_name: 'Amman Stationery Co', supplier_tin: '20817364', default_income_source: '4419618',
      client_id: 'device-1764547200', client_secret: 'secret-of-the-device', city_code: 'JO-AM',
    },
  },
  income: {
    summary: 'An income-class device, with its address',
    description: 'Its invoices carry no tax (ZeroTax or Exempted lines).',
    value: {
      supplier_name: 'Petra Consulting LLC', supplier_tin: '31572946', default_income_source: '5520731',
      client_id: 'income-device-7', client_secret: 'secret-of-the-income-device', city_code: 'JO-AM', postal_code: '11118',
      phone: '+96265001234', invoice_class: 'income',
    },
  },
};

const generate: RequestExamples = {
  first: {
    summary: 'A cash invoice of one Standard line (README\'s first document)',
    description: '4 × 2.500 JOD at 16 %: 10.000 + 1.600 tax = 11.600 JOD.',
    value: {
      invoice_ref_number: 'INV-1764547200', issue_date: '2026-11-25', issue_time: '10-30-00',
      buyer_details: { buyer_name: 'Irbid Buyer', buyer_tin: '87654321', city_code: 'JO-IR' },
      lineitems: [{ description: 'Pen', quantity: 4, tax_exclusive_price: 2.5, tax_percentage: 0.16, tax_category: 'Standard' }],
    },
  },
  receivable: {
    summary: 'A receivable invoice with a discount and an exempted line',
    description: 'Receivable: the buyer is named. Line 1: 10 × 3.000 − 2.000 = 28.000 at 16 %; line 2: exempted books.',
    value: {
      invoice_ref_number: 'INV-1764547201', issue_date: '2026-11-25', issue_time: '11:05:00', payment_method: 'receivable',
      buyer_details: { buyer_name: 'Zarqa Schools Co', buyer_tin: '45127890', city_code: 'JO-AZ', phone: '+96253901234' },
      lineitems: [
        { description: 'Notebook A4', quantity: 10, tax_exclusive_price: 3, tax_percentage: 0.16, tax_category: 'Standard', discounts: [{ amount: 2, reason: 'Bulk order' }] },
        { description: 'Arabic grammar textbook', quantity: 5, tax_exclusive_price: 7.25, tax_percentage: 0, tax_category: 'Exempted' },
      ],
      note: 'Payable within 30 days.',
    },
  },
};

const creditNote: RequestExamples = {
  return: {
    summary: 'One pen of the first invoice comes back',
    description: 'At the original line\'s price and rate: 2.500 + 0.400 tax.',
    value: {
      credit_note_ref_number: 'CN-1764547200', original_uuid: '019ad0c4-5e21-7c3a-9b8e-2f41d6a0c7e5', reason: 'One pen returned damaged.',
      issue_date: '2026-11-26', issue_time: '09-15-00', returned_lines: [{ line: 1, quantity: 1 }],
    },
  },
};

/** By operation: the onboarding, the invoice, the credit note. */
export const jofotaraExamples = { onboard, generate, creditNote } as const;
