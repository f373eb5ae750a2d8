/**
 * XPath's few moves over the parsed UBL (shared/xml-read.ts), written as the Schematron writes
 * them: `path(party, 'cac:PartyLegalEntity/cbc:CompanyID')` is the node set of that relative path,
 * `text(...)` its first node's normalized text.
 */
import Decimal from 'decimal.js';
import { all, type XmlElement } from '../../shared/xml-read';
import { NS } from '../reporting/namespaces';

type Prefix = 'cbc' | 'cac';
type Name = readonly [ns: string, name: string];

const steps = new Map<string, Name[]>();
function parse(p: string): Name[] {
  let parsed = steps.get(p);
  if (!parsed) {
    parsed = p.split('/').map((step): Name => {
      const [prefix, name] = step.split(':') as [Prefix, string];
      return [NS[prefix], name];
    });
    steps.set(p, parsed);
  }
  return parsed;
}

/** The elements at a relative path of child steps (`cac:Party/cbc:EndpointID`). */
export const path = (el: XmlElement | undefined, p: string): XmlElement[] => all(el, ...parse(p));

export const one = (el: XmlElement | undefined, p: string): XmlElement | undefined => path(el, p)[0];
export const has = (el: XmlElement | undefined, p: string): boolean => path(el, p).length > 0;
export const count = (el: XmlElement | undefined, p: string): number => path(el, p).length;

/** XPath normalize-space of an element's text. */
export const norm = (el: XmlElement | undefined): string => (el ? el.text.replace(/\s+/g, ' ').trim() : '');
/** The normalized text of the first element at `p` ('' when absent, as XPath compares it). */
export const text = (el: XmlElement | undefined, p: string): string => norm(one(el, p));
/** The normalized texts of every element at `p` (general comparisons: `cbc:ID = "S"` is true when any is). */
export const texts = (el: XmlElement | undefined, p: string): string[] => path(el, p).map(norm);

/** Descendant lists already gathered, per element and name: the rules ask for the same ones often (`//cac:TaxCategory`). */
const gathered = new WeakMap<XmlElement, Map<string, XmlElement[]>>();

/** Every descendant with this name (`//cac:TaxCategory` from `el`). */
export function descendants(el: XmlElement, qname: string): XmlElement[] {
  let byName = gathered.get(el);
  if (!byName) gathered.set(el, (byName = new Map()));
  let found = byName.get(qname);
  if (!found) byName.set(qname, (found = gather(el, qname)));
  return found;
}

function gather(el: XmlElement, qname: string): XmlElement[] {
  const [[ns, name]] = parse(qname);
  const found: XmlElement[] = [];
  const walk = (e: XmlElement) => {
    for (const k of e.children) {
      if (k.ns === ns && k.name === name) found.push(k);
      walk(k);
    }
  };
  walk(el);
  return found;
}

/** `xs:decimal(.)`, or undefined when the text is not castable. */
export function decimal(value: string | XmlElement | undefined): Decimal | undefined {
  const t = typeof value === 'string' ? value.trim() : norm(value);
  return /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(t) ? new Decimal(t) : undefined;
}

/** `round(x * 100) div 100` on decimals (XPath round: half towards positive infinity). */
export const round2 = (d: Decimal): Decimal => d.times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_CEIL).div(100);

/** The value of an attribute, or undefined. */
export const attr = (el: XmlElement | undefined, name: string): string | undefined => el?.attrs[name];
