/**
 * The one XML reader (DESIGN.md "Dependencies": one XML parser): fast-xml-parser in one configuration,
 * read into a tree of elements whose names carry their namespace URI, not their prefix, so a document
 * may use any prefix or a default namespace (a UBL from another access point, an authority's answer).
 * - Well-formed or refused: fast-xml-parser's validator runs first (its parser alone takes a
 *   mismatched end tag), then an undeclared prefix or a second root is refused.
 * - No DTD: a DOCTYPE is refused, and only XML's five entities and character references are ever
 *   decoded (no declared, external or nested entity is expanded).
 * - Text stays text (no number coercion), as written (callers trim); attributes keep their names.
 * - Lookups answer lists (`all`), the first (`first`) or a trimmed text (`textAt`, `leafText`): an
 *   element that may repeat needs no per-document configuration.
 */
import { type EntityDecoderOptions, XMLParser, XMLValidator } from 'fast-xml-parser';

/** An element with its namespace resolved. */
export interface XmlElement {
  /** Namespace URI, or '' for none. */
  readonly ns: string;
  /** Local name. */
  readonly name: string;
  /** Attributes by their name as written (`schemeID`, `xmlns:cbc`). */
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  /** The element's own text (CDATA included), children's text excluded. */
  readonly text: string;
  /** Offsets of the element in the source: `<` of its start tag, and just after its end tag. */
  readonly start: number;
  readonly end: number;
}

/** The reason a text is not well-formed XML (with the line, where the validator tells it). */
export class XmlSyntaxError extends Error {
  constructor(message: string, readonly line?: number) {
    super(line === undefined ? message : `${message} (line ${line})`);
    this.name = 'XmlSyntaxError';
  }
}

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const REFERENCE = /&(?:#x([0-9A-Fa-f]+)|#([0-9]+)|([^\s&;]*));/g;

function character(code: number): string {
  if (code > 0 && code <= 0x10ffff) return String.fromCodePoint(code);
  throw new XmlSyntaxError(`Character reference to U+${code.toString(16).toUpperCase()}, not an XML character`);
}

function reference(_whole: string, hex?: string, decimal?: string, name?: string): string {
  if (hex !== undefined) return character(parseInt(hex, 16));
  if (decimal !== undefined) return character(parseInt(decimal, 10));
  const predefined = PREDEFINED[name ?? ''];
  if (predefined === undefined) throw new XmlSyntaxError(`Unknown entity "&${name};"`);
  return predefined;
}

/**
 * Entities as XML 1.0 defines them, and nothing more: the five predefined ones and character references;
 * any other name is an error. This decoder holds no table a document could add to, so a declared entity
 * (let alone an external one) is never expanded; the DOCTYPE declaring it is refused besides.
 */
const xmlEntities: EntityDecoderOptions = {
  decode: (text) => (text.includes('&') ? text.replace(REFERENCE, reference) : text),
  // fast-xml-parser hands over what a DOCTYPE declares: no Peppol or authority document has one.
  addInputEntities: () => {
    throw new XmlSyntaxError('A DOCTYPE is not accepted');
  },
  setExternalEntities: () => undefined,
  reset: () => undefined,
  setXmlVersion: () => undefined,
};

const parser = new XMLParser({
  preserveOrder: true, // document order across names: rules report breaches in that order
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  captureMetaData: true,
  entityDecoder: xmlEntities,
  jPath: false,
});
const META = XMLParser.getMetaDataSymbol() as unknown as string;
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** fast-xml-parser's ordered output: `{ [name]: children, ':@'?: attributes }` or `{ '#text': text }`. */
type Ordered = Record<string, unknown>;
type Scope = ReadonlyMap<string, string>;

function tagOf(node: Ordered): string {
  for (const key in node) if (key !== ':@') return key;
  return '';
}

function resolve(qname: string, scope: Scope): { ns: string; name: string } {
  const colon = qname.indexOf(':');
  if (colon < 0) return { ns: scope.get('') ?? '', name: qname };
  const prefix = qname.slice(0, colon);
  const ns = prefix === 'xml' ? XML_NS : scope.get(prefix);
  if (ns === undefined) throw new XmlSyntaxError(`Undeclared namespace prefix "${prefix}"`);
  return { ns, name: qname.slice(colon + 1) };
}

function scopeOf(attrs: Record<string, string>, parent: Scope): Scope {
  let scope: Map<string, string> | undefined;
  for (const key in attrs) {
    if (key !== 'xmlns' && !key.startsWith('xmlns:')) continue;
    scope ??= new Map(parent);
    scope.set(key === 'xmlns' ? '' : key.slice(6), attrs[key]);
  }
  return scope ?? parent;
}

const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});

