/**
 * The issue date, currency and total of a document of any area, read from its stored `fields` (the
 * caller's body after defaults), which each area names after its seed. One SQL expression per value, the
 * first name present. The issue date is the indexed column `issue_date`, generated from `fields` by
 * `account_document_issue_date` (migrations AccountDocumentLists1732200001880, which names each area's field, and
 * AccountDocumentIssueDate1732200001960), which `issued_from` / `issued_to` filter on. The total is the row's
 * `total` first, where the area computed the payable amount (UAE, MyInvois: ParsedDocument.total). The
 * counterparty (#50): an outgoing document's buyer where its area's body names it (COUNTERPARTY), an incoming
 * one's sender as its receipt wrote it into `fields.counterparty` (received-counterparty.ts).
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

/** A party's name and identifier: JSON paths into `fields`, the first present. */
interface PartyPaths {
  readonly name: readonly string[][];
  readonly id: readonly string[][];
  /** The value that stands for no party (Argentina's DocNro 0), read as null. */
  readonly none?: string;
}

/** The Peppol body (peppol-ubl CustomerParty): BT-44 and the first identifier, the one that addresses it. */
const PEPPOL_BUYER: PartyPaths = { name: [['CustomerParty', 'RegisteredName']], id: [['CustomerParty', 'Identifiers', '0', 'ID']] };

/**
 * Where an outgoing document's buyer is, per area: its name and its identifier as the area has it (VAT, TIN,
 * NIF, TRN, the Peppol id). MyInvois: the buyer, or on a self-billed document the supplier it bills itself for
 * (its row keeps both parties' name and TIN: submission.ts `listedFields`). Argentina: AFIP's voucher names the
 * buyer by document only (DocNro; 0 for a consumidor final), never by name.
 */
export const COUNTERPARTY: Readonly<Record<string, PartyPaths>> = {
  be: PEPPOL_BUYER,
  de: PEPPOL_BUYER,
  sg: PEPPOL_BUYER,
  pl: PEPPOL_BUYER,
  my: { name: [['CustomerParty', 'LegalName'], ['SupplierParty', 'LegalName']], id: [['CustomerParty', 'CustomerTIN'], ['SupplierParty', 'SupplierTIN']] },
  ae: { name: [['receiving_party', 'legal_name']], id: [['receiving_party', 'trn'], ['receiving_party', 'peppol_id']] },
  es: { name: [['recipient', 'name']], id: [['recipient', 'nif']] },
  jo: { name: [['buyer_details', 'buyer_name']], id: [['buyer_details', 'buyer_tin'], ['buyer_details', 'buyer_nin']] },
  ng: { name: [['accounting_customer_party', 'party_name']], id: [['accounting_customer_party', 'tin']] },
  ar: { name: [], id: [['DocNro']], none: '0' },
};

/** An incoming document's sender, as its receipt recorded it. */
const SENDER: PartyPaths = { name: [['counterparty', 'name']], id: [['counterparty', 'id']] };

const firstOf = (paths: string[][], alias: string) => `coalesce(${paths.map((p) => `${alias}.fields #>> '{${p.join(',')}}'`).join(', ')})`;

/** One of a party's values: the first path present; an empty text, or the area's `none`, is null. */
function partyValueSql(party: PartyPaths, value: 'name' | 'id', alias: string): string {
  const paths = party[value];
  if (paths.length === 0) return 'NULL::text';
  const present = `nullif(${firstOf(paths as string[][], alias)}, '')`;
  return party.none === undefined ? present : `nullif(${present}, '${party.none}')`;
}

/** The counterparty, as `counterparty_name` and `counterparty_id` columns of a select: from the row alone (no join). */
export function counterpartyColumnsSql(alias: string): string {
  const column = (value: 'name' | 'id') => {
    const byArea = Object.entries(COUNTERPARTY)
      .map(([area, paths]) => `WHEN '${area}' THEN ${partyValueSql(paths, value, alias)}`)
      .join(' ');
    return `CASE WHEN ${alias}.direction = 'incoming' THEN ${partyValueSql(SENDER, value, alias)} ELSE CASE ${alias}.area ${byArea} END END AS counterparty_${value}`;
  };
  return `${column('name')}, ${column('id')}`;
}

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
