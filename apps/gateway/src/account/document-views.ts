import { type SupplierProfile, notFound } from '@einvoice/domain';
import { documentXml, loadDocumentAttachments, reportedFile } from '@einvoice/domain/infrastructure';
import { type PrintableDocument, type StoredDocument, findArea, hasDetached, reattachEmbedded, renderHtml, renderPdf } from '@einvoice/areas';
import { Connections } from '../infrastructure/infrastructure.module';
import { peppolCopyXml } from '../pipeline/document-keys';
import { isUuid } from '../suppliers/supplier-lookup';
import { RenderedViews } from './rendered-views';

interface ViewRow {
  id: string;
  area: string;
  direction: 'outgoing' | 'incoming';
  document_number: string;
  document_type: string;
  fields: Record<string, unknown>;
  receipt: Record<string, unknown> | null;
  report_state: string | null;
  created_at: Date;
  profile: SupplierProfile;
  rendered_sha256: string | null;
  report_id: string | null;
}

/** What a view is made from, by version (DocumentViews.version). */
interface ViewVersion {
  id: string;
  document: string;
  supplier: string;
}

/**
 * `GET /v1/documents/{id}/pdf` and `/html` (#49): a document of any area as people read it. The tenancy
 * is the detail's (another account's document: 404); the area builds the view (`AreaDefinition.printable`)
 * from what is stored, the shared renderers (libs/areas/src/printable) print it. Made by the documents
 * controller on the module's connections (a plain class: nothing of its own to start or stop).
 */
export class DocumentViews {
  /** The views last made, by what they were made from (a document read again is not rendered again). */
  private readonly rendered = new RenderedViews();

  constructor(private readonly connections: Connections) {}

  async pdf(tenantId: string, id: string): Promise<Buffer> {
    const version = await this.version(tenantId, id);
    return this.rendered.get(RenderedViews.keyOf('pdf', version), async () => {
      const { view, createdAt } = await this.view(await this.row(version.id));
      return renderPdf(view, { createdAt });
    });
  }

  /** The page as UTF-8 bytes: encoded once when made, not on every read. */
  async html(tenantId: string, id: string): Promise<Buffer> {
    const version = await this.version(tenantId, id);
    return this.rendered.get(RenderedViews.keyOf('html', version), async () => Buffer.from(renderHtml((await this.view(await this.row(version.id))).view), 'utf8'));
  }

  /**
   * The versions of what a view is made from, in this account (else 404): the document's row and its supplier's,
   * each the id of the transaction that wrote it (`xmin`: any change of the row is a new one). A document read
   * again costs this small read, not the row's JSON (fields, receipt, the supplier's profile) parsed and digested.
   */
  private async version(tenantId: string, id: string): Promise<ViewVersion> {
    const rows: ViewVersion[] = isUuid(id)
      ? await this.connections.dataSource.query(
          `SELECT d.id, d.xmin::text AS document, s.xmin::text AS supplier FROM documents d JOIN suppliers s ON s.id = d.supplier_id WHERE d.id = $1 AND d.tenant_id = $2`,
          [id, tenantId],
        )
      : [];
    const version = rows[0];
    if (!version) throw notFound('DOCUMENT.NOT_FOUND', `No document ${id} in your account.`);
    return version;
  }

  /** The stored document whose version was just read (a later version, if it changed since: never an older one). */
  private async row(id: string): Promise<ViewRow> {
    const rows: ViewRow[] = await this.connections.dataSource.query(
      `SELECT d.id, d.area, d.direction, d.document_number, d.document_type, d.fields, d.authority -> 'receipt' AS receipt, d.report_state, d.created_at, s.profile, d.rendered ->> 'sha256' AS rendered_sha256, d.report_id
       FROM documents d JOIN suppliers s ON s.id = d.supplier_id WHERE d.id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) throw notFound('DOCUMENT.NOT_FOUND', `No document ${id} in your account.`);
    return row;
  }

  private async view(row: ViewRow): Promise<{ view: PrintableDocument; createdAt: Date }> {
    const printable = findArea(row.area)?.printable;
    if (!printable) throw notFound('DOCUMENT.NO_VIEW', `Documents of area ${row.area} have no printed view yet (issue #49).`);
    const createdAt = new Date(row.created_at);
    const stored: StoredDocument = {
      id: row.id,
      number: row.document_number,
      type: row.document_type,
      direction: row.direction,
      fields: row.fields,
      receipt: row.receipt,
      reportState: row.report_state,
      renderedSha256: row.rendered_sha256,
      xml: printable.readsXml ? await this.xml(row.id) : null,
      // Malaysia: the document as submitted (its row keeps a few listed fields) and its PINT MY copy, from its report's request.
      ...(printable.readsReported ? { reported: (await reportedFile(this.query, row.id)) ?? null } : {}),
      ...(printable.readsPeppolCopy ? { peppolCopyXml: row.report_id ? ((await peppolCopyXml(this.query, row.report_id)) ?? null) : null } : {}),
      createdAt: createdAt.toISOString(),
      supplier: row.profile,
    };
    return { view: printable.build(stored), createdAt };
  }

  private readonly query = <T>(sql: string, parameters?: unknown[]): Promise<T[]> => this.connections.dataSource.query(sql, parameters);

  /** The XML as the area's XML route serves it: as rendered or received, its detached attachments put back (UAE). */
  private async xml(documentId: string): Promise<string | null> {
    const row = await documentXml(this.query, documentId);
    if (!row) return null;
    return hasDetached(row.xml) ? reattachEmbedded(row.xml, await loadDocumentAttachments(this.query, row.owner)) : row.xml;
  }
}
