/**
 * The sandbox KSeF's own structural check of an FA(3) invoice: what KSeF checks (the Ministry's schema,
 * shared/conformance/ksef/FA/schemat_FA(3)_v1-0E.xsd) that our renderer could get wrong or a client's
 * data could cause, refused as KSeF refuses it (450). It needs no file outside the repository; with
 * CONFORMANCE_DIR set the Ministry's XSD runs as well (xsd.ts). The schema's type for each check is
 * named in its message (TNrNIP, TKwotowy...).
 */
import { all, first, leafText, rootOrProblem, type XmlElement } from '../shared/xml-read';
import { FA3_NAMESPACE } from './fa3';

/** etd:TNrNIP: ten digits, the first not 0, the second and third not both 0. */
const NIP = /^[1-9]((\d[1-9])|([1-9]\d))\d{7}$/;
/** TKwotowy: at most 16 integer digits and 2 decimals. */
const AMOUNT = /^-?([1-9]\d{0,15}|0)(\.\d{1,2})?$/;
/** TKwotowy2 (unit prices): 8 decimals. */
const AMOUNT_8 = /^-?([1-9]\d{0,13}|0)(\.\d{1,8})?$/;
/** TIlosci (quantities): 6 decimals. */
const QUANTITY = /^-?([1-9]\d{0,15}|0)(\.\d{1,6})?$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** TStawkaPodatku. */
const RATES = new Set(['23', '22', '8', '7', '5', '4', '3', '0 KR', '0 WDT', '0 EX', 'zw', 'oo', 'np I', 'np II']);
/** TRodzajFaktury; the corrections need DaneFaKorygowanej. */
const KINDS = new Set(['VAT', 'KOR', 'ZAL', 'ROZ', 'UPR', 'KOR_ZAL', 'KOR_ROZ']);
const CORRECTIONS = new Set(['KOR', 'KOR_ZAL', 'KOR_ROZ']);
const YES_NO = new Set(['1', '2']);

/** An element of the FA(3) namespace, by its local name. */
const fa3 = (name: string) => [FA3_NAMESPACE, name] as const;

/** A real calendar day `YYYY-MM-DD` within [from, to]. */
function isDay(value: string, from: string, to: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value && value >= from && value <= to;
}

