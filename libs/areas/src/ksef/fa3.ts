/**
 * Invoices as KSeF's FA(3) XML (shared/conformance/ksef/FA/schemat_FA(3)_v1-0E.xsd, namespace
 * http://crd.gov.pl/wzor/2025/06/25/13775/): header, seller (Podmiot1), buyer (Podmiot2), and `Fa` with
 * the totals per rate (P_13_x/P_14_x), the mandatory annotations (Adnotacje), the kind (VAT or KOR
 * with the corrected invoice) and the lines (FaWiersz). Elements in the schema's order; amounts with
 * two decimals. The schema is the test oracle (fa3.conformance.int.spec.ts).
 */
import { type XmlChild, el, toXml } from '../shared/xml';
import { Dec, formatAmount, mulRound2, sum } from '../shared/money';
import { type PolishRate, RATES_IN_FA_ORDER, TOTAL_FIELDS } from './rates';

export const FA3_NAMESPACE = 'http://crd.gov.pl/wzor/2025/06/25/13775/';

export interface Fa3Address {
  readonly country: string;
  /** `AdresL1`: street and number. */
  readonly line1: string;
  /** `AdresL2`: postcode and city. */
  readonly line2?: string;
}

export type Fa3BuyerId =
  | { readonly nip: string }
  | { readonly euVat: { readonly country: string; readonly number: string } }
  | { readonly other: { readonly country?: string; readonly id: string } }
  | { readonly none: true };

export interface Fa3Line {
  readonly description: string;
  readonly quantity: number | string;
  /** Net unit price (P_9A). */
  readonly unitPrice: number | string;
  readonly rate: PolishRate;
}

export interface Fa3Invoice {
  readonly number: string;
  /** `YYYY-MM-DD`. */
  readonly issueDate: string;
  readonly currency: string;
  readonly seller: { readonly nip: string; readonly name: string; readonly address: Fa3Address };
  readonly buyer: { readonly name: string; readonly id: Fa3BuyerId; readonly address: Fa3Address };
  readonly lines: readonly Fa3Line[];
  /** A correction (RodzajFaktury KOR) of an invoice issued before. */
  readonly correction?: { readonly reason: string; readonly invoice: { readonly number: string; readonly issueDate: string; readonly ksefNumber?: string } };
  /** PLN per unit of `currency` (KursWaluty), on an invoice in another currency with VAT at 23, 8 or 5 %. */
  readonly exchangeRate?: number | string;
  /** The legal basis of an exemption (P_19A), required when a line is `zw`. */
  readonly exemptionBasis?: string;
  /** `DataWytworzeniaFa`: when the XML was made. */
  readonly createdAt: Date;
}

export interface Fa3Totals {
  /**
   * Per rate: net and tax (tax rounded per rate, as the totals P_14_x are); with an exchange rate, the tax in PLN of
   * the rates that have a P_14_xW (the tax times the rate, rounded to the grosz).
   */
  readonly byRate: ReadonlyMap<PolishRate, { readonly net: string; readonly tax: string; readonly taxPln?: string }>;
  /** P_15: the total due. */
  readonly total: string;
}

/** The rates whose VAT FA(3) states in PLN too on a foreign-currency invoice (P_14_1W..P_14_3W). */
export const hasPlnTax = (rate: PolishRate): boolean => TOTAL_FIELDS[rate].tax !== undefined;

/** Line nets (quantity × price, rounded to the grosz) summed per rate, the tax per rate (and in PLN at `exchangeRate`), the total. */
export function fa3Totals(lines: readonly Fa3Line[], exchangeRate?: number | string): Fa3Totals {
  const byRate = new Map<PolishRate, { net: string; tax: string; taxPln?: string }>();
  for (const rate of [...new Set(lines.map((l) => l.rate))]) {
    const net = sum(lines.filter((l) => l.rate === rate).map((l) => mulRound2(l.quantity, l.unitPrice)));
    const tax = mulRound2(net, new Dec(TOTAL_FIELDS[rate].percent).dividedBy(100));
    const taxPln = exchangeRate !== undefined && hasPlnTax(rate) ? { taxPln: formatAmount(mulRound2(tax, exchangeRate)) } : {};
    byRate.set(rate, { net: formatAmount(net), tax: formatAmount(tax), ...taxPln });
  }
  const total = sum([...byRate.values()].flatMap((r) => [r.net, r.tax]));
  return { byRate, total: formatAmount(total) };
}

const address = (a: Fa3Address) => el('Adres', {}, el('KodKraju', {}, a.country), el('AdresL1', {}, a.line1), a.line2 ? el('AdresL2', {}, a.line2) : undefined);

