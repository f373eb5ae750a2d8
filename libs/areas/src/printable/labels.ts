/**
 * The labels of a printed document, in every language an area prints (#49): English first, then the
 * regime's (Spanish for Spain and Argentina, Polish for Poland, Arabic for Jordan and the UAE). A label
 * in several languages reads `Invoice / Factura`; one missing in a language falls back to English.
 */
import type { PrintableLanguage } from '../registry/printable';

const LABELS = {
  invoice: { en: 'Invoice', es: 'Factura', pl: 'Faktura', ar: 'فاتورة', de: 'Rechnung' },
  taxInvoice: { en: 'Tax invoice', es: 'Factura', pl: 'Faktura VAT', ar: 'فاتورة ضريبية', de: 'Rechnung' },
  creditNote: { en: 'Credit note', es: 'Factura rectificativa', pl: 'Faktura korygująca', ar: 'إشعار دائن', de: 'Gutschrift' },
  simplifiedInvoice: { en: 'Simplified invoice', es: 'Factura simplificada', pl: 'Faktura uproszczona', ar: 'فاتورة مبسطة', de: 'Vereinfachte Rechnung' },
  cancellationRecord: { en: 'Cancellation record', es: 'Registro de anulación', pl: 'Anulowanie', ar: 'سجل إلغاء', de: 'Stornierung' },
  debitNote: { en: 'Debit note', es: 'Nota de débito', pl: 'Nota obciążeniowa', ar: 'إشعار مدين', de: 'Belastungsanzeige' },
  number: { en: 'Number', es: 'Número', pl: 'Numer', ar: 'الرقم', de: 'Nummer' },
  issueDate: { en: 'Issue date', es: 'Fecha de emisión', pl: 'Data wystawienia', ar: 'تاريخ الإصدار', de: 'Rechnungsdatum' },
  dueDate: { en: 'Due date', es: 'Fecha de vencimiento', pl: 'Termin płatności', ar: 'تاريخ الاستحقاق', de: 'Fälligkeitsdatum' },
  issuer: { en: 'Seller', es: 'Emisor', pl: 'Sprzedawca', ar: 'البائع', de: 'Verkäufer' },
  buyer: { en: 'Buyer', es: 'Destinatario', pl: 'Nabywca', ar: 'المشتري', de: 'Käufer' },
  description: { en: 'Description', es: 'Descripción', pl: 'Opis', ar: 'الوصف', de: 'Beschreibung' },
  quantity: { en: 'Quantity', es: 'Cantidad', pl: 'Ilość', ar: 'الكمية', de: 'Menge' },
  unitPrice: { en: 'Unit price', es: 'Precio unitario', pl: 'Cena jedn.', ar: 'سعر الوحدة', de: 'Einzelpreis' },
  discounts: { en: 'Discounts', es: 'Descuentos', pl: 'Rabaty', ar: 'الخصومات', de: 'Rabatte' },
  tax: { en: 'Tax', es: 'Impuesto', pl: 'Podatek', ar: 'الضريبة', de: 'Steuer' },
  rate: { en: 'Rate', es: 'Tipo', pl: 'Stawka', ar: 'النسبة', de: 'Satz' },
  amount: { en: 'Amount', es: 'Importe', pl: 'Wartość', ar: 'المبلغ', de: 'Betrag' },
  taxBreakdown: { en: 'Tax breakdown', es: 'Desglose de impuestos', pl: 'Podsumowanie VAT', ar: 'تفاصيل الضريبة', de: 'Steueraufschlüsselung' },
  category: { en: 'Category', es: 'Categoría', pl: 'Kategoria', ar: 'الفئة', de: 'Kategorie' },
  taxable: { en: 'Taxable amount', es: 'Base imponible', pl: 'Wartość netto', ar: 'المبلغ الخاضع للضريبة', de: 'Bemessungsgrundlage' },
  net: { en: 'Net amount', es: 'Importe neto', pl: 'Wartość netto', ar: 'صافي المبلغ', de: 'Nettobetrag' },
  allowances: { en: 'Allowances', es: 'Descuentos', pl: 'Rabaty', ar: 'الخصومات', de: 'Nachlässe' },
  charges: { en: 'Charges', es: 'Cargos', pl: 'Obciążenia', ar: 'الرسوم', de: 'Zuschläge' },
  taxExclusive: { en: 'Total without tax', es: 'Total sin impuestos', pl: 'Razem netto', ar: 'الإجمالي بدون ضريبة', de: 'Summe netto' },
  taxTotal: { en: 'Tax total', es: 'Total impuestos', pl: 'Razem VAT', ar: 'إجمالي الضريبة', de: 'Steuerbetrag' },
  taxInclusive: { en: 'Total with tax', es: 'Total con impuestos', pl: 'Razem brutto', ar: 'الإجمالي شامل الضريبة', de: 'Summe brutto' },
  prepaid: { en: 'Prepaid', es: 'Anticipos', pl: 'Zapłacono', ar: 'المدفوع مسبقاً', de: 'Vorausbezahlt' },
  rounding: { en: 'Rounding', es: 'Redondeo', pl: 'Zaokrąglenie', ar: 'التقريب', de: 'Rundung' },
  payable: { en: 'Amount due', es: 'Total a pagar', pl: 'Do zapłaty', ar: 'المبلغ المستحق', de: 'Zahlbetrag' },
  exchangeRate: { en: 'Exchange rate', es: 'Tipo de cambio', pl: 'Kurs waluty', ar: 'سعر الصرف', de: 'Wechselkurs' },
  totalsIn: { en: 'Totals in', es: 'Totales en', pl: 'Kwoty w', ar: 'الإجماليات بعملة', de: 'Summen in' },
  payment: { en: 'Payment', es: 'Forma de pago', pl: 'Płatność', ar: 'الدفع', de: 'Zahlung' },
  notes: { en: 'Notes', es: 'Observaciones', pl: 'Uwagi', ar: 'ملاحظات', de: 'Bemerkungen' },
  references: { en: 'References', es: 'Referencias', pl: 'Odwołania', ar: 'المراجع', de: 'Bezüge' },
  notAuthorised: {
    en: 'Not yet authorised by the tax authority',
    es: 'Pendiente de autorización por la administración tributaria',
    pl: 'Jeszcze nie przyjęta przez administrację podatkową',
    ar: 'لم تعتمد بعد من الجهة الضريبية',
    de: 'Von der Steuerbehörde noch nicht angenommen',
  },
} as const satisfies Record<string, Partial<Record<PrintableLanguage, string>> & { readonly en: string }>;

/** A label's key. */
export type LabelKey = keyof typeof LABELS;

/** The label in each of `languages` (duplicates once), joined by ` / `. */
export function label(key: LabelKey, languages: readonly PrintableLanguage[]): string {
  const texts: string[] = [];
  const entry: Partial<Record<PrintableLanguage, string>> = LABELS[key];
  for (const language of languages) {
    const text = entry[language] ?? LABELS[key].en;
    if (!texts.includes(text)) texts.push(text);
  }
  return texts.length ? texts.join(' / ') : LABELS[key].en;
}

/** The label in each language, apart: the HTML prints each in its own `lang` (Arabic right to left). */
export function labelsOf(key: LabelKey, languages: readonly PrintableLanguage[]): Array<{ language: PrintableLanguage; text: string }> {
  const out: Array<{ language: PrintableLanguage; text: string }> = [];
  const entry: Partial<Record<PrintableLanguage, string>> = LABELS[key];
  for (const language of languages) {
    const text = entry[language] ?? LABELS[key].en;
    if (!out.some((o) => o.text === text)) out.push({ language: entry[language] ? language : 'en', text });
  }
  return out;
}
