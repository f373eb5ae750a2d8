/**
 * The issue date, currency and total of a document of any area, read from its stored `fields` (the
 * caller's body after defaults), which each area names after its seed. One SQL expression per value, the
 * first name present. The issue date is the indexed column `issue_date`, generated from `fields` by
 * `account_document_issue_date` (migrations AccountDocumentLists1732200001880, which names each area's field, and
 * AccountDocumentIssueDate1732200001960), which `issued_from` / `issued_to` filter on. The total is the row's
 * `total` first, where the area computed the payable amount (UAE, MyInvois: ParsedDocument.total).
 */

/** JSON paths into `fields`, in the order they are tried. */
const CURRENCY = [['DocumentCurrencyCode'], ['document_currency_code'], ['document_currency'], ['MonId'], ['currency']];
const TOTAL = [
  ['TotalIncludingVat'],
  ['InvoiceTotal'],
  ['total_amount'],
  ['ImpTotal'],
  ['totals', 'payable_amount'],
  ['totals', 'payable'],
  ['legal_monetary_total', 'payable_amount'],
  ['invoice_totals', 'payable_amount'],
  ['Total'],
];

/**
 * The document currency where a body may leave it out and its area's default applies (the seeds:
 * BIS Billing EUR, PINT SG SGD, FA(3) PLN, MyInvois MYR; Spain and Jordan know one currency).
 */
const DEFAULT_CURRENCY: Readonly<Record<string, string>> = { be: 'EUR', de: 'EUR', sg: 'SGD', pl: 'PLN', my: 'MYR', es: 'EUR', jo: 'JOD' };

const firstOf = (paths: string[][], alias: string) => `coalesce(${paths.map((p) => `${alias}.fields #>> '{${p.join(',')}}'`).join(', ')})`;

/** The three values, as `issue_date`, `currency`, `total` columns of a select. */
export function fieldColumnsSql(alias: string): string {
  const defaults = Object.entries(DEFAULT_CURRENCY)
    .map(([area, currency]) => `WHEN '${area}' THEN '${currency}'`)
    .join(' ');
  return [
    // YYYY-MM-DD text (Argentina's YYYYMMDD given its dashes).
    `${alias}.issue_date`,
    `coalesce(${firstOf(CURRENCY, alias)}, CASE ${alias}.area ${defaults} END) AS currency`,
    // The amount the area computed, apart from the caller's fields (migration DocumentTotals1732200001970); a
    // row written before it, or of an area that computes none, reads the fields.
    `coalesce(${alias}.total, ${firstOf(TOTAL, alias)}) AS total`,
  ].join(', ');
}
