import { createHash, randomBytes } from 'node:crypto';
import { notFound } from '@einvoice/domain';
import { areaOf, validateBody } from '@einvoice/areas';
import type { RequestContext } from '../http/request-context';
import { recordResponse } from '../idempotency/idempotency';
import type { Connections } from '../infrastructure/infrastructure.module';
import type { Mailer } from '../mail/mailer';
import { AccessCodeBody } from './access-code.dto';
import type { DocumentRow, DocumentRows } from './document-rows';

/**
 * Documents shared by access code (Poland's `access-code/send`, `shared/{code}`): the code is the
 * credential of whoever it was mailed to, so the routes it opens take no API key.
 */
export class DocumentShares {
  constructor(
    private readonly connections: Connections,
    private readonly rows: DocumentRows,
    private readonly mailer: Mailer,
  ) {}

  /**
   * Sends an access code to one document: a random code whose SHA-256 alone is kept
   * (`document_shares`), valid ACCESS_CODE_TTL_HOURS (72) and, from its first use,
   * ACCESS_CODE_USE_MINUTES (15); then mailed with its link, outside any transaction; the answer is
   * recorded for an Idempotency-Key replay only once the mail went.
   */
  async share(code: string, supplierRef: string | undefined, body: unknown, context: RequestContext) {
    const area = areaOf(code);
    const { document_id: documentId, recipient_email: to } = validateBody(AccessCodeBody, body);
    const row = await this.rows.own(code, supplierRef, documentId, context);
    const accessCode = randomBytes(24).toString('base64url');
    const codeHash = createHash('sha256').update(accessCode).digest('hex');
    const ttlHours = Number(process.env.ACCESS_CODE_TTL_HOURS ?? 72);
    const [share]: Array<{ expires_at: Date }> = await this.connections.dataSource.query(
      `INSERT INTO document_shares (code_hash, document_id, tenant_id, supplier_id, area, recipient_email, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(hours => $7)) RETURNING expires_at`,
      [codeHash, row.id, context.tenant.id, row.supplier_id, code, to, ttlHours],
    );
    const base = process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
    const link = `${base}/${area.routePrefix}/shared/${accessCode}`;
    const expires = new Date(share.expires_at).toISOString();
    await this.mailer.send({
      to,
      subject: `Invoice ${row.document_number}`,
      text: `An invoice has been shared with you: ${row.document_number}.\n\nAccess code: ${accessCode}\nOpen it here (until ${expires}): ${link}\nThe XML as sent: ${link}/xml\n`,
    });
    const response = { status: 'success', message: `The access code to document ${row.id} was sent to ${to}; it expires at ${expires}.` };
    await this.connections.store.transaction(async (uow) => {
      await uow.write(`UPDATE document_shares SET sent_at = now() WHERE code_hash = $1`, [codeHash]);
      await recordResponse(uow, context.idempotency, 200, response);
    });
    return response;
  }

  /** A valid code's document: known, not expired, not used up; else 404 with nothing said about why. */
  async open(code: string, accessCode: string): Promise<DocumentRow> {
    const codeHash = createHash('sha256').update(String(accessCode)).digest('hex');
    const [share]: Array<{ document_id: string; supplier_id: string; tenant_id: string }> = await this.connections.dataSource.query(
      `WITH opened AS (
         UPDATE document_shares SET first_used_at = coalesce(first_used_at, now())
         WHERE code_hash = $1 AND area = $2 AND expires_at > now()
           AND (first_used_at IS NULL OR first_used_at > now() - make_interval(mins => $3))
         RETURNING document_id, supplier_id, tenant_id)
       SELECT * FROM opened`,
      [codeHash, code, Number(process.env.ACCESS_CODE_USE_MINUTES ?? 15)],
    );
    const row = share ? await this.rows.read(share.document_id, share.supplier_id, share.tenant_id) : undefined;
    if (!row) throw notFound('SHARE.NOT_FOUND', 'No such access code, or it has expired or been used up.');
    return row;
  }
}
