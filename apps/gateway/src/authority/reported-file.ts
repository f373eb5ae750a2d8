import type { DataSource } from 'typeorm';

/**
 * The exact bytes a document's report sent to its authority, with their media type, from the report's
 * request (`AuthorityReportRequested.document`, the stream's first event): the `documents` row keeps
 * only their media type and hash, so the bytes are written once. Rows written before that keep their
 * bytes in `rendered`, read first. Undefined when the document has neither.
 */
export async function reportedFile(dataSource: DataSource, documentId: string): Promise<{ bytes: string; mediaType: string | null } | undefined> {
  const [file]: Array<{ bytes: string | null; media_type: string | null }> = await dataSource.query(
    `SELECT coalesce(d.rendered->>'bytes', e.data->'document'->>'bytes') AS bytes,
            coalesce(d.rendered->>'mediaType', e.data->'document'->>'mediaType') AS media_type
     FROM documents d LEFT JOIN events e ON e.stream_id = 'report-' || d.report_id AND e.stream_position = 1
     WHERE d.id = $1`,
    [documentId],
  );
  return file?.bytes ? { bytes: file.bytes, mediaType: file.media_type } : undefined;
}
