/**
 * A tiny XML builder: elements as nested arrays, text escaped, and empty elements dropped
 * (PEPPOL-EN16931-R008: a document must not contain empty elements).
 */

/** An element: name, attributes, then children (text or elements); undefined children are skipped. */
export type XmlNode = readonly [name: string, attrs: Readonly<Record<string, string | undefined>>, ...children: XmlChild[]];
/** Text, an element, or nothing. */
export type XmlChild = XmlNode | string | undefined | null | false;

/** Characters escapeXml changes or drops: most text has none and is returned as it is. */
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPING = /[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/** Escapes text and attribute values; drops characters XML 1.0 forbids. */
export function escapeXml(text: string): string {
  if (!NEEDS_ESCAPING.test(text)) return text;
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

const isPresent = (child: XmlChild): child is XmlNode | string => child !== undefined && child !== null && child !== false && child !== '';

function attributesOf(attrs: XmlNode[1]): string {
  let text = '';
  for (const key of Object.keys(attrs)) {
    const value = attrs[key];
    if (value !== undefined) text += ` ${key}="${escapeXml(value)}"`;
  }
  return text;
}

/**
 * Appends the element's lines to `out`; false (nothing appended) when it is empty. Written with
 * index loops and no intermediate arrays: every submission renders a document, and this walk was
 * half of rendering's cost (issue 11).
 */
function serialize(node: XmlNode, indent: string, out: string[]): boolean {
  const name = node[0];
  let present = 0;
  let onlyText = true;
  for (let i = 2; i < node.length; i++) {
    const child = node[i] as XmlChild;
    if (!isPresent(child)) continue;
    present++;
    if (typeof child !== 'string') onlyText = false;
  }
  if (present === 0) return false;
  const attributes = attributesOf(node[1]);
  if (onlyText) {
    let text = '';
    for (let i = 2; i < node.length; i++) {
      const child = node[i] as XmlChild;
      if (isPresent(child)) text += escapeXml(child as string);
    }
    out.push(`${indent}<${name}${attributes}>${text}</${name}>`);
    return true;
  }
  const opening = out.length;
  out.push(''); // the opening tag, once a child is known to be written
  const inner = `${indent}  `;
  for (let i = 2; i < node.length; i++) {
    const child = node[i] as XmlChild;
    if (!isPresent(child)) continue;
    if (typeof child === 'string') out.push(`${inner}${escapeXml(child)}`);
    else serialize(child, inner, out);
  }
  if (out.length === opening + 1) {
    out.length = opening;
    return false;
  }
  out[opening] = `${indent}<${name}${attributes}>`;
  out.push(`${indent}</${name}>`);
  return true;
}

/** The document with an XML declaration, UTF-8. */
export function toXml(root: XmlNode): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  serialize(root, '', out);
  return `${out.join('\n')}\n`;
}
