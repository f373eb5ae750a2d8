/** Reads and writes `document_attachments` (migration 1732200000026). */
type Query = (sql: string, parameters?: unknown[]) => Promise<unknown>;

export interface StoredAttachment {
  readonly index: number;
  readonly filename: string;
  readonly mimeCode: string;
  readonly bytes: Buffer;
}

/** Stores a document's attachments, in the transaction that stores the document. */
export async function storeDocumentAttachments(query: Query, documentId: string, attachments: readonly StoredAttachment[]): Promise<void> {
  for (const a of attachments) {
    await query(
      `INSERT INTO document_attachments (document_id, index, filename, mime_code, size_bytes, content) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (document_id, index) DO NOTHING`,
      [documentId, a.index, a.filename, a.mimeCode, a.bytes.length, a.bytes],
    );
  }
}

/** A document's attachment bytes by index (the sender's document id for a received copy). */
export async function loadDocumentAttachments(query: Query, documentId: string): Promise<Map<number, Buffer>> {
  const rows = (await query(`SELECT index, content FROM document_attachments WHERE document_id = $1`, [documentId])) as Array<{ index: number; content: Buffer }>;
  return new Map(rows.map((r) => [r.index, r.content]));
}
