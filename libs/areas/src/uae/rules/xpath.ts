/**
 * XPath 2.0 general comparisons as the rules use them: a node set compared with a value is true
 * when ANY of its nodes compares true, and an empty set compares false both ways.
 */
import type { XmlElement } from '../../shared/xml-read';
import { attr, decimal, norm, path, texts } from './tree';

/** `p = v` (any of the values). */
export const eq = (el: XmlElement | undefined, p: string, ...values: string[]): boolean => path(el, p).some((e) => values.includes(e.text));
/** `p != v` (any node differs). */
export const ne = (el: XmlElement | undefined, p: string, value: string): boolean => path(el, p).some((e) => e.text !== value);
/** `p/@name = v`. */
export const attrEq = (el: XmlElement | undefined, p: string, name: string, ...values: string[]): boolean =>
  path(el, p).some((e) => e.attrs[name] !== undefined && values.includes(e.attrs[name]));
/** `p/@name != v`. */
export const attrNe = (el: XmlElement | undefined, p: string, name: string, value: string): boolean =>
  path(el, p).some((e) => e.attrs[name] !== undefined && e.attrs[name] !== value);
/** `exists(p/@name)`. */
export const hasAttr = (el: XmlElement | undefined, p: string, name: string): boolean => path(el, p).some((e) => e.attrs[name] !== undefined);
/** `matches(p, re)` on the first node (XPath: an empty sequence is the empty string). */
export const matches = (el: XmlElement | undefined, p: string, re: RegExp): boolean => re.test(path(el, p)[0]?.text ?? '');

/** The document's type code(s): `cbc:InvoiceTypeCode | cbc:CreditNoteTypeCode`. */
export const typeIs = (root: XmlElement, ...codes: string[]): boolean => eq(root, 'cbc:InvoiceTypeCode', ...codes) || eq(root, 'cbc:CreditNoteTypeCode', ...codes);
/** `matches(cbc:ProfileExecutionID, re)`: the transaction type code's flags. */
export const flags = (root: XmlElement, re: RegExp): boolean => matches(root, 'cbc:ProfileExecutionID', re);

/** Tax categories of the VAT scheme: `cac:TaxCategory[cac:TaxScheme/normalize-space(upper-case(cbc:ID))='VAT']`. */
export const isVat = (category: XmlElement): boolean => path(category, 'cac:TaxScheme/cbc:ID').some((e) => norm(e).toUpperCase() === 'VAT');

/** `xs:decimal(p) = n` for a castable first node. */
export const decimalIs = (el: XmlElement | undefined, p: string, n: number): boolean => {
  const d = decimal(path(el, p)[0]);
  return d !== undefined && d.equals(n);
};

/** XPath `number(.)` of the first node (NaN when absent or not a number). */
export const num = (el: XmlElement | undefined, p: string): number => {
  const t = path(el, p)[0]?.text.trim();
  return t === undefined || t === '' || !/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(t) ? NaN : Number(t);
};

export { attr, texts };
