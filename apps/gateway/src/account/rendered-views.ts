/**
 * The printed views last made (#49), kept by what they were made from, so that a document read again (the same
 * invoice opened by both parties, a page reloaded, a client polling its PDF) is not rendered again: a 20-line PDF
 * costs ~20 ms of the event loop (pdfkit, font subsetting, zlib), so 20 of them in parallel queued for 400 ms (#49
 * bench). The key is the version of what the view is made from but the XML (the document's row: fields, authority
 * receipt and report state, the rendered document's SHA-256; the supplier's row: its profile), each the id of the
 * transaction that wrote it (32 bits: a number comes back only some 4 billion transactions later, long after its
 * view has left the few MB kept here), and the XML is the document's own, written once: a document whose state,
 * receipt or supplier changed is another key, rendered afresh. Until #49's bench the key was a SHA-256 of those rows' JSON:
 * reading and digesting them cost each read again more than the rest of its work in the gateway. Least recently
 * used first out, within `maxBytes` in all.
 */
export class RenderedViews {
  private readonly views = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  /** The key of `view` of document `id` made from its row's version `document` and its supplier's `supplier`. */
  static keyOf(view: 'pdf' | 'html', version: { id: string; document: string; supplier: string }): string {
    return `${view}:${version.id}:${version.document}:${version.supplier}`;
  }

  /** The view made for `key` before, or made now by `make` (and kept): bytes, as sent (a page is encoded once). */
  async get(key: string, make: () => Promise<Buffer>): Promise<Buffer> {
    const kept = this.views.get(key);
    if (kept !== undefined) {
      // Most recently used: last in the map's order.
      this.views.delete(key);
      this.views.set(key, kept);
      return kept;
    }
    const made = await make();
    this.keep(key, made);
    return made;
  }

  private keep(key: string, view: Buffer): void {
    if (view.length > this.maxBytes / 4) return;
    this.views.set(key, view);
    this.bytes += view.length;
    for (const [oldest, old] of this.views) {
      if (this.bytes <= this.maxBytes) break;
      this.views.delete(oldest);
      this.bytes -= old.length;
    }
  }
}
