/**
 * The HTML view of a printable document (#49): one self-contained page (inline CSS, the QR as inline
 * SVG, no script, no external resource), every text escaped, printable on A4 (`@page`). Pure and
 * synchronous: one string built from parts, no template engine.
 */
import type { PrintableDocument, PrintableLanguage, PrintableMark, PrintableParty, PrintableTotals } from '../registry/printable';
import { type LabelKey, labelsOf } from './labels';
import { qrModules, qrRuns } from './qr';

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an HTML text node or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const STYLE = `
@page { size: A4; margin: 14mm; }
* { box-sizing: border-box; }
body { font-family: 'DejaVu Sans', 'Noto Sans', Arial, sans-serif; font-size: 10pt; color: #111; margin: 0 auto; max-width: 190mm; padding: 8mm 0; }
h1 { font-size: 16pt; margin: 0 0 2mm; }
h2 { font-size: 10pt; margin: 5mm 0 1mm; text-transform: uppercase; letter-spacing: .03em; color: #444; }
.head { display: flex; justify-content: space-between; gap: 8mm; }
.meta { margin: 0; }
.meta div { display: flex; gap: 3mm; }
.meta dt { color: #555; min-width: 32mm; }
.meta dd { margin: 0; font-weight: bold; }
.parties { display: flex; gap: 8mm; margin-top: 4mm; }
.party { flex: 1; border: 1px solid #ccc; padding: 3mm; }
.party .name { font-weight: bold; }
table { width: 100%; border-collapse: collapse; margin-top: 1mm; }
th, td { border-bottom: 1px solid #ddd; padding: 1.5mm 1mm; vertical-align: top; text-align: left; }
th { font-size: 8pt; color: #444; }
td.n, th.n { text-align: right; white-space: nowrap; }
.totals { margin-left: auto; width: 90mm; }
.totals .payable td { font-weight: bold; font-size: 11pt; border-top: 2px solid #111; }
.mark { display: flex; gap: 4mm; align-items: center; margin-top: 5mm; border: 1px solid #111; padding: 3mm; }
.mark svg { flex: none; }
.mark.qr { flex-direction: column; gap: 1mm; text-align: center; border: none; font-size: 10pt; }
.mark.qr.top { margin: 0 auto 5mm; width: max-content; padding: 6mm; }
.pending { font-weight: bold; }
[lang=ar] { direction: rtl; unicode-bidi: isolate; }
tr, .party, .mark { break-inside: avoid; }
`;

const e = escapeHtml;

/** A label in each language, each in its own `lang` (Arabic right to left). */
function labelHtml(key: LabelKey, languages: readonly PrintableLanguage[]): string {
  return labelsOf(key, languages)
    .map((l) => (l.language === 'en' ? e(l.text) : `<span lang="${l.language}">${e(l.text)}</span>`))
    .join(' / ');
}

