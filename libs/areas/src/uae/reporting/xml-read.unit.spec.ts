import { NS, all, first, parseXml, textAt, XmlSyntaxError } from './xml-read';

describe('parseXml: the reader of the UBL, TDD and MLS documents', () => {
  it('given prefixes and a default namespace, then every element carries its namespace URI, not its prefix', () => {
    const root = parseXml(`<?xml version="1.0"?>
      <Invoice xmlns="${NS.invoice}" xmlns:b="${NS.cbc}"><b:ID schemeID="0235">1</b:ID><Note xmlns="urn:other">x</Note></Invoice>`);
    expect([root.ns, root.name]).toEqual([NS.invoice, 'Invoice']);
    expect(root.children.map((c) => [c.ns, c.name])).toEqual([[NS.cbc, 'ID'], ['urn:other', 'Note']]);
    expect(first(root, ['cbc', 'ID'])?.attrs).toEqual({ schemeID: '0235' });
    expect(textAt(root, ['cbc', 'ID'])).toBe('1');
  });

  it('given entities, character references, CDATA, comments and processing instructions, then the text is what they stand for', () => {
    const root = parseXml(`\uFEFF<?xml version="1.0"?><!-- c --><r a="&lt;&amp;&quot;&#65;&#x42;" b='&apos;>'><?pi x?>a&lt;b<![CDATA[<&>]]><!-- c -->&#233;</r>`);
    expect(root.attrs).toEqual({ a: '<&"AB', b: "'>" });
    expect(root.text).toBe('a<b<&>é');
  });

  it('given self-closing and nested elements, then the children in order and the offsets of the root in the source', () => {
    const source = `<?xml version="1.0"?>\n<r xmlns:cac="${NS.cac}"><cac:A/><cac:A><cac:B/></cac:A></r>\n`;
    const root = parseXml(source);
    expect(all(root, ['cac', 'A']).length).toBe(2);
    expect(all(root, ['cac', 'A'], ['cac', 'B']).length).toBe(1);
    expect(source.slice(root.start, root.end)).toBe(source.trim().slice(source.indexOf('<r')));
  });

  it.each([
    ['a mismatched end tag', '<a><b></a></b>'],
    ['an unclosed element', '<a><b></b>'],
    ['an undeclared prefix', '<x:a/>'],
    ['an undeclared attribute prefix', '<a x:b="1"/>'],
    ['a DOCTYPE', '<!DOCTYPE a><a/>'],
    ['text outside the root', 'x<a/>'],
    ['two roots', '<a/><b/>'],
    ['an unknown entity', '<a>&nbsp;</a>'],
    ['a bare ampersand', '<a>fish & chips</a>'],
    ['a duplicate attribute', '<a b="1" b="2"/>'],
    ['an unquoted attribute', '<a b=1/>'],
    ['nothing', '  '],
    ['an unterminated comment', '<a><!-- </a>'],
  ])('given %s, then an XmlSyntaxError', (_what, source) => {
    expect(() => parseXml(source)).toThrow(XmlSyntaxError);
  });
});