function element(node: Ordered, tag: string, parentScope: Scope): XmlElement {
  const attrs = (node[':@'] as Record<string, string> | undefined) ?? NO_ATTRIBUTES;
  const scope = attrs === NO_ATTRIBUTES ? parentScope : scopeOf(attrs, parentScope);
  const { ns, name } = resolve(tag, scope);
  for (const key in attrs) if (key.includes(':') && !key.startsWith('xmlns:')) resolve(key, scope);
  const children: XmlElement[] = [];
  let text = '';
  for (const child of node[tag] as Ordered[]) {
    const childTag = tagOf(child);
    if (childTag === '#text') text += child['#text'] as string;
    else children.push(element(child, childTag, scope));
  }
  const { startIndex, endIndex } = node[META] as unknown as { startIndex: number; endIndex: number };
  return { ns, name, attrs, children, text, start: startIndex, end: endIndex };
}

/**
 * The root of a document a structure check reads, or its one problem when it is not well-formed XML
 * (the checks list problems, one message each: KSeF's FA(3), VeriFactu's submission).
 */
export function rootOrProblem(source: string): { readonly root: XmlElement } | { readonly problem: string } {
  try {
    return { root: parseXml(source) };
  } catch (error) {
    if (error instanceof XmlSyntaxError) return { problem: `not well-formed XML: ${error.message}` };
    throw error;
  }
}

/** Parses a whole document into its root element. @throws XmlSyntaxError */
export function parseXml(source: string): XmlElement {
  const verdict = XMLValidator.validate(source);
  if (verdict !== true) throw new XmlSyntaxError(verdict.err.msg, verdict.err.line);
  let nodes: Ordered[];
  try {
    nodes = parser.parse(source) as Ordered[];
  } catch (error) {
    if (error instanceof XmlSyntaxError) throw error;
    throw new XmlSyntaxError((error as Error).message);
  }
  let root: XmlElement | undefined;
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === '#text') continue; // white space (and a byte order mark) around the root
    if (root) throw new XmlSyntaxError('A second root element');
    root = element(node, tag, new Map());
  }
  if (!root) throw new XmlSyntaxError('No root element');
  return root;
}

/** The root of a text from outside when it is XML and its root has this local name; undefined otherwise. */
export function rootNamed(xml: string, name: string): XmlElement | undefined {
  try {
    const root = parseXml(xml);
    return root.name === name ? root : undefined;
  } catch (error) {
    if (error instanceof XmlSyntaxError) return undefined;
    throw error;
  }
}

/** The Body of a SOAP envelope, by local names (1.1 or 1.2); undefined when the text is no XML or no envelope. */
export const soapBody = (xml: string): XmlElement | undefined => first(rootNamed(xml, 'Envelope'), 'Body');

/** A path step: a local name in any namespace (`'Body'`), or a namespace URI and a local name. */
export type Step = string | readonly [ns: string, name: string];

function matches(el: XmlElement, step: Step): boolean {
  return typeof step === 'string' ? el.name === step : el.name === step[1] && el.ns === step[0];
}

/** The elements at the end of `path` below `el` (each step a child element), in document order. */
export function all(el: XmlElement | undefined, ...path: readonly Step[]): XmlElement[] {
  let current: XmlElement[] = el ? [el] : [];
  for (const step of path) {
    const next: XmlElement[] = [];
    for (const parent of current) for (const child of parent.children) if (matches(child, step)) next.push(child);
    current = next;
  }
  return current;
}

/** The first element at `path`, or undefined. */
export function first(el: XmlElement | undefined, ...path: readonly Step[]): XmlElement | undefined {
  return all(el, ...path)[0];
}

/** The trimmed text of the one element at `path` holding no elements; undefined when none, several or a parent. */
export function leafText(el: XmlElement | undefined, ...path: readonly Step[]): string | undefined {
  const found = all(el, ...path);
  return found.length === 1 && found[0].children.length === 0 ? found[0].text.trim() : undefined;
}

/** The trimmed text at `path`, or undefined when the element is absent or blank. */
export function textAt(el: XmlElement | undefined, ...path: readonly Step[]): string | undefined {
  const text = first(el, ...path)?.text.trim();
  return text ? text : undefined;
}
