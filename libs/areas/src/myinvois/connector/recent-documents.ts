/**
 * Reading Get Recent Documents (`GET /api/v1.0/documents/recent`) the way every caller needs it:
 * date filters in the SDK's UTC form, and every page until the caller has what it looks for.
 */
import type { RecentDocument, RecentDocuments } from './connector';

/** UTC without milliseconds, as the SDK's examples (`2022-11-25T01:59:10Z`). */
export function wireUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The documents of one query, page after page (newest submission first). `fetchPage` asks for a
 * page (rate-limit handling is the caller's); leaving the `for await` early stops the paging.
 */
export async function* everyRecentDocument(fetchPage: (pageNo: number) => Promise<RecentDocuments>): AsyncGenerator<RecentDocument> {
  for (let pageNo = 1; ; pageNo++) {
    const page = await fetchPage(pageNo);
    yield* page.result;
    if (pageNo >= page.metadata.totalPages || page.result.length === 0) return;
  }
}
