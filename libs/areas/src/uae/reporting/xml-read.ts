/**
 * A small namespace-aware XML reader for the documents this connector reads: the UBL it reports
 * (which may come from another access point, C3, with other prefixes or a default namespace), the
 * TDD (the sandbox FTA reads what it receives) and the FTA's MLS. Elements, attributes, text,
 * CDATA, comments and processing instructions; no DTD (a `<!DOCTYPE` is refused: no Peppol
 * document has one, and refusing it rules out entity expansion). Not validating.
 */

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

/** The reason a text is not well-formed XML, with where it was found. */
export class XmlSyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
    super(`${message} (at offset ${offset})`);
    this.name = 'XmlSyntaxError';
  }
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?$/;
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

function decode(text: string, offset: number): string {
  if (!text.includes('&')) return text;
  return text.replace(/&([^;&\s]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) throw new XmlSyntaxError(`Unterminated character reference "${whole}"`, offset);
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    const named = ENTITIES[ref];
    if (named === undefined) throw new XmlSyntaxError(`Unknown entity "&${ref};"`, offset);
    return named;
  });
}

interface Open {
  readonly qname: string;
  readonly attrs: Record<string, string>;
  readonly scope: ReadonlyMap<string, string>;
  readonly children: XmlElement[];
  text: string;
  readonly start: number;
}

function resolve(qname: string, scope: ReadonlyMap<string, string>, offset: number): { ns: string; name: string } {
  const colon = qname.indexOf(':');
  if (colon < 0) return { ns: scope.get('') ?? '', name: qname };
  const prefix = qname.slice(0, colon);
  const ns = prefix === 'xml' ? XML_NS : scope.get(prefix);
  if (ns === undefined) throw new XmlSyntaxError(`Undeclared namespace prefix "${prefix}"`, offset);
  return { ns, name: qname.slice(colon + 1) };
}

