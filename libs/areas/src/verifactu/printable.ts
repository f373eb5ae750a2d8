/**
 * A VERI*FACTU invoice as people read it (#49): the record's fields, the issuer as onboarded, and the
 * AEAT's mark as its specification sets it (shared/conformance/verifactu/DetalleEspecificacTecnCodigoQRfactura.txt,
 * Orden HAC/1177/2024 arts. 20-21): the ValidarQR link the record already answers (`qr_link`, qr.ts), ISO/IEC
 * 18004 level M, 40x40 mm (QR_SIZE_MM), first on the first page, centred near the top margin, «QR tributario:»
 * above it and «Factura verificable en la sede electrónica de la AEAT» below it. A VERI*FACTU invoice carries
 * its QR from issuance (the system sends the record itself): only a record the AEAT refused prints, in its
 * place, that it is not accepted.
 */
import type { PrintableCapability, PrintableDocument, PrintableLine, PrintableMark, StoredDocument } from '../registry/printable';
import { type LabelKey, label } from '../printable/labels';
import { pendingMark } from '../printable/marks';
import { amountText, partyOfProfile } from '../printable/parties';
import { QR_SIZE_MM } from './qr';

const LANGUAGES = ['en', 'es'] as const;

/** The legend of a system that issues verifiable invoices (section 3), in its long form. */
export const VERIFACTU_LEGEND = 'Factura verificable en la sede electrónica de la AEAT';

/** TipoFactura as the printed title. */
const TITLES: Readonly<Record<string, LabelKey>> = { F1: 'invoice', F2: 'simplifiedInvoice', R1: 'creditNote', anulacion: 'cancellationRecord' };

interface TaxLine {
  tax_base?: number | string;
  taxable_base?: number | string;
  tax_rate?: number | string;
  repercutida_quota?: number | string;
  charged_tax?: number | string;
  qualification?: string;
  exemption?: string;
}

function markOf(document: StoredDocument): PrintableMark | undefined {
  const link = document.fields.qr_link;
  if (document.reportState === 'rejected' || document.reportState === 'invalid') return pendingMark(LANGUAGES, document.reportState);
  if (typeof link !== 'string') return undefined;
  return { kind: 'qr', payload: link, caption: ['QR tributario:'], legend: [VERIFACTU_LEGEND], sizeMm: QR_SIZE_MM, placement: 'top' };
}

export function verifactuPrintable(): PrintableCapability {
  return {
    build(document): PrintableDocument {
      const f = document.fields as Record<string, unknown> & { taxlines?: TaxLine[]; recipient?: { nif: string; name: string }; rectified_invoices?: Array<{ document_identifier: string; issue_date: string }> };
      const taxlines = f.taxlines ?? [];
      const currency = 'EUR';
      // The record has no invoice lines: DescripcionOperacion and the Desglose are what it states.
      const lines: PrintableLine[] = taxlines.map((t) => ({
        description: String(f.description ?? ''),
        quantity: '1',
        unitPrice: amountText(t.tax_base ?? t.taxable_base),
        taxCategory: t.exemption ?? t.qualification ?? 'S1',
        taxRate: t.exemption ? undefined : amountText(t.tax_rate).replace(/\.00$/, ''),
        amount: amountText(t.tax_base ?? t.taxable_base),
      }));
      return {
        title: label(TITLES[document.type] ?? 'invoice', LANGUAGES),
        number: String(f.document_identifier ?? document.number),
        typeCode: document.type,
        issueDate: typeof f.issue_date === 'string' ? f.issue_date : undefined,
        issuer: partyOfProfile(document.supplier, { 'ES:NIF': 'NIF' }),
        buyer: f.recipient ? { name: f.recipient.name, identifiers: [{ label: 'NIF', value: f.recipient.nif }], address: [] } : undefined,
        lines: document.type === 'anulacion' ? [] : lines,
        taxes: taxlines.map((t) => ({
          category: t.exemption ?? t.qualification ?? 'S1',
          rate: t.exemption ? undefined : amountText(t.tax_rate).replace(/\.00$/, ''),
          taxable: amountText(t.tax_base ?? t.taxable_base),
          tax: amountText(t.repercutida_quota ?? t.charged_tax ?? 0),
        })),
        totals: { currency, tax: f.tax_total !== undefined ? amountText(f.tax_total) : undefined, payable: amountText(f.total_amount) },
        payment: [],
        notes: typeof f.description === 'string' ? [f.description] : [],
        references: [
          ...(f.rectified_invoices ?? []).map((r) => ({ label: 'Rectifica / Corrects invoice', value: `${r.document_identifier} (${r.issue_date})` })),
          ...(typeof f.hash === 'string' ? [{ label: 'Huella', value: f.hash }] : []),
          ...(document.receipt?.csv ? [{ label: 'CSV AEAT', value: String(document.receipt.csv) }] : []),
        ],
        languages: LANGUAGES,
        mark: markOf(document),
      };
    },
  };
}
