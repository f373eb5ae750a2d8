/**
 * The mutation corpus of the rule parity test (issue 10): valid requests (the official examples as
 * JSON) each broken in one place, the way a client could break them, so that our rules and the
 * official Schematron can be compared on documents that reach phase 2.
 */

type Json = Record<string, unknown>;
export interface Mutation {
  readonly name: string;
  readonly mutate: (request: Json) => Json | undefined;
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const lines = (r: Json) => (r.lines as Json[] | undefined) ?? [];

/** Changes the request's first line (undefined when it has none). */
const onLine = (name: string, change: (line: Json) => void): Mutation => ({
  name: `lines.0 ${name}`,
  mutate: (r) => {
    const copy = clone(r);
    const [line] = lines(copy);
    if (!line) return undefined;
    change(line);
    return copy;
  },
});
/** Changes the request (undefined when the change does not apply). */
const on = (name: string, change: (r: Json) => boolean | void): Mutation => ({
  name,
  mutate: (r) => {
    const copy = clone(r);
    return change(copy) === false ? undefined : copy;
  },
});
const without = (key: string): Mutation => on(`without ${key}`, (r) => (key in r ? void delete r[key] : false));
const party = (r: Json) => r.receiving_party as Json;

const FLAGS = ['is_ftz', 'is_deemed', 'is_margin', 'is_summary', 'is_continuous', 'is_dab', 'is_ecommerce', 'is_export', 'is_selfbilled'];
const CATEGORIES = ['S', 'Z', 'E', 'O', 'AE', 'N'];

export const mutations: readonly Mutation[] = [
  ...FLAGS.map((flag) => on(`flag ${flag}`, (r) => {
    const flags = (r.flags as Json | undefined) ?? {};
    if (flags[flag] === true) return false;
    r.flags = { ...flags, [flag]: true };
  })),
  ...['payment_means', 'due_date', 'delivery', 'invoice_period', 'fz_beneficiary_id', 'principal_id', 'document_references', 'tax_totals', 'invoice_totals',
    'issuing_party', 'tax_representative', 'payee_party', 'buyer_reference', 'order_reference', 'credit_note_reason_code', 'exchange_rate',
    'total_tax_amount_in_aed', 'total_amount_with_tax_in_aed', 'other_references', 'allowance_charges'].map(without),
  ...CATEGORIES.map((c) => onLine(`tax_category ${c}`, (l) => {
    l.tax_category = c;
  })),
  onLine('tax_percentage 10', (l) => void (l.tax_percentage = '10')),
  onLine('tax_percentage 0', (l) => void (l.tax_percentage = '0')),
  onLine('without tax_percentage', (l) => void delete l.tax_percentage),
  onLine('without tax_exemption_reason_code', (l) => void delete l.tax_exemption_reason_code),
  onLine('exemption reason on S', (l) => { l.tax_category = 'S'; l.tax_percentage = '5'; l.tax_exemption_reason_code = 'VATEX-AE-EX'; }),
  onLine('E with a bad exemption code', (l) => { l.tax_category = 'E'; l.tax_exemption_reason_code = 'VATEX-XX'; }),
  onLine('without standard_item_id', (l) => void delete l.standard_item_id),
  onLine('standard item scheme 0088', (l) => { l.standard_item_id = l.standard_item_id ?? '1234567890123'; l.standard_item_id_scheme = '0088'; }),
  onLine('without reverse_charge_item_type', (l) => void delete l.reverse_charge_item_type),
  onLine('commodity G without hs_code', (l) => { l.commodity_code = 'G'; delete l.hs_code; }),
  onLine('commodity S without sac_code', (l) => { l.commodity_code = 'S'; delete l.sac_code; }),
  onLine('commodity B without codes', (l) => { l.commodity_code = 'B'; delete l.hs_code; delete l.sac_code; }),
  onLine('gross price not unit + discount', (l) => { l.price_discount = '1.00'; l.gross_price = '1000.00'; }),
  onLine('line_amount wrong', (l) => void (l.line_amount = '1.23')),
  onLine('without item_description', (l) => void delete l.item_description),
  onLine('charge without reason', (l) => void (l.allowance_charges = [{ charge_indicator: true, amount: '1.00' }])),
  onLine('allowance with reason code 999', (l) => void (l.allowance_charges = [{ charge_indicator: false, amount: '1.00', reason_code: '999' }])),
  onLine('unit code ZZZ', (l) => void (l.unit_code = 'ZZZ')),
  on('receiving party without trn', (r) => ('trn' in party(r) ? void delete party(r).trn : false)),
  on('receiving party without legal_id', (r) => ('legal_id' in party(r) ? void delete party(r).legal_id : false)),
  on('receiving party in SA', (r) => { party(r).country_code = 'SA'; party(r).emirates_code = 'Riyadh'; }),
  on('receiving party without city', (r) => ('city' in party(r) ? void delete party(r).city : false)),
  on('receiving party without emirates_code', (r) => ('emirates_code' in party(r) ? void delete party(r).emirates_code : false)),
  on('receiving party legal id PAS without authority', (r) => void (party(r).legal_id = { id: 'P1234567', scheme: 'PAS' })),
  on('receiving party legal id TL without authority', (r) => void (party(r).legal_id = { id: 'TL-1', scheme: 'TL' })),
  on('receiving party peppol 0088', (r) => void (party(r).peppol_id = '0088:1234567890128')),
  on('receiving party trn of 14 digits', (r) => void (party(r).trn = '10000000000000')),
  on('one buyer identifier', (r) => void (party(r).identifiers = [{ id: 'X1', scheme_id: '0088' }])),
  on('payment means 30 without account', (r) => void (r.payment_means = [{ type_code: '30' }])),
  on('payment means 54 card', (r) => void (r.payment_means = [{ type_code: '54', card: { primary_account_number: '1234', network_id: 'VISA' } }])),
  on('document type 480', (r) => void (r.document_type = '480')),
  on('document type 380', (r) => void (r.document_type = '380')),
  on('document type 381', (r) => void (r.document_type = '381')),
  on('document type 81', (r) => void (r.document_type = '81')),
  on('document type 389', (r) => void (r.document_type = '389')),
  on('currency USD', (r) => void (r.document_currency = 'USD')),
  on('payable amount wrong', (r) => void (r.invoice_totals = { ...((r.invoice_totals as Json) ?? {}), payable_amount: '1.00' })),
  on('line extension wrong', (r) => void (r.invoice_totals = { ...((r.invoice_totals as Json) ?? {}), line_extension_amount: '1.00' })),
  on('taxable amount wrong', (r) => void (r.invoice_totals = { ...((r.invoice_totals as Json) ?? {}), taxable_amount: '1.00' })),
  on('allowance total wrong', (r) => void (r.invoice_totals = { ...((r.invoice_totals as Json) ?? {}), allowance_total_amount: '99.00' })),
  on('prepaid amount', (r) => void (r.invoice_totals = { ...((r.invoice_totals as Json) ?? {}), prepaid_amount: '1.00' })),
  on('tax row wrong tax amount', (r) => void (r.tax_totals = [{ tax_category: 'S', tax_rate: '5', taxable_amount: '100.00', tax_amount: '7.00' }])),
  on('tax row rate 10', (r) => void (r.tax_totals = [{ tax_category: 'S', tax_rate: '10', taxable_amount: '100.00', tax_amount: '10.00' }])),
  on('document charge without reason', (r) => void (r.allowance_charges = [{ charge_indicator: true, amount: '5.00', tax_category: 'S', tax_percentage: '5' }])),
  on('document allowance without category', (r) => void (r.allowance_charges = [{ charge_indicator: false, amount: '5.00', reason: 'Discount' }])),
  on('document allowance E without reason code', (r) => void (r.allowance_charges = [{ charge_indicator: false, amount: '5.00', reason: 'Discount', tax_category: 'E' }])),
  on('invoice period end before start', (r) => void (r.invoice_period = { start_date: '2025-03-31', end_date: '2025-03-01' })),
  on('due date before issue date', (r) => void (r.due_date = '2000-01-01')),
  on('credit note reason VD', (r) => void (r.credit_note_reason_code = 'VD')),
  on('tax representative without trn', (r) => void (r.tax_representative = { name: 'Rep LLC', country_code: 'AE' })),
  on('payee without name', (r) => void (r.payee_party = { identifiers: [{ id: 'P1' }] })),
  on('delivery without emirates_code', (r) => void (r.delivery = { address: { street_address: 'S 1', city: 'Dubai', country_code: 'AE' } })),
  on('issuing party legal id EID', (r) => void (r.issuing_party = { ...((r.issuing_party as Json) ?? {}), legal_id: { id: '784-1234-1234567-1', scheme: 'EID' } })),
  on('issuing party without trn', (r) => void (r.issuing_party = { ...((r.issuing_party as Json) ?? {}), trn: undefined })),
];

/** Every mutant of one request, named. */
export function mutantsOf(request: Json): Array<{ name: string; request: Json }> {
  return mutations.flatMap((m) => {
    const mutated = m.mutate(request);
    return mutated ? [{ name: m.name, request: mutated }] : [];
  });
}
