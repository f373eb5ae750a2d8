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
