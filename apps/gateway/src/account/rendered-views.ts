import { createHash } from 'node:crypto';

/**
 * The printed views last made (#49), kept by what they were made from, so that a document read again (the same
 * invoice opened by both parties, a page reloaded, a client polling its PDF) is not rendered again: a 20-line PDF
 * costs ~20 ms of the event loop (pdfkit, font subsetting, zlib), so 20 of them in parallel queued for 400 ms (#49
 * bench). The key is a digest of everything the view is made from but the XML (the stored row: fields, authority
 * receipt and report state, the supplier's profile, the rendered document's SHA-256), and the XML is the document's
 * own, written once: a document whose state, receipt or supplier changed is another key, rendered afresh. Least
 * recently used first out, within `maxBytes` in all.
 */
export class RenderedViews {
  private readonly views = new Map<string, Buffer | string>();
  private bytes = 0;

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  /** The key of `view` of a document made from `inputs`. */
  static keyOf(view: 'pdf' | 'html', inputs: unknown): string {
    return `${view}:${createHash('sha256').update(JSON.stringify(inputs)).digest('base64url')}`;
  }

  /** The view made for `key` before, or made now by `make` (and kept). */
  async get<T extends Buffer | string>(key: string, make: () => Promise<T>): Promise<T> {
    const kept = this.views.get(key);
    if (kept !== undefined) {
      // Most recently used: last in the map's order.
      this.views.delete(key);
      this.views.set(key, kept);
      return kept as T;
    }
    const made = await make();
    this.keep(key, made);
    return made;
  }

  private keep(key: string, view: Buffer | string): void {
    const size = typeof view === 'string' ? Buffer.byteLength(view) : view.length;
    if (size > this.maxBytes / 4) return;
    this.views.set(key, view);
    this.bytes += size;
    for (const [oldest, old] of this.views) {
      if (this.bytes <= this.maxBytes) break;
      this.views.delete(oldest);
      this.bytes -= typeof old === 'string' ? Buffer.byteLength(old) : old.length;
    }
  }
}