/** What is wrong with the invoice's structure, one message per problem; none: it passes. */
export function fa3Problems(xml: string): string[] {
  const read = rootOrProblem(xml);
  if ('problem' in read) return [read.problem];
  const { root } = read;
  if (root.name !== 'Faktura') return [`the root element is ${root.name}, not Faktura`];
  if (root.ns !== FA3_NAMESPACE) return [`Faktura is in namespace ${root.ns || 'none'}, not FA(3)'s ${FA3_NAMESPACE}`];

  const problems: string[] = [];
  const child = (node: XmlElement | undefined, name: string) => first(node, fa3(name));
  /** The element, or a problem when it is missing. */
  const required = (node: XmlElement | undefined, name: string, path: string): XmlElement | undefined => {
    const found = child(node, name);
    if (!found) problems.push(`${path}/${name} is required`);
    return found;
  };
  /** An element's text checked by `valid`, when the element is there (`need`: it must be). */
  const text = (node: XmlElement | undefined, name: string, path: string, valid: (v: string) => boolean, what: string, need = true): string | undefined => {
    const found = need ? required(node, name, path) : child(node, name);
    if (!found) return undefined;
    const content = leafText(node, fa3(name));
    if (content === undefined || !valid(content)) problems.push(`${path}/${name} '${content ?? '(elements)'}' is not ${what}`);
    return content;
  };
  const words = (max: number) => (v: string) => v.length >= 1 && v.length <= max;

  const header = required(root, 'Naglowek', 'Faktura');
  const form = required(header, 'KodFormularza', 'Faktura/Naglowek');
  if (form !== undefined) {
    const code = leafText(header, fa3('KodFormularza'));
    const { kodSystemowy: system, wersjaSchemy: version } = form.attrs;
    if (code !== 'FA' || system !== 'FA (3)' || version !== '1-0E') {
      problems.push(
        `Faktura/Naglowek/KodFormularza is ${String(code)} (kodSystemowy ${String(system)}, wersjaSchemy ${String(version)}), ` +
          'not FA (kodSystemowy "FA (3)", wersjaSchemy "1-0E")',
      );
    }
  }
  text(header, 'WariantFormularza', 'Faktura/Naglowek', (v) => v === '3', 'form variant 3');
  const madeAt = (v: string) => DATE_TIME.test(v) && v >= '2021-10-01' && v <= '2050-01-01T23:59:59Z';
  text(header, 'DataWytworzeniaFa', 'Faktura/Naglowek', madeAt, 'a date and time from 2021-10-01 to 2050-01-01 (TDataCzas)');

  const seller = required(root, 'Podmiot1', 'Faktura');
  if (seller !== undefined) {
    const ids = required(seller, 'DaneIdentyfikacyjne', 'Faktura/Podmiot1');
    text(ids, 'NIP', 'Faktura/Podmiot1/DaneIdentyfikacyjne', (v) => NIP.test(v), 'a NIP (10 digits, TNrNIP)');
    text(ids, 'Nazwa', 'Faktura/Podmiot1/DaneIdentyfikacyjne', words(512), 'a name of 1 to 512 characters');
    const address = required(seller, 'Adres', 'Faktura/Podmiot1');
    text(address, 'KodKraju', 'Faktura/Podmiot1/Adres', (v) => /^[A-Z]{2}$/.test(v), 'a country code (TKodKraju)');
    text(address, 'AdresL1', 'Faktura/Podmiot1/Adres', words(512), 'an address line of 1 to 512 characters');
  }

  const buyer = required(root, 'Podmiot2', 'Faktura');
  if (buyer !== undefined) {
    const path = 'Faktura/Podmiot2/DaneIdentyfikacyjne';
    const ids = required(buyer, 'DaneIdentyfikacyjne', 'Faktura/Podmiot2');
    if (ids !== undefined) {
      const given = ['NIP', 'KodUE', 'NrID', 'BrakID'].filter((name) => child(ids, name) !== undefined);
      if (given.length !== 1) {
        problems.push(`${path} names the buyer by exactly one of NIP, KodUE + NrVatUE, NrID or BrakID, not ${given.join(' and ') || 'none'}`);
      }
      text(ids, 'NIP', path, (v) => NIP.test(v), 'a NIP (10 digits, TNrNIP)', false);
      if (child(ids, 'KodUE') !== undefined) text(ids, 'NrVatUE', path, words(256), 'an EU VAT number');
      text(ids, 'BrakID', path, (v) => v === '1', '1', false);
    }
    text(buyer, 'JST', 'Faktura/Podmiot2', (v) => YES_NO.has(v), '1 or 2');
    text(buyer, 'GV', 'Faktura/Podmiot2', (v) => YES_NO.has(v), '1 or 2');
  }

  const fa = required(root, 'Fa', 'Faktura');
  if (fa !== undefined) {
    text(fa, 'KodWaluty', 'Faktura/Fa', (v) => /^[A-Z]{3}$/.test(v), 'a currency code (TKodWaluty)');
    text(fa, 'P_1', 'Faktura/Fa', (v) => isDay(v, '2006-01-01', '2050-01-01'), 'a date from 2006-01-01 to 2050-01-01 (TDataT)');
    text(fa, 'P_2', 'Faktura/Fa', words(256), 'an invoice number of 1 to 256 characters');
    const amounts = fa.children.filter((c) => c.ns === FA3_NAMESPACE && /^P_1[34]_/.test(c.name)).map((c) => c.name);
    for (const name of new Set(amounts)) {
      text(fa, name, 'Faktura/Fa', (v) => AMOUNT.test(v), 'an amount with at most 2 decimals (TKwotowy)');
    }
    text(fa, 'P_15', 'Faktura/Fa', (v) => AMOUNT.test(v), 'an amount with at most 2 decimals (TKwotowy)');
    const notes = required(fa, 'Adnotacje', 'Faktura/Fa');
    if (notes !== undefined) {
      for (const name of ['P_16', 'P_17', 'P_18', 'P_18A', 'P_23']) text(notes, name, 'Faktura/Fa/Adnotacje', (v) => YES_NO.has(v), '1 or 2');
      for (const name of ['Zwolnienie', 'NoweSrodkiTransportu', 'PMarzy']) required(notes, name, 'Faktura/Fa/Adnotacje');
    }
    const kind = text(fa, 'RodzajFaktury', 'Faktura/Fa', (v) => KINDS.has(v), `one of ${[...KINDS].join(', ')}`);
    if (kind && CORRECTIONS.has(kind)) required(fa, 'DaneFaKorygowanej', 'Faktura/Fa');
    all(fa, fa3('FaWiersz')).forEach((line, i) => {
      const path = `Faktura/Fa/FaWiersz[${i + 1}]`;
      text(line, 'NrWierszaFa', path, (v) => /^[1-9]\d{0,13}$/.test(v), 'a line number from 1 (TNaturalny)');
      text(line, 'P_8B', path, (v) => QUANTITY.test(v), 'a quantity with at most 6 decimals (TIlosci)', false);
      text(line, 'P_9A', path, (v) => AMOUNT_8.test(v), 'a unit price with at most 8 decimals (TKwotowy2)', false);
      text(line, 'P_11', path, (v) => AMOUNT.test(v), 'an amount with at most 2 decimals (TKwotowy)', false);
      text(line, 'P_12', path, (v) => RATES.has(v), `a VAT rate of FA(3) (TStawkaPodatku: ${[...RATES].join(', ')})`, false);
    });
  }
  return problems;
}