/** Reads the attributes of a start tag body (`a="1" b='2'`). */
function attributes(body: string, offset: number): Record<string, string> {
  const attrs: Record<string, string> = {};
  const pattern = /\s*([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/gy;
  let at = 0;
  for (let m = pattern.exec(body); m; m = pattern.exec(body)) {
    if (!NAME.test(m[1]) && !/^xmlns(:[\w.-]+)?$/.test(m[1])) throw new XmlSyntaxError(`Bad attribute name "${m[1]}"`, offset);
    if (m[1] in attrs) throw new XmlSyntaxError(`Duplicate attribute "${m[1]}"`, offset);
    const value = m[3] ?? m[4];
    if (value.includes('<')) throw new XmlSyntaxError(`"<" in the value of attribute "${m[1]}"`, offset);
    attrs[m[1]] = decode(value, offset);
    at = pattern.lastIndex;
  }
  if (body.slice(at).trim() !== '') throw new XmlSyntaxError(`Malformed attributes "${body.slice(at).trim()}"`, offset);
  return attrs;
}

function scopeOf(attrs: Record<string, string>, parent: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
  const declared = Object.entries(attrs).filter(([k]) => k === 'xmlns' || k.startsWith('xmlns:'));
  if (!declared.length) return parent;
  const scope = new Map(parent);
  for (const [k, v] of declared) scope.set(k === 'xmlns' ? '' : k.slice(6), v);
  return scope;
}

function close(open: Open, end: number): XmlElement {
  const { ns, name } = resolve(open.qname, open.scope, open.start);
  return { ns, name, attrs: open.attrs, children: open.children, text: open.text, start: open.start, end };
}

/** Parses a whole document into its root element. @throws XmlSyntaxError */
export function parseXml(source: string): XmlElement {
  const stack: Open[] = [];
  let root: XmlElement | undefined;
  let i = source.charCodeAt(0) === 0xfeff ? 1 : 0;
  const until = (token: string, from: number, what: string) => {
    const at = source.indexOf(token, from);
    if (at < 0) throw new XmlSyntaxError(`Unterminated ${what}`, from);
    return at;
  };
  while (i < source.length) {
    const lt = source.indexOf('<', i);
    const textEnd = lt < 0 ? source.length : lt;
    if (textEnd > i) {
      const text = source.slice(i, textEnd);
      if (stack.length) stack[stack.length - 1].text += decode(text, i);
      else if (text.trim() !== '') throw new XmlSyntaxError('Text outside the root element', i);
    }
    if (lt < 0) break;
    if (source.startsWith('<!--', lt)) {
      i = until('-->', lt + 4, 'comment') + 3;
    } else if (source.startsWith('<![CDATA[', lt)) {
      if (!stack.length) throw new XmlSyntaxError('CDATA outside the root element', lt);
      const end = until(']]>', lt + 9, 'CDATA section');
      stack[stack.length - 1].text += source.slice(lt + 9, end);
      i = end + 3;
    } else if (source.startsWith('<?', lt)) {
      i = until('?>', lt + 2, 'processing instruction') + 2;
    } else if (source.startsWith('<!', lt)) {
      throw new XmlSyntaxError('A DOCTYPE or other declaration is not accepted', lt);
    } else if (source.startsWith('</', lt)) {
      const end = until('>', lt, 'end tag');
      const qname = source.slice(lt + 2, end).trim();
      const open = stack.pop();
      if (!open || open.qname !== qname) throw new XmlSyntaxError(`End tag </${qname}> does not close <${open?.qname ?? ''}>`, lt);
      const element = close(open, end + 1);
      if (stack.length) stack[stack.length - 1].children.push(element);
      else root = element;
      i = end + 1;
    } else {
      if (root) throw new XmlSyntaxError('A second root element', lt);
      const end = tagEnd(source, lt);
      const selfClosing = source[end - 1] === '/';
      const inner = source.slice(lt + 1, selfClosing ? end - 1 : end);
      const qname = /^[^\s/>]+/.exec(inner)?.[0] ?? '';
      if (!NAME.test(qname)) throw new XmlSyntaxError(`Bad element name "${qname}"`, lt);
      const attrs = attributes(inner.slice(qname.length), lt);
      const scope = scopeOf(attrs, stack.length ? stack[stack.length - 1].scope : new Map());
      const open: Open = { qname, attrs, scope, children: [], text: '', start: lt };
      for (const name of Object.keys(attrs)) if (!name.startsWith('xmlns')) resolve(name, open.scope, lt);
      if (selfClosing) {
        const element = close(open, end + 1);
        if (stack.length) stack[stack.length - 1].children.push(element);
        else root = element;
      } else {
        stack.push(open);
      }
      i = end + 1;
    }
  }
  if (stack.length) throw new XmlSyntaxError(`Element <${stack[stack.length - 1].qname}> is not closed`, source.length);
  if (!root) throw new XmlSyntaxError('No root element', 0);
  return root;
}

/** The `>` ending a start tag that begins at `lt` (quoted attribute values may hold `>`). */
function tagEnd(source: string, lt: number): number {
  let quote = '';
  for (let j = lt + 1; j < source.length; j += 1) {
    const c = source[j];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      return j;
    } else if (c === '<') {
      break;
    }
  }
  throw new XmlSyntaxError('Unterminated start tag', lt);
}

/** Namespaces of the UBL family and of the Peppol documents read here. */
export const NS = {
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  cec: 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  creditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  applicationResponse: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2',
  /** The Peppol TDD (AE TDD Schematron 1.0: `pxs`). */
  pxs: 'urn:peppol:schema:taxdata:1.0',
} as const;

/** A path step: `['cac', 'AccountingSupplierParty']`. */
export type Step = readonly [prefix: keyof typeof NS, name: string];

/** The children of `el` at the end of `path` (each step a child element). */
export function all(el: XmlElement | undefined, ...path: Step[]): XmlElement[] {
  let current: XmlElement[] = el ? [el] : [];
  for (const [prefix, name] of path) {
    current = current.flatMap((c) => c.children.filter((k) => k.ns === NS[prefix] && k.name === name));
  }
  return current;
}

/** The first element at `path`, or undefined. */
export function first(el: XmlElement | undefined, ...path: Step[]): XmlElement | undefined {
  return all(el, ...path)[0];
}

/** The trimmed text at `path`, or undefined when the element is absent or blank. */
export function textAt(el: XmlElement | undefined, ...path: Step[]): string | undefined {
  const text = first(el, ...path)?.text.trim();
  return text ? text : undefined;
}
