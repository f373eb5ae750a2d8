import { detachEmbedded, hasDetached, reattachEmbedded } from './attachments';

const object = (content: string, name = 'a.pdf') =>
  `<cac:AdditionalDocumentReference><cbc:ID>R</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="${name}">${content}</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference>`;
const pdf = Buffer.from('%PDF-1.4 the first file').toString('base64');
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]).toString('base64');

describe('embedded attachments out of events and back', () => {
  it('given two embedded objects, when detached, then both are references numbered in document order and the round trip is exact', () => {
    const xml = `<Invoice>${object(pdf)}${object(png, 'b.png')}</Invoice>`;
    const { xml: compact, detached } = detachEmbedded(xml);
    expect(compact).not.toContain(pdf);
    expect(compact).toContain('>detached:1<');
    expect(compact).toContain('>detached:2<');
    expect([...detached.keys()]).toEqual([1, 2]);
    expect(detached.get(2)).toEqual(Buffer.from(png, 'base64'));
    expect(hasDetached(compact)).toBe(true);
    expect(reattachEmbedded(compact, detached)).toBe(xml);
  });

  it('given base64 that would not come back the same (line breaks), when detached, then it stays inline and keeps its number', () => {
    const wrapped = `${pdf.slice(0, 8)}\n${pdf.slice(8)}`;
    const xml = `<Invoice>${object(wrapped)}${object(png)}</Invoice>`;
    const { xml: compact, detached } = detachEmbedded(xml);
    expect(compact).toContain(wrapped);
    expect([...detached.keys()]).toEqual([2]);
    expect(reattachEmbedded(compact, detached)).toBe(xml);
  });

  it('given a document without embedded objects, then nothing changes', () => {
    const xml = '<Invoice><cbc:ID>1</cbc:ID></Invoice>';
    expect(detachEmbedded(xml)).toEqual({ xml, detached: new Map() });
    expect(hasDetached(xml)).toBe(false);
  });

  it('given a reference whose bytes are missing, when reattached, then it fails loudly instead of sending a broken document', () => {
    const { xml } = detachEmbedded(`<Invoice>${object(pdf)}</Invoice>`);
    expect(() => reattachEmbedded(xml, new Map())).toThrow('Embedded attachment 1 is missing');
  });
});
