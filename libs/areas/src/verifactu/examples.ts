/**
 * Request-body examples of the Spanish routes in the OpenAPI document (#47). The `first` ones are the
 * README's first document (```sh example=es) with a concrete number in place of `F-$(date +%s)`; the
 * issuer is the AEAT's test taxpayer 89890001K, onboarded per account. Only the README's operations
 * (onboard, generate) have a `first`: the e2e test sends those in order.
 */
import type { RequestExamples } from '../shared/examples';

const issuer = { nif: '89890001K', name: 'Empresa de Pruebas SL' };
const recipient = { nif: 'B00000000', name: 'Cliente SA' };

const onboard: RequestExamples = {
  first: { summary: 'The AEAT\'s test taxpayer (sandbox)', value: issuer },
};

const generate: RequestExamples = {
  first: {
    summary: 'A full invoice (F1) at 21 %',
    value: {
      document_identifier: 'F-1764662400',
      issue_date: '2026-11-25',
      invoice_type: 'F1',
      description: 'Consulting, November',
      recipient,
      taxlines: [{ tax_base: 100, tax_rate: 21, repercutida_quota: '21.00' }],
      total_amount: '121.00',
    },
  },
  twoRates: {
    summary: 'A full invoice (F1) at 21 % and 10 %',
    description: 'One tax line (DetalleDesglose) per rate; CuotaTotal is 31.00, ImporteTotal 231.00.',
    value: {
      document_identifier: 'F-2026-0002',
      issue_date: '2026-11-26',
      invoice_type: 'F1',
      description: 'Catering and room hire',
      recipient,
      taxlines: [
        { tax_base: '100.00', tax_rate: '21.00', repercutida_quota: '21.00' },
        { tax_base: '100.00', tax_rate: '10.00', repercutida_quota: '10.00' },
      ],
      total_amount: '231.00',
    },
  },
  simplified: {
    summary: 'A simplified invoice (F2), no recipient, the other tax-line spelling',
    value: {
      document_identifier: 'T-2026-0001',
      issue_date: '2026-11-26',
      invoice_type: 'F2',
      description: 'Counter sale',
      taxlines: [{ taxable_base: 10, tax_rate: 21, charged_tax: 2.1 }],
      total_amount: 12.1,
    },
  },
};

const rectify: RequestExamples = {
  byDifferences: {
    summary: 'A rectifying invoice (R1, by differences) of F-2026-0001',
    value: {
      document_identifier: 'R-2026-0001',
      issue_date: '2026-11-28',
      invoice_type: 'R1',
      ...issuer,
      rectification_type: 'I',
      rectified_invoices: [{ document_identifier: 'F-2026-0001', issue_date: '2026-11-25' }],
      description: 'Discount on the consulting of November',
      recipient,
      taxlines: [{ tax_base: -10, tax_rate: 21, repercutida_quota: '-2.10' }],
      total_amount: '-12.10',
    },
  },
};

const cancel: RequestExamples = {
  invoice: { summary: 'Cancel F-2026-0001 of 25 November', value: { document_identifier: 'F-2026-0001', issue_date: '2026-11-25' } },
};

/** By operation: `onboard`, `generate`, `rectify`, `cancel`. */
export const verifactuExamples = { onboard, generate, rectify, cancel } as const;