function buyerId(id: Fa3BuyerId): XmlChild[] {
  if ('nip' in id) return [el('NIP', {}, id.nip)];
  if ('euVat' in id) return [el('KodUE', {}, id.euVat.country), el('NrVatUE', {}, id.euVat.number)];
  if ('other' in id) return [id.other.country ? el('KodKraju', {}, id.other.country) : undefined, el('NrID', {}, id.other.id)];
  return [el('BrakID', {}, '1')];
}

/** The FA(3) document. */
export function renderFa3(invoice: Fa3Invoice): string {
  // The PLN rate only where the invoice is in another currency (KursWaluty, P_14_xW).
  const exchangeRate = invoice.currency !== 'PLN' ? invoice.exchangeRate : undefined;
  const totals = fa3Totals(invoice.lines, exchangeRate);
  const totalFields: XmlChild[] = [];
  // In the schema's order: P_13_1/P_14_1/P_14_1W ... P_13_3/P_14_3/P_14_3W, then P_13_6_1 ... P_13_10.
  for (const rate of RATES_IN_FA_ORDER) {
    const amounts = totals.byRate.get(rate);
    if (!amounts) continue;
    const fields = TOTAL_FIELDS[rate];
    totalFields.push(el(fields.net, {}, amounts.net));
    if (fields.tax) totalFields.push(el(fields.tax, {}, amounts.tax));
    if (fields.tax && amounts.taxPln !== undefined) totalFields.push(el(`${fields.tax}W`, {}, amounts.taxPln));
  }
  const exempt = invoice.lines.some((l) => l.rate === 'zw');
  const reverseCharge = invoice.lines.some((l) => l.rate === 'oo');
  const correction = invoice.correction;
  return toXml(
    el(
      'Faktura',
      { xmlns: FA3_NAMESPACE },
      el(
        'Naglowek',
        {},
        el('KodFormularza', { kodSystemowy: 'FA (3)', wersjaSchemy: '1-0E' }, 'FA'),
        el('WariantFormularza', {}, '3'),
        el('DataWytworzeniaFa', {}, invoice.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z')),
        el('SystemInfo', {}, 'einvoice gateway'),
      ),
      el('Podmiot1', {}, el('DaneIdentyfikacyjne', {}, el('NIP', {}, invoice.seller.nip), el('Nazwa', {}, invoice.seller.name)), address(invoice.seller.address)),
      el(
        'Podmiot2',
        {},
        el('DaneIdentyfikacyjne', {}, ...buyerId(invoice.buyer.id), el('Nazwa', {}, invoice.buyer.name)),
        address(invoice.buyer.address),
        // Not a local government unit (JST) nor a VAT group member (GV): 2 = no.
        el('JST', {}, '2'),
        el('GV', {}, '2'),
      ),
      el(
        'Fa',
        {},
        el('KodWaluty', {}, invoice.currency),
        el('P_1', {}, invoice.issueDate),
        el('P_2', {}, invoice.number),
        ...totalFields,
        el('P_15', {}, totals.total),
        el(
          'Adnotacje',
          {},
          // Cash accounting, self-billing, reverse charge, split payment: 1 = yes, 2 = no.
          el('P_16', {}, '2'),
          el('P_17', {}, '2'),
          el('P_18', {}, reverseCharge ? '1' : '2'),
          el('P_18A', {}, '2'),
          el('Zwolnienie', {}, ...(exempt ? [el('P_19', {}, '1'), el('P_19A', {}, invoice.exemptionBasis ?? '')] : [el('P_19N', {}, '1')])),
          el('NoweSrodkiTransportu', {}, el('P_22N', {}, '1')),
          el('P_23', {}, '2'),
          el('PMarzy', {}, el('P_PMarzyN', {}, '1')),
        ),
        el('RodzajFaktury', {}, correction ? 'KOR' : 'VAT'),
        ...(correction
          ? [
              el('PrzyczynaKorekty', {}, correction.reason),
              el(
                'DaneFaKorygowanej',
                {},
                el('DataWystFaKorygowanej', {}, correction.invoice.issueDate),
                el('NrFaKorygowanej', {}, correction.invoice.number),
                ...(correction.invoice.ksefNumber ? [el('NrKSeF', {}, '1'), el('NrKSeFFaKorygowanej', {}, correction.invoice.ksefNumber)] : [el('NrKSeFN', {}, '1')]),
              ),
            ]
          : []),
        ...invoice.lines.map((line, i) =>
          el(
            'FaWiersz',
            {},
            el('NrWierszaFa', {}, String(i + 1)),
            el('P_7', {}, line.description),
            el('P_8A', {}, 'szt.'),
            el('P_8B', {}, String(line.quantity)),
            el('P_9A', {}, String(line.unitPrice)),
            el('P_11', {}, formatAmount(mulRound2(line.quantity, line.unitPrice))),
            el('P_12', {}, line.rate),
            exchangeRate !== undefined && hasPlnTax(line.rate) ? el('KursWaluty', {}, String(exchangeRate)) : undefined,
          ),
        ),
      ),
    ),
  );
}
