import { Body, Controller, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { areaOf, supplierHeaderOf } from '@einvoice/areas';
import type { FastifyReply } from 'fastify';
import { Ctx } from '../../http/request-context';
import { SeedHeader, seedHeader } from '../../http/seed-headers';
import type { RequestContext } from '../../http/request-context';
import { MyInvoisSubmissionService } from './submission.service';
import { AreaPipeline } from '../../pipeline/area-pipeline';
import { sendAnswer as send } from '../../http/answer';
import { errorResponse, schemaRef } from '../../http/openapi';
import { RawDocument, digestHeaders, rawDocument } from './raw-documents';

const submitted =
  '`{status:"submitted", data:{submissionId, submissionResponse:{submissionUid, acceptedDocuments:[{uuid, invoiceCodeNumber}], rejectedDocuments:[{invoiceCodeNumber, error:{code, message, target, propertyPath, details}}], pendingDocuments:[]}}}`';
const pending = 'MyInvois did not answer within MYINVOIS_WAIT_MS: the same shape, `pendingDocuments:[{documentId, invoiceCodeNumber, href}]` to poll';

/** The exact text as sent, with its SHA-256 (`Repr-Digest`, `X-Document-Hash`): never re-serialised. */
async function sendRaw(reply: FastifyReply, document: RawDocument): Promise<void> {
  await reply.status(200).headers(digestHeaders(document)).send(document.bytes);
}

const { code } = areaOf('my');

const digestHeaderDocs = {
  'Repr-Digest': { description: 'RFC 9530: `sha-256=:<base64 of the SHA-256 of the body>:`', schema: { type: 'string' } },
  'X-Document-Hash': { description: 'The same SHA-256 in lower-case hex (the MyInvois `documentHash` form)', schema: { type: 'string' } },
};

const supplierHeader = supplierHeaderOf(areaOf('my'));

/**
 * Malaysian area, submission (#4): single, bulk, consolidated, self-billed (its own: a submission holds
 * several documents); the document's state, its files and its cancellation through the pipeline's routes.
 */
@ApiTags('Malaysia (/api/einvoice)')
@ApiSecurity('x-svc-auth-key')
@ApiHeader({ name: supplierHeader, required: true })
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@ApiResponse({ status: 404, ...errorResponse })
@Controller('api/einvoice')
export class MyInvoisSubmissionController {
  constructor(
    private readonly service: MyInvoisSubmissionService,
    private readonly pipeline: AreaPipeline,
  ) {}

  @Post('generate/invoice')
  @HttpCode(200)
  @ApiOperation({ summary: 'Submit one document to MyInvois (a refused document is a 400, a reused ID a 409).' })
  @ApiHeader({ name: 'transport_mode', required: true, enum: ['peppol', 'myinvois'], description: 'peppol: MyInvois, then the PINT MY copy over Peppol once valid; myinvois: MyInvois only' })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('InvoiceDocument'))
  @ApiResponse({ status: 200, description: submitted })
  @ApiResponse({ status: 202, description: pending })
  @ApiResponse({ status: 409, ...errorResponse })
  @ApiResponse({ status: 413, ...errorResponse })
  async single(@Headers() headers: Record<string, string>, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await send(reply, await this.service.submit('invoice', 'single', of(headers), body, context));
  }

  @Post('generate/invoice/bulk')
  @HttpCode(200)
  @ApiOperation({ summary: 'Submit 1 to 100 documents (5 MB, 300 KB each) as one MyInvois submission; refusals are per document.' })
  @ApiHeader({ name: 'transport_mode', required: true, enum: ['peppol', 'myinvois'], description: 'peppol: MyInvois, then the PINT MY copy over Peppol once valid; myinvois: MyInvois only' })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiResponse({ status: 200, description: submitted })
  @ApiBody({ schema: { type: 'array', maxItems: 100, items: { $ref: '#/components/schemas/InvoiceDocument' } } })
  @ApiResponse({ status: 202, description: pending })
  @ApiResponse({ status: 413, ...errorResponse })
  async bulk(@Headers() headers: Record<string, string>, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await send(reply, await this.service.submit('invoice', 'bulk', of(headers), body, context));
  }

  @Post('generate/invoice/consolidated')
  @HttpCode(200)
  @ApiOperation({ summary: 'Submit a consolidated general-public document (buyer TIN EI00000000010).' })
  @ApiHeader({ name: 'transport_mode', required: true, enum: ['peppol', 'myinvois'], description: 'peppol: MyInvois, then the PINT MY copy over Peppol once valid; myinvois: MyInvois only' })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiResponse({ status: 200, description: submitted })
  @ApiResponse({ status: 202, description: pending })
  @ApiBody(schemaRef('ConsolidatedDocument'))
  @ApiResponse({ status: 409, ...errorResponse })
  async consolidated(@Headers() headers: Record<string, string>, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await send(reply, await this.service.submit('consolidated', 'single', of(headers), body, context));
  }

  @Post('generate/invoice/self-billed')
  @HttpCode(200)
  @ApiOperation({ summary: 'Submit a self-billed document (the supplier_uuid taxpayer is the buyer; SupplierParty the seller). Path not shown in the seed: ours.' })
  @ApiHeader({ name: 'transport_mode', required: true, enum: ['peppol', 'myinvois'], description: 'peppol: MyInvois, then the PINT MY copy over Peppol once valid; myinvois: MyInvois only' })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('SelfBilledDocument'))
  @ApiResponse({ status: 200, description: submitted })
  @ApiResponse({ status: 202, description: pending })
  @ApiResponse({ status: 409, ...errorResponse })
  async selfBilled(@Headers() headers: Record<string, string>, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await send(reply, await this.service.submit('self-billed', 'single', of(headers), body, context));
  }

  @Post('documents/:id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a valid (or rejected_by_buyer) document at MyInvois (within 72 h of validation), body `{reason}`.' })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiParam({ name: 'id', description: 'Our documentId, the MyInvois uuid, or the document `ID`' })
  @ApiBody(schemaRef('ReasonBody'))
  @ApiResponse({ status: 200, description: '`{status:"success", data:{documentId, state:"cancelled", ...}}`' })
  @ApiResponse({ status: 202, description: '`{status:"pending", data:{documentId, state:"cancelling", href}}`: poll GET' })
  @ApiResponse({ status: 409, ...errorResponse })
  async cancel(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await send(reply, await this.pipeline.cancel(code, supplier, id, body, context));
  }

  @Get('documents/:id')
  @ApiOperation({ summary: "A submitted document's state (pending, submitted, rejected, valid, invalid, cancelling, cancelled, rejected_by_buyer), MyInvois uuid, longId, submissionUid, the buyer's rejection." })
  @ApiParam({ name: 'id', description: 'Our documentId, the MyInvois uuid, or the document `ID`' })
  @ApiResponse({
    status: 200,
    description:
      '`{status:"success", data:{documentId, invoiceCodeNumber, kind, state, uuid, longId, submissionUid, error, validatedAt, rejectedByBuyer:{reason, requestedAt}|null, peppol}}`; ' +
      '`peppol` (transport_mode: peppol) is `{documentId, deliveryStatus: awaiting_validation | Scheduled | Delivered | withheld, reason}` or null',
  })
  document(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('id') id: string, @Ctx() context: RequestContext) {
    return this.pipeline.document(code, supplier, id, context);
  }

  @Get('documents/:id/raw')
  @ApiOperation({ summary: 'The exact document submitted to MyInvois (the bytes its documentHash covers), JSON or XML as submitted.' })
  @ApiParam({ name: 'id', description: 'Our documentId, the MyInvois uuid, or the document `ID`' })
  @ApiProduces('application/json', 'application/xml')
  @ApiResponse({ status: 200, description: 'The document bytes; SHA-256 in `Repr-Digest` and `X-Document-Hash`.', headers: digestHeaderDocs })
  async raw(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('id') id: string, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    const file = await this.pipeline.documentFile(code, supplier, id, context);
    await sendRaw(reply, rawDocument(file.bytes, `${file.mediaType}; charset=utf-8`));
  }

  @Get('documents/:id/peppol')
  @ApiOperation({ summary: 'The PINT MY XML of the document\'s Peppol copy (transport_mode: peppol), sent or not yet (GET documents/{id} `peppol` says); 404 DOCUMENT.NO_PEPPOL_COPY without one.' })
  @ApiParam({ name: 'id', description: 'Our documentId, the MyInvois uuid, or the document `ID`' })
  @ApiProduces('application/xml')
  @ApiResponse({ status: 200, description: 'The PINT MY XML; SHA-256 in `Repr-Digest` and `X-Document-Hash`.', headers: digestHeaderDocs })
  async peppol(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('id') id: string, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendRaw(reply, rawDocument(await this.pipeline.peppolCopyFile(code, supplier, id, context), 'application/xml; charset=utf-8'));
  }
}

function of(headers: Record<string, string | undefined>) {
  return { supplier: seedHeader(headers, supplierHeader), transportMode: seedHeader(headers, 'transport_mode') };
}
