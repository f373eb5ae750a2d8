/**
 * The bytes the read model does not repeat (#11: they doubled the write of every document), read from
 * the events that brought them. Rows written before keep their copy, read first.
 */

/** SQL on a pool, outside any transaction. */
type Query = (sql: string, params?: unknown[]) => Promise<unknown[]>;

/**
 * A Peppol document's UBL, from the event that brought it (`DocumentSubmitted` or `DocumentReceived`,
 * its stream's first event): the `documents` row does not repeat it (#11: it doubled the write of every
 * document). Rows written before keep it in `documents.xml`, read first. `owner`: whose embedded
 * attachments it refers to (a received copy's are its sender's). Undefined for no such document.
 */
export async function documentXml(query: Query, documentId: string): Promise<{ xml: string; owner: string } | undefined> {
  const [row] = (await query(
    `SELECT coalesce(d.xml, e.data->>'xml') AS xml, coalesce(d.source_document_id, d.id) AS owner
     FROM documents d LEFT JOIN events e ON e.stream_id = 'document-' || d.id AND e.stream_position = 1
     WHERE d.id = $1`,
    [documentId],
  )) as Array<{ xml: string | null; owner: string }>;
  return row?.xml ? { xml: row.xml, owner: row.owner } : undefined;
}

/**
 * The exact bytes a document's report sent to its authority, with their media type, from the report's
 * request (`AuthorityReportRequested.document`, its stream's first event): the `documents` row keeps only
 * their media type and hash (`rendered`). Undefined when the document has neither.
 */
export async function reportedFile(query: Query, documentId: string): Promise<{ bytes: string; mediaType: string | null } | undefined> {
  const [file] = (await query(
    `SELECT coalesce(d.rendered->>'bytes', e.data->'document'->>'bytes') AS bytes,
            coalesce(d.rendered->>'mediaType', e.data->'document'->>'mediaType') AS media_type
     FROM documents d LEFT JOIN events e ON e.stream_id = 'report-' || d.report_id AND e.stream_position = 1
     WHERE d.id = $1`,
    [documentId],
  )) as Array<{ bytes: string | null; media_type: string | null }>;
  return file?.bytes ? { bytes: file.bytes, mediaType: file.media_type } : undefined;
}
