/** Test views (#49): UBL documents of the Peppol examples, and a view with a QR mark. */
import { validateBody } from '../../shared/validate';
import { suppliers } from '../../peppol-ubl/fixtures/bodies';
import { peppolExamples } from '../../peppol-ubl/examples';
import { type PeppolAreaCode, profiles } from '../../peppol-ubl/profiles';
import { renderDocument } from '../../peppol-ubl/render';
import { InvoiceBody, type InvoiceDto } from '../../peppol-ubl/schema';
import type { PrintableDocument, PrintableLine } from '../../registry/printable';

/** The UBL an example body renders to, as the Peppol area renders it. */
export function exampleUbl(area: PeppolAreaCode, example: string, overrides: Record<string, unknown> = {}): string {
  const body = { ...(peppolExamples[area].invoice as Record<string, { value: Record<string, unknown> }>)[example].value, ...overrides };
  // The defaults the Peppol area's codec applies (peppol/codec.ts `parseInvoice`), which a shared module may not import.
  const dto = validateBody(InvoiceBody, body);
  dto.DocumentCurrencyCode ??= profiles[area].defaultCurrency;
  dto.BuyerReference ??= dto.ID;
  for (const line of dto.InvoiceLines) line.InvoicedQuantity ??= 1;
  return renderDocument(profiles[area], dto as InvoiceDto, suppliers[area], '6f1e1a3c-1d2b-4c5e-8f90-123456789abc');
}

/** A view with a QR mark, `lines` lines long. */
export function viewWithQr(payload: string, lines = 2, placement: 'top' | 'side' = 'top'): PrintableDocument {
  const line = (i: number): PrintableLine => ({ description: `Servicio ${i} — señalización`, quantity: '1', unit: 'C62', unitPrice: '10.00', taxCategory: 'S1', taxRate: '21', amount: '10.00' });
  return {
    title: 'Invoice / Factura',
    number: 'F-2026-0001',
    issueDate: '2026-11-25',
    issuer: { name: 'Empresa de Pruebas SL', identifiers: [{ label: 'NIF', value: '89890001K' }], address: ['Calle Mayor 1', '28013 Madrid', 'ES'] },
    buyer: { name: 'Cliente <SA> & Cía', identifiers: [{ label: 'NIF', value: 'B00000000' }], address: [] },
    lines: Array.from({ length: lines }, (_, i) => line(i + 1)),
    taxes: [{ category: 'S1', rate: '21', taxable: `${lines * 10}.00`, tax: `${(lines * 2.1).toFixed(2)}` }],
    totals: { currency: 'EUR', tax: (lines * 2.1).toFixed(2), payable: (lines * 12.1).toFixed(2) },
    payment: [],
    notes: [],
    references: [],
    languages: ['en', 'es'],
    mark: { kind: 'qr', payload, caption: ['QR tributario:'], legend: ['Factura verificable en la sede electrónica de la AEAT'], sizeMm: 40, placement },
  };
}
