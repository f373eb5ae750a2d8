/**
 * An AFIP voucher as people read it (#49): the WSFEv1 fields (a voucher has no item lines there: its amounts
 * and IVA breakdown are what AFIP authorises), the issuer as onboarded, and once AFIP authorised it, the
 * voucher QR of RG 4892 (`qr.ts`, the link `create-voucher` answers) with "CAE N°" and "Fecha de Vto. de CAE";
 * until then "not yet authorised" in its place. Labels in English and Spanish.
 */
import type { PrintableCapability, PrintableDocument, PrintableMark, PrintableTaxRow, StoredDocument } from '../registry/printable';
import { type LabelKey, label } from '../printable/labels';
import { pendingMark } from '../printable/marks';
import { amountText, partyOfProfile } from '../printable/parties';
import { authorisedQrLink } from './qr';
import type { AfipReceipt } from './wsfe';

const LANGUAGES = ['en', 'es'] as const;

/** CbteTipo (catalog `voucher-types`): its kind and letter. */
const VOUCHER_TYPES: Readonly<Record<number, readonly [LabelKey, string]>> = {
  1: ['invoice', 'A'], 2: ['debitNote', 'A'], 3: ['creditNote', 'A'], 6: ['invoice', 'B'], 7: ['debitNote', 'B'], 8: ['creditNote', 'B'],
  11: ['invoice', 'C'], 12: ['debitNote', 'C'], 13: ['creditNote', 'C'], 51: ['invoice', 'M'], 52: ['debitNote', 'M'], 53: ['creditNote', 'M'],
};

/** IVA rate ids (catalog `vat-rates`) in percent. */
const IVA_RATES: Readonly<Record<number, string>> = { 3: '0', 4: '10.5', 5: '21', 6: '27', 8: '5', 9: '2.5' };

/** DocTipo (catalog `document-types`) names. */
const DOCUMENT_TYPES: Readonly<Record<number, string>> = { 80: 'CUIT', 86: 'CUIL', 87: 'CDI', 89: 'LE', 90: 'LC', 94: 'Pasaporte', 96: 'DNI', 99: 'Doc. (otro)' };

/** AFIP's yyyymmdd as yyyy-mm-dd; dd/mm/yyyy for the CAE's due date as Argentine vouchers print it. */
const isoDate = (d: string | undefined) => (d && /^\d{8}$/.test(d) ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}` : d);
const localDate = (d: string) => (/^\d{8}$/.test(d) ? `${d.slice(6, 8)}/${d.slice(4, 6)}/${d.slice(0, 4)}` : d);

interface Voucher {
  Cuit: number; PtoVta: number; CbteTipo: number; Concepto: number; DocTipo: number; DocNro: number; CbteFch?: string; CbteDesde?: number;
  ImpTotal: number; ImpTotConc: number; ImpNeto: number; ImpOpEx: number; ImpIVA: number; ImpTrib: number; MonId: string; MonCotiz: number;
  FchServDesde?: string; FchServHasta?: string; FchVtoPago?: string;
  Iva?: Array<{ Id: number; BaseImp: number; Importe: number }>;
  CbtesAsoc?: Array<{ Tipo: number; PtoVta: number; Nro: number; CbteFch?: string }>;
}

/** The voucher's authorisation, when AFIP gave it. */
function authorised(document: StoredDocument): AfipReceipt | undefined {
  const receipt = document.receipt as AfipReceipt | null;
  return document.reportState === 'reported' && receipt?.Resultado === 'A' ? receipt : undefined;
}

function markOf(document: StoredDocument, f: Voucher): PrintableMark {
  const receipt = authorised(document);
  if (!receipt) return pendingMark(LANGUAGES, document.reportState);
  return {
    kind: 'qr',
    payload: authorisedQrLink(f, receipt),
    legend: [`CAE N°: ${receipt.CAE}`, `Fecha de Vto. de CAE: ${localDate(receipt.CAEFchVto)}`],
    sizeMm: 30,
  };
}

const pad = (n: number | undefined, width: number) => (n === undefined ? '—'.padStart(width, ' ') : String(n).padStart(width, '0'));

export const afipPrintable: PrintableCapability = {
  build(document): PrintableDocument {
    const f = document.fields as unknown as Voucher;
    const receipt = authorised(document);
    const [kind, letter] = VOUCHER_TYPES[f.CbteTipo] ?? ['invoice', ''];
    const taxes: PrintableTaxRow[] = (f.Iva ?? []).map((iva) => ({ category: 'IVA', rate: IVA_RATES[iva.Id], taxable: amountText(iva.BaseImp), tax: amountText(iva.Importe) }));
    const extra = ([['No gravado / Not taxed', f.ImpTotConc], ['Exento / Exempt', f.ImpOpEx], ['Tributos / Other taxes', f.ImpTrib]] as const).filter(([, v]) => v);
    return {
      title: `${label(kind, LANGUAGES)} ${letter}`.trim(),
      // Punto de venta and number, as AFIP's vouchers print them (00001-00000042); AFIP's number once it gave it.
      number: `${pad(f.PtoVta, 5)}-${pad(receipt?.CbteDesde ?? f.CbteDesde, 8)}`,
      typeCode: `Cód. ${pad(f.CbteTipo, 3)}`,
      issueDate: isoDate(receipt?.CbteFch ?? f.CbteFch),
      dueDate: isoDate(f.FchVtoPago),
      dates: f.FchServDesde ? [{ label: 'Período / Service period', value: `${isoDate(f.FchServDesde)} – ${isoDate(f.FchServHasta)}` }] : [],
      issuer: partyOfProfile(document.supplier, { 'AR:CUIT': 'CUIT' }),
      buyer: { name: f.DocTipo === 99 ? 'Consumidor final' : '', identifiers: [{ label: DOCUMENT_TYPES[f.DocTipo] ?? `Doc. ${f.DocTipo}`, value: String(f.DocNro) }], address: [] },
      lines: [],
      taxes,
      totals: { currency: f.MonId, net: amountText(f.ImpNeto), tax: amountText(f.ImpIVA), payable: amountText(f.ImpTotal) },
      payment: [],
      notes: [...extra.map(([name, value]) => `${name}: ${amountText(value)} ${f.MonId}`), ...(f.MonCotiz && f.MonCotiz !== 1 ? [`Cotización / Exchange rate: ${f.MonCotiz}`] : [])],
      references: (f.CbtesAsoc ?? []).map((a) => ({ label: 'Comprobante asociado / Corrects', value: `${pad(a.Tipo, 3)} ${pad(a.PtoVta, 5)}-${pad(a.Nro, 8)}` })),
      languages: LANGUAGES,
      mark: markOf(document, f),
    };
  },
};
