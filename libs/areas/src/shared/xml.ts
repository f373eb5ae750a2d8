/**
 * A tiny XML builder: elements as nested arrays, text escaped, and empty elements dropped
 * (PEPPOL-EN16931-R008: a document must not contain empty elements).
 */

/** An element: name, attributes, then children (text or elements); undefined children are skipped. */
export type XmlNode = readonly [name: string, attrs: Readonly<Record<string, string | undefined>>, ...children: XmlChild[]];
/** Text, an element, or nothing. */
export type XmlChild = XmlNode | string | undefined | null | false;

/** Escapes text and attribute values; drops characters XML 1.0 forbids. */
export function escapeXml(text: string): string {
  return text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** Element helper: `el('cbc:ID', {schemeID: '0208'}, '0123456749')`. */
export function el(name: string, attrs: Record<string, string | undefined> = {}, ...children: XmlChild[]): XmlNode {
  return [name, attrs, ...children];
}

/** Leaf helper for optional values: undefined or blank text yields no element. */
export function leaf(name: string, text: string | undefined, attrs: Record<string, string | undefined> = {}): XmlNode | undefined {
  return text === undefined || text.trim() === '' ? undefined : [name, attrs, text];
}

function serialize(node: XmlNode, indent: string, out: string[]): boolean {
  const [name, attrs, ...children] = node;
  const present = children.filter((c): c is XmlNode | string => c !== undefined && c !== null && c !== false && c !== '');
  if (present.length === 0) return false;
  const attrText = Object.entries(attrs).filter(([, v]) => v !== undefined).map(([k, v]) => ` ${k}="${escapeXml(v as string)}"`).join('');
  if (present.every((c) => typeof c === 'string')) {
    out.push(`${indent}<${name}${attrText}>${present.map((c) => escapeXml(c as string)).join('')}</${name}>`);
    return true;
  }
  const inner: string[] = [];
  for (const child of present) {
    if (typeof child === 'string') inner.push(`${indent}  ${escapeXml(child)}`);
    else serialize(child, `${indent}  `, inner);
  }
  if (inner.length === 0) return false;
  out.push(`${indent}<${name}${attrText}>`, ...inner, `${indent}</${name}>`);
  return true;
}

/** The document with an XML declaration, UTF-8. */
export function toXml(root: XmlNode): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  serialize(root, '', out);
  return `${out.join('\n')}\n`;
}
