import { all, first, parseXml, textAt, XmlSyntaxError } from './xml-read';

const INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';

describe('parseXml: the one XML reader', () => {
  it('given prefixes and a default namespace, then every element carries its namespace URI, not its prefix', () => {
    const root = parseXml(`<?xml version="1.0"?>
      <Invoice xmlns="${INVOICE}" xmlns:b="${CBC}"><b:ID schemeID="0235">1</b:ID><Note xmlns="urn:other">x</Note></Invoice>`);
    expect([root.ns, root.name]).toEqual([INVOICE, 'Invoice']);
    expect(root.children.map((c) => [c.ns, c.name])).toEqual([[CBC, 'ID'], ['urn:other', 'Note']]);
    expect(first(root, [CBC, 'ID'])?.attrs).toEqual({ schemeID: '0235' });
    expect(textAt(root, [CBC, 'ID'])).toBe('1');
    expect(first(root, ['urn:another', 'ID'])).toBeUndefined();
  });

  it('given entities, character references, CDATA, comments and processing instructions, then the text is what they stand for', () => {
    const root = parseXml(`\uFEFF<?xml version="1.0"?><!-- c --><r a="&lt;&amp;&quot;&#65;&#x42;" b='&apos;>'><?pi x?>a&lt;b<![CDATA[<&>]]><!-- c -->&#233;</r>`);
    expect(root.attrs).toEqual({ a: '<&"AB', b: "'>" });
    expect(root.text).toBe('a<b<&>é');
  });

  it('given numbers, then text as written, never a number; white space kept for the caller to trim', () => {
    const root = parseXml('<r><n> 007 </n><e>1e3</e><b>true</b></r>');
    expect(root.children.map((c) => c.text)).toEqual([' 007 ', '1e3', 'true']);
    expect(textAt(root, 'n')).toBe('007');
  });

  it('given self-closing and nested elements, then the children in order and the offsets of the root in the source', () => {
    const source = `<?xml version="1.0"?>\r\n<r xmlns:cac="${CAC}"><cac:A/><cac:A><cac:B/></cac:A></r>\r\n<!-- after -->\n`;
    const root = parseXml(source);
    expect(all(root, [CAC, 'A']).length).toBe(2);
    expect(all(root, [CAC, 'A'], [CAC, 'B']).length).toBe(1);
    expect(source.slice(root.start, root.end)).toBe(source.slice(source.indexOf('<r'), source.indexOf('</r>') + 4));
  });

  it('given a step by local name, then elements of that name in any namespace, each repetition in the list', () => {
    const root = parseXml('<s:Envelope xmlns:s="urn:soap"><s:Body><a:R xmlns:a="urn:a"><a:L>1</a:L><L xmlns="urn:b">2</L></a:R></s:Body></s:Envelope>');
    expect(all(root, 'Body', 'R', 'L').map((l) => l.text)).toEqual(['1', '2']);
    expect(all(root, 'Body', 'Missing', 'L')).toEqual([]);
    expect(textAt(undefined, 'Body')).toBeUndefined();
  });

  it.each([
    ['a mismatched end tag', '<a><b></a></b>'],
    ['an unclosed element', '<a><b></b>'],
    ['an undeclared prefix', '<x:a/>'],
    ['an undeclared attribute prefix', '<a x:b="1"/>'],
    ['a DOCTYPE', '<!DOCTYPE a><a/>'],
    ['an entity declared in a DOCTYPE', '<!DOCTYPE a [<!ENTITY e "boom">]><a>&e;</a>'],
    ['an external entity', '<!DOCTYPE a [<!ENTITY e SYSTEM "file:///etc/passwd">]><a>&e;</a>'],
    ['text outside the root', 'x<a/>'],
    ['two roots', '<a/><b/>'],
    ['an unknown entity', '<a>&nbsp;</a>'],
    ['a bare ampersand', '<a>fish & chips</a>'],
    ['a reference to no character', '<a>&#0;</a>'],
    ['a duplicate attribute', '<a b="1" b="2"/>'],
    ['an unquoted attribute', '<a b=1/>'],
    ['nothing', '  '],
    ['an unterminated comment', '<a><!-- </a>'],
    ['an HTTP error page that is not XML', 'Service Unavailable'],
  ])('given %s, then an XmlSyntaxError', (_what, source) => {
    expect(() => parseXml(source)).toThrow(XmlSyntaxError);
  });
});
