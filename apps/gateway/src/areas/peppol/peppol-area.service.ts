import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  DocumentSubmittedData,
  SupplierOnboardedData,
  documentDecider,
  documentStreamId,
  notFound,
  supplierDecider,
  supplierStreamId,
  timeOrderedUuid,
} from '@einvoice/domain';
import { documentXml, handleCommand } from '@einvoice/domain/infrastructure';
import { PeppolAreaCode, areaOf, participantIdFor, peppolAreas } from '@einvoice/areas';
import { recordResponse } from '../../idempotency/idempotency';
import { type RequestContext, eventMetadata } from '../../http/request-context';
import { Connections } from '../../infrastructure/infrastructure.module';
import { SupplierCache, isUuid } from '../../suppliers/supplier-lookup';
import { registerSupplierParticipants } from '../../participants/supplier-participants';

interface DocumentRow {
  id: string;
  document_number: string;
  delivery_status: string;
  /** For a failed delivery: `{failure: {code, message}, mls?}` (DocumentDeliveryFailed). */
  delivery: { failure?: { code: string; message: string } } | null;
  fields: Record<string, unknown>;
}

/** Belgium, Germany, Singapore: onboarding, submission and reads (seed 002, one shape for three areas). */
@Injectable()
export class PeppolAreaService {
  private readonly suppliers = new SupplierCache();

  constructor(private readonly connections: Connections) {}

  async onboard(code: PeppolAreaCode, body: unknown, context: RequestContext) {
    const profile = peppolAreas[code].parseOnboarding(body);
    const supplierId = randomUUID();
    const data: SupplierOnboardedData = {
      supplierId,
      tenantId: context.tenant.id,
      area: code,
      profile,
      participantIds: [...new Set(profile.identifiers.map((i) => participantIdFor(i.scheme, i.id)))],
      onboardedAt: new Date().toISOString(),
    };
    const response = { status: 'success', message: 'Supplier onboarded.', data: { supplier_uuid: supplierId } };
    await this.connections.store.transaction(async (uow) => {
      // The idempotency record first: a concurrent retry with the same key waits on it and then
      // replays this answer, instead of tripping over the rows this request creates.
      await recordResponse(uow, context.idempotency, 201, response);
      await handleCommand(uow, supplierDecider, supplierStreamId(supplierId), { type: 'OnboardSupplier', data }, eventMetadata(context, areaOf(code).ruleSetId));
      await registerSupplierParticipants(uow, data, eventMetadata(context, areaOf(code).ruleSetId));
    });
    return response;
  }

  async submit(code: PeppolAreaCode, supplierHeader: string | undefined, body: unknown, context: RequestContext) {
    const area = peppolAreas[code];
    const supplier = await this.suppliers.find(this.connections.dataSource, context.tenant.id, code, supplierHeader);
    const dto = area.parseInvoice(body, supplier.profile);
    // Time-ordered: the documents and events indexes grow at their end (ids.ts).
    const documentId = timeOrderedUuid();
    const xml = area.render(dto, supplier.profile, documentId);
    const buyer = dto.CustomerParty.Identifiers[0];
    const data: DocumentSubmittedData = {
      documentId,
      tenantId: context.tenant.id,
      supplierId: supplier.id,
      area: code,
      documentNumber: dto.ID,
      documentType: String(dto.DocumentType),
      transportMode: 'peppol',
      senderParticipantId: supplier.participantIds[0] ?? '',
      receiverParticipantId: buyer ? participantIdFor(buyer.Scheme, buyer.ID) : null,
      // The DTO itself, not a plain copy of it: nothing reads it before it is written as JSON, which
      // is the same text (a JSON round trip here was 65 µs of every submission; issue 11).
      fields: dto as unknown as Record<string, unknown>,
      xml,
      submittedAt: new Date().toISOString(),
    };
    const response = { status: 'success', data: { DocumentID: documentId, DeliveryStatus: 'Scheduled' } };
    await this.connections.store.transaction(async (uow) => {
      await recordResponse(uow, context.idempotency, 202, response);
      await handleCommand(uow, documentDecider, documentStreamId(documentId), { type: 'SubmitDocument', data }, eventMetadata(context, areaOf(code).ruleSetId), { newStream: true });
    });
    return response;
  }

  async getDocument(code: PeppolAreaCode, supplierHeader: string | undefined, uuid: string, context: RequestContext) {
    const row = await this.findDocument(code, supplierHeader, uuid, context);
    return { status: 'success', data: { uuid: row.id, ...row.fields, ...failureOf(row) } };
  }

  async getXml(code: PeppolAreaCode, supplierHeader: string | undefined, uuid: string, context: RequestContext) {
    const row = await this.findDocument(code, supplierHeader, uuid, context);
    const document = await documentXml((sql, params) => this.connections.dataSource.query(sql, params), row.id);
    if (!document) throw notFound('DOCUMENT.NOT_FOUND', `No document ${uuid} for this supplier.`);
    return document.xml;
  }

  async deliveryStatus(code: PeppolAreaCode, supplierHeader: string | undefined, uuid: string, context: RequestContext) {
    const row = await this.findDocument(code, supplierHeader, uuid, context);
    return { status: 'success', data: { DocumentID: row.id, DeliveryStatus: row.delivery_status, ...failureOf(row) } };
  }

  private async findDocument(
    code: PeppolAreaCode,
    supplierHeader: string | undefined,
    uuid: string,
    context: RequestContext,
  ): Promise<DocumentRow> {
    const supplier = await this.suppliers.find(this.connections.dataSource, context.tenant.id, code, supplierHeader);
    const rows: DocumentRow[] = isUuid(uuid)
      ? await this.connections.dataSource.query(
          `SELECT id, document_number, delivery_status, delivery, fields FROM documents
           WHERE id = $1 AND supplier_id = $2 AND tenant_id = $3`,
          [uuid, supplier.id, context.tenant.id],
        )
      : [];
    if (!rows[0]) throw notFound('DOCUMENT.NOT_FOUND', `No document ${uuid} for this supplier.`);
    return rows[0];
  }
}

/**
 * A failed delivery's reason (#8, additive): `DeliveryStatus` `Failed` comes with
 * `DeliveryFailure: {code, message}` in delivery-status and get-document; nothing otherwise.
 */
function failureOf(row: DocumentRow): { DeliveryFailure?: { code: string; message: string } } {
  const failure = row.delivery_status === 'Failed' ? row.delivery?.failure : undefined;
  return failure ? { DeliveryFailure: { code: failure.code, message: failure.message } } : {};
}
