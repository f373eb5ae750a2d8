import { el, escapeXml, leaf, toXml } from './xml';

describe('escapeXml', () => {
  it('returns text without special characters as it is', () => {
    const text = 'Consulting services, 2026-11';
    expect(escapeXml(text)).toBe(text);
  });

  it('escapes markup and quotes and drops the characters XML 1.0 forbids', () => {
    expect(escapeXml(`A&B <c> "d" 'e'`)).toBe('A&amp;B &lt;c&gt; &quot;d&quot; &apos;e&apos;');
    expect(escapeXml('a\u0001b\u000Bc\uFFFEd\tе\n')).toBe('abcd\tе\n');
  });
});

describe('toXml', () => {
  it('writes nested elements indented, text inline, attributes in order, escaped', () => {
    const xml = toXml(el('Invoice', { xmlns: 'urn:x' },
      el('cbc:ID', {}, 'INV-1'),
      el('cac:Party', {},
        el('cbc:EndpointID', { schemeID: '0208', unused: undefined }, '0123456749'),
        el('cbc:Name', {}, 'Smith & Sons')),
      'free text'));
    expect(xml).toBe([
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<Invoice xmlns="urn:x">',
      '  <cbc:ID>INV-1</cbc:ID>',
      '  <cac:Party>',
      '    <cbc:EndpointID schemeID="0208">0123456749</cbc:EndpointID>',
      '    <cbc:Name>Smith &amp; Sons</cbc:Name>',
      '  </cac:Party>',
      '  free text',
      '</Invoice>',
      '',
    ].join('\n'));
  });

  it('drops empty elements, and parents left empty by them (PEPPOL-EN16931-R008)', () => {
    const xml = toXml(el('Root', {},
      el('Empty', { schemeID: 'x' }),
      el('Blank', {}, ''),
      el('Parent', {}, el('Child', {}, undefined, null, false), leaf('Leaf', '  ')),
      el('Kept', {}, 'a', undefined, 'b')));
    expect(xml).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<Root>\n  <Kept>ab</Kept>\n</Root>\n');
  });

  it('writes nothing but the declaration for a root without content', () => {
    expect(toXml(el('Root', {}, el('Empty', {})))).toBe('<?xml version="1.0" encoding="UTF-8"?>\n');
  });
});
