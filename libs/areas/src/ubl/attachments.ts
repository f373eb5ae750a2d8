/**
 * Embedded attachments kept out of events (issue 10: "stored once, not inside Kafka events"). An area
 * whose documents embed files (`cac:AdditionalDocumentReference/cac:Attachment/
 * cbc:EmbeddedDocumentBinaryObject`) stores their bytes once (`document_attachments`) and puts the
 * document in its events with each object's content replaced by a reference; whoever needs the whole
 * document again (the access point transmission, `…/xml`) puts the bytes back. The round trip is
 * exact: only canonical base64 (what `Buffer#toString('base64')` writes back) is detached, anything
 * else stays inline, so the document's SHA-256 is the same before and after.
 */

const EMBEDDED = /(<cbc:EmbeddedDocumentBinaryObject\b[^>]*>)([^<]*)(<\/cbc:EmbeddedDocumentBinaryObject>)/g;
/** The content of a detached object: `detached:<index>`, never valid base64 (`:` is not in its alphabet). */
const REFERENCE = /^detached:(\d{1,6})$/;

export interface DetachedDocument {
  /** The document with detached contents replaced by references. */
  readonly xml: string;
  /** Detached bytes by index: 1, 2... in document order of the embedded objects (inline ones keep their number). */
  readonly detached: ReadonlyMap<number, Buffer>;
}

/** Replaces each embedded object's canonical base64 content by a reference to its index. */
export function detachEmbedded(xml: string): DetachedDocument {
  const detached = new Map<number, Buffer>();
  let index = 0;
  const compact = xml.replace(EMBEDDED, (whole, open: string, content: string, close: string) => {
    index += 1;
    const bytes = Buffer.from(content, 'base64');
    if (content.length === 0 || bytes.toString('base64') !== content) return whole;
    detached.set(index, bytes);
    return `${open}detached:${index}${close}`;
  });
  return { xml: compact, detached };
}

/** Whether a document has detached contents to put back. */
export const hasDetached = (xml: string): boolean => xml.includes('>detached:');

/** Puts the bytes back. @throws Error when a referenced index has no bytes (a document stored half). */
export function reattachEmbedded(xml: string, contents: ReadonlyMap<number, Buffer>): string {
  return xml.replace(EMBEDDED, (whole, open: string, content: string, close: string) => {
    const reference = REFERENCE.exec(content);
    if (!reference) return whole;
    const bytes = contents.get(Number(reference[1]));
    if (!bytes) throw new Error(`Embedded attachment ${reference[1]} is missing from document_attachments.`);
    return `${open}${bytes.toString('base64')}${close}`;
  });
}