/** The page. */
export function renderHtml(doc: PrintableDocument): string {
  const L = (key: LabelKey) => labelHtml(key, doc.languages);
  const parts: string[] = [
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(doc.title)} ${e(doc.number)}</title>`,
    `<style>${STYLE}</style></head><body>`,
    doc.mark?.kind === 'qr' && doc.mark.placement === 'top' ? markHtml(doc.mark, 'top') : '',
    '<div class="head"><div>',
    `<h1>${e(doc.title)}${doc.typeCode ? ` <small>(${e(doc.typeCode)})</small>` : ''}</h1><dl class="meta">`,
    meta(L('number'), doc.number),
    doc.issueDate ? meta(L('issueDate'), doc.issueDate) : '',
    doc.dueDate ? meta(L('dueDate'), doc.dueDate) : '',
    ...(doc.dates ?? []).map((d) => meta(e(d.label), d.value)),
    '</dl></div>',
    doc.mark && !(doc.mark.kind === 'qr' && doc.mark.placement === 'top') ? markHtml(doc.mark, 'side') : '',
    '</div><div class="parties">',
    partyHtml(L('issuer'), doc.issuer),
    doc.buyer ? partyHtml(L('buyer'), doc.buyer) : '',
    '</div>',
    linesHtml(doc, L),
    taxesHtml(doc, L),
    totalsHtml(doc.totals, doc.otherTotals, L),
    list(L('payment'), doc.payment),
    list(L('notes'), doc.notes),
    list(L('references'), doc.references.map((r) => `${r.label}: ${r.value}`)),
    '</body></html>\n',
  ];
  return parts.join('');
}

const meta = (labelText: string, value: string) => `<div><dt>${labelText}</dt><dd>${e(value)}</dd></div>`;

function partyHtml(title: string, party: PrintableParty): string {
  return (
    `<section class="party"><h2>${title}</h2><div class="name" dir="auto">${e(party.name)}</div>` +
    party.address.map((line) => `<div dir="auto">${e(line)}</div>`).join('') +
    party.identifiers.map((id) => `<div>${e(id.label)}: ${e(id.value)}</div>`).join('') +
    '</section>'
  );
}

function linesHtml(doc: PrintableDocument, L: (key: LabelKey) => string): string {
  // Some regimes' documents have no item lines (AFIP's vouchers, VeriFactu's records): their breakdown says it all.
  if (!doc.lines.length) return '';
  const hasDiscounts = doc.lines.some((line) => line.discounts?.length);
  const rows = doc.lines.map(
    (line) =>
      `<tr><td dir="auto">${e(line.description)}</td><td class="n">${e(line.quantity)}${line.unit ? ` ${e(line.unit)}` : ''}</td>` +
      `<td class="n">${e(line.unitPrice)}</td>${hasDiscounts ? `<td class="n">${e((line.discounts ?? []).join(', '))}</td>` : ''}` +
      `<td>${e(line.taxCategory ?? '')}${line.taxRate !== undefined ? ` ${e(line.taxRate)} %` : ''}</td><td class="n">${e(line.amount)}</td></tr>`,
  );
  return (
    `<table class="lines"><thead><tr><th>${L('description')}</th><th class="n">${L('quantity')}</th><th class="n">${L('unitPrice')}</th>` +
    `${hasDiscounts ? `<th class="n">${L('discounts')}</th>` : ''}<th>${L('tax')}</th><th class="n">${L('amount')} (${e(doc.totals.currency)})</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table>`
  );
}

function taxesHtml(doc: PrintableDocument, L: (key: LabelKey) => string): string {
  if (!doc.taxes.length) return '';
  const other = otherTaxCurrency(doc);
  const rows = doc.taxes.map(
    (t) =>
      `<tr><td>${e(t.category)}</td><td class="n">${t.rate !== undefined ? `${e(t.rate)} %` : ''}</td><td class="n">${e(t.taxable)}</td><td class="n">${e(t.tax)}</td>` +
      `${other ? `<td class="n">${e(t.otherTax ?? '')}</td>` : ''}</tr>`,
  );
  return (
    `<h2>${L('taxBreakdown')}</h2><table class="taxes"><thead><tr><th>${L('category')}</th><th class="n">${L('rate')}</th>` +
    `<th class="n">${L('taxable')}</th><th class="n">${L('tax')}</th>${other ? `<th class="n">${L('tax')} (${e(other)})</th>` : ''}</tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

/** The currency of the breakdown's extra column (Poland's VAT per rate in PLN), where a row states its tax in it. */
export function otherTaxCurrency(doc: PrintableDocument): string | undefined {
  return doc.otherTotals && doc.taxes.some((t) => t.otherTax !== undefined) ? doc.otherTotals.currency : undefined;
}

/** The totals rows present, in EN 16931's order (BG-22), the payable last. */
export function totalRows(totals: PrintableTotals): Array<readonly [LabelKey, string]> {
  const rows: Array<readonly [LabelKey, string | undefined]> = [
    ['net', totals.net],
    ['allowances', totals.allowances],
    ['charges', totals.charges],
    ['taxExclusive', totals.taxExclusive],
    ['taxTotal', totals.tax],
    ['taxInclusive', totals.taxInclusive],
    ['prepaid', totals.prepaid],
    ['rounding', totals.rounding],
  ];
  return rows.filter((row): row is readonly [LabelKey, string] => row[1] !== undefined && row[1] !== '');
}

/**
 * The totals in the other currency the regime asks for, after the document's own: each amount under its label and
 * that currency, then the rate as `1 USD = 3.6725 AED` (values as plain text: each renderer escapes its own).
 */
export function otherTotalRows(other: PrintableDocument['otherTotals'], currency: string): Array<{ key: LabelKey; currency?: string; value: string }> {
  if (!other) return [];
  const amounts: Array<readonly [LabelKey, string | undefined]> = [['taxTotal', other.tax], ['taxInclusive', other.taxInclusive], ['payable', other.payable]];
  const rows = amounts
    .filter((row): row is readonly [LabelKey, string] => Boolean(row[1]))
    .map(([key, value]) => ({ key, currency: other.currency, value: `${value} ${other.currency}` }));
  return other.rate ? [...rows, { key: 'exchangeRate', value: `1 ${currency} = ${other.rate} ${other.currency}` }] : rows;
}

function totalsHtml(totals: PrintableTotals, other: PrintableDocument['otherTotals'], L: (key: LabelKey) => string): string {
  const rows = totalRows(totals).map(([key, value]) => `<tr><td>${L(key)}</td><td class="n">${e(value)} ${e(totals.currency)}</td></tr>`);
  rows.push(`<tr class="payable"><td>${L('payable')}</td><td class="n">${e(totals.payable)} ${e(totals.currency)}</td></tr>`);
  for (const row of otherTotalRows(other, totals.currency)) {
    rows.push(`<tr><td>${L(row.key)}${row.currency ? ` (${e(row.currency)})` : ''}</td><td class="n">${e(row.value)}</td></tr>`);
  }
  return `<table class="totals"><tbody>${rows.join('')}</tbody></table>`;
}

function list(title: string, items: readonly string[]): string {
  return items.length ? `<h2>${title}</h2>${items.map((item) => `<div dir="auto">${e(item)}</div>`).join('')}` : '';
}

function markHtml(mark: PrintableMark, placement: 'top' | 'side'): string {
  if (mark.kind !== 'qr') {
    return `<div class="mark${mark.kind === 'pending' ? ' pending' : ''}"><div>${mark.text.map((t) => `<div>${e(t)}</div>`).join('')}</div></div>`;
  }
  const qr = qrModules(mark.payload);
  // A 4-module quiet zone (ISO/IEC 18004); one path of horizontal runs.
  const side = qr.size + 8;
  const path = qrRuns(qr).map(([x, y, w]) => `M${x + 4} ${y + 4}h${w}v1h-${w}z`).join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" width="${mark.sizeMm}mm" height="${mark.sizeMm}mm" ` +
    `shape-rendering="crispEdges" role="img" aria-label="${e(mark.payload)}"><rect width="${side}" height="${side}" fill="#fff"/>` +
    `<path d="${path}" fill="#000"/></svg>`;
  const lines = (texts: readonly string[] | undefined) => (texts ?? []).map((t) => `<div>${e(t)}</div>`).join('');
  return `<div class="mark qr ${placement}">${lines(mark.caption)}${svg}<div>${lines(mark.legend)}</div></div>`;
}

