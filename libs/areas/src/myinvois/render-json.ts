/**
 * The MyInvois JSON form (LHDN MyInvois SDK "JSON" document format, UBL 2.1 in JSON): root
 * `_D`, `_A`, `_B` namespace keys then `"Invoice": [ {...} ]`; every element an array of
 * objects, its value under `_` and its attributes as sibling keys. Built from the same tree as
 * the XML, dropping the same empty elements, so both forms always say the same thing.
 */
import type { XmlChild, XmlNode } from '../shared/xml';
import { ublNamespaces } from '../ubl';
import { documentTree } from './document-tree';
import type { MyInvoisDocument } from './schema-document';
import type { MyInvoisSupplier } from './schema-onboarding';

/** A JSON element: `{ "_": value, attr: "..." }` or `{ Child: [...], ... }`. */
export type JsonElement = { [key: string]: string | number | boolean | JsonElement[] };

/** Leaves whose value MyInvois JSON carries as a number (amounts carry a currencyID attribute). */
const numericLeaves = new Set(['InvoicedQuantity', 'Percent', 'CalculationRate', 'MultiplierFactorNumeric', 'BaseUnitMeasure']);
const booleanLeaves = new Set(['ChargeIndicator']);

const localName = (name: string) => name.slice(name.indexOf(':') + 1);
const isPresent = (c: XmlChild): c is XmlNode | string => c !== undefined && c !== null && c !== false && c !== '';

function value(name: string, attrs: XmlNode[1], text: string): string | number | boolean {
  if (booleanLeaves.has(name)) return text === 'true';
  if (numericLeaves.has(name) || attrs.currencyID !== undefined) return Number(text);
  return text;
}

/** One element as JSON, or undefined where shared/xml.ts would drop it as empty. */
export function toJsonElement(node: XmlNode): JsonElement | undefined {
  const [qname, attrs, ...children] = node;
  const name = localName(qname);
  const present = children.filter(isPresent);
  if (present.length === 0) return undefined;
  const attributes: Record<string, string> = {};
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && !k.startsWith('xmlns')) attributes[k] = v;
  if (present.every((c) => typeof c === 'string')) return { _: value(name, attrs, present.join('')), ...attributes };
  const out: JsonElement = {};
  for (const child of present) {
    if (typeof child === 'string') continue; // no mixed content in UBL
    const json = toJsonElement(child);
    if (!json) continue;
    const key = localName(child[0]);
    ((out[key] ??= []) as JsonElement[]).push(json);
  }
  return Object.keys(out).length === 0 ? undefined : { ...out, ...attributes };
}

/** The MyInvois JSON object of a parsed document. */
export function myInvoisJson(doc: MyInvoisDocument, supplier: MyInvoisSupplier): Record<string, unknown> {
  const root = toJsonElement(documentTree(doc, supplier));
  // UBL's namespaces, as the JSON form names them.
  return { _D: ublNamespaces.Invoice, _A: ublNamespaces.cac, _B: ublNamespaces.cbc, Invoice: root ? [root] : [] };
}

/** The MyInvois JSON text (compact, the bytes that are hashed and submitted). */
export function renderMyInvoisJson(doc: MyInvoisDocument, supplier: MyInvoisSupplier): string {
  return JSON.stringify(myInvoisJson(doc, supplier));
}
