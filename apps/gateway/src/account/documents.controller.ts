import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Connections } from '../infrastructure/infrastructure.module';
import { DocumentViews } from './document-views';
import { errorResponse } from '../http/openapi';
import { Ctx, type RequestContext } from '../http/request-context';
import { AccountDocuments } from './documents.service';
import { documentListQuery } from './documents-query';
import { AREA_CODES } from '@einvoice/areas';
import { DOCUMENT_STATUSES } from '@einvoice/domain';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './page';
import { acceptedRequestSchema, documentDetailSchema, documentListSchema, documentViewContent } from './documents.openapi';

/** The account-wide view of documents (#47, docs/account-api.md): every area's, in one list. */
@ApiTags('Account (/v1)')
@ApiSecurity('x-svc-auth-key')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@Controller('v1/documents')
export class DocumentsController {
  private readonly views: DocumentViews;

  constructor(private readonly documents: AccountDocuments, connections: Connections) {
    this.views = new DocumentViews(connections);
  }

  @Get()
  @ApiOperation({
    summary: 'Documents of every area, newest first.',
    description:
      'The documents of every area of your account, sent and received, newest first by `created_at` then `id`. Page with `limit` and ' +
      '`starting_after` (the `id` of the last document of the page before): a page is the same whatever was added since, so walking ' +
      'the pages while documents arrive neither skips nor repeats one. `id` is the id the area\'s own routes read the document by. ' +
      '`status` folds both tracks: accepted (not final yet), sent, delivered (Peppol only), reported (the authority accepted it), ' +
      'failed (the delivery failed), refused (the authority refused it), cancelled, received; `authority` and `exchange` give each track.',
  })
  @ApiQuery({ name: 'area', required: false, description: `Comma-separated area codes: ${AREA_CODES.join(', ')}.`, example: 'be,pl' })
  @ApiQuery({ name: 'direction', required: false, enum: ['outgoing', 'incoming'], description: 'Sent by your suppliers, or received by them.' })
  @ApiQuery({ name: 'status', required: false, enum: DOCUMENT_STATUSES, description: 'The document\'s `status`.' })
  @ApiQuery({ name: 'supplier_id', required: false, description: 'The supplier\'s id (a UUID).', example: '5b0d2a3c-8f3e-4a57-9a51-1c1f2b8e7d10' })
  @ApiQuery({ name: 'number', required: false, description: 'The document number, exactly.', example: 'INV-2026-0042' })
  @ApiQuery({ name: 'issued_from', required: false, description: 'Issued on or after this date (YYYY-MM-DD).', example: '2026-11-01' })
  @ApiQuery({ name: 'issued_to', required: false, description: 'Issued on or before this date (YYYY-MM-DD).', example: '2026-11-30' })
  @ApiQuery({ name: 'created_from', required: false, description: 'Submitted or received on or after this day (YYYY-MM-DD, UTC).', example: '2026-11-01' })
  @ApiQuery({ name: 'created_to', required: false, description: 'Submitted or received on or before this day (YYYY-MM-DD, UTC).', example: '2026-11-30' })
  @ApiQuery({ name: 'limit', required: false, description: `1–${MAX_PAGE_LIMIT}, ${DEFAULT_PAGE_LIMIT} when absent.`, example: 20 })
  @ApiQuery({ name: 'starting_after', required: false, description: 'The `id` of the last document of the page before.', example: '0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a' })
  @ApiResponse({ status: 200, description: '`{status, data: [document], has_more}`', schema: documentListSchema })
  list(@Query() query: Record<string, unknown>, @Ctx() context: RequestContext) {
    const { filter, page } = documentListQuery(query);
    return this.documents.list(context.tenant.id, filter, page);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'One document of any area, with its timeline.',
    description:
      'The document as the list shows it, plus `timeline` (every event of its tracks in order: accepted, sent, delivered or failed with ' +
      'the Message Level Status, submitted, reported or refused with the authority\'s reference or codes, cancelled, received) and ' +
      '`links` to its area\'s own routes (the document; its XML where the area has that route; its cancellation where the area has one, `cancel`), ' +
      'which name the supplier by `supplier_header`, and to the request as accepted (`request`). Another account\'s document is a 404.',
  })
  @ApiParam({ name: 'id', description: 'The document id (a UUID).', example: '0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a' })
  @ApiResponse({ status: 200, description: '`{status, data: document + {timeline, links}}`', schema: documentDetailSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  get(@Param('id') id: string, @Ctx() context: RequestContext) {
    return this.documents.get(context.tenant.id, id);
  }

  @Get(':id/request')
  @ApiOperation({
    summary: 'The request as accepted: the body your call sent, as the service recorded it when it accepted the document.',
    description:
      'The body of the call that sent the document (`POST` to its area\'s route), as recorded in the event that accepted it (`accepted_at`): ' +
      'its fields after the area\'s defaults, with what the service added then (Spain: the record\'s `hash`, `previous_hash`, `generated_at`, ' +
      '`qr_link`, `tax_total`; Jordan: `issue_time`). Never changed afterwards (an amendment is a step of the timeline). Malaysia keeps only the ' +
      'fields the list shows of a document without a Peppol copy (`IssueDate`, `DocumentCurrencyCode`, `InvoiceTotal`, the parties\' names and TINs): ' +
      'the document as submitted is `links.xml`. Document bodies carry no credentials (those arrive with the onboarding and are sealed), ' +
      'and headers (the Idempotency-Key) are not part of it. 404: no such document in your account, or one your supplier received ' +
      '(`DOCUMENT.NO_REQUEST`).',
  })
  @ApiParam({ name: 'id', description: 'The document id (a UUID).', example: '0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a' })
  @ApiResponse({ status: 200, description: '`{status, data: {document_id, accepted_at, body}}`', schema: acceptedRequestSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  request(@Param('id') id: string, @Ctx() context: RequestContext) {
    return this.documents.request(context.tenant.id, id);
  }

  @Get(':id/pdf')
  @ApiOperation({
    summary: 'The document as people read it: a PDF, with its regime\'s QR and legends.',
    description:
      'Issuer and buyer, number and dates, every line, the tax breakdown, totals and amount due, payment means, notes and references, with labels ' +
      'in English and the language its regime asks for, and the mark its regime puts on a printed copy (the QR and legends its authority defines; ' +
      '"not yet authorised" until the authority accepts the document). A document that travels as UBL over Peppol (Belgium, Germany, Singapore, UAE, Malaysia\'s PINT MY copies) ' +
      'is PDF/A-3 with that UBL attached (AFRelationship Source), byte for byte what its area\'s XML route serves (Malaysia: `/api/einvoice/documents/{id}/peppol`). ' +
      'README "Documents people can read" says what each area shows. 404: no such document in your account, or it has no printed view ' +
      '(`DOCUMENT.NO_VIEW`: a Malaysian buyer\'s rejection request is no document).',
  })
  @ApiParam({ name: 'id', description: 'The document id (a UUID).', example: '0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a' })
  @ApiProduces('application/pdf')
  @ApiResponse({ status: 200, description: 'The PDF (A4).', content: documentViewContent.pdf })
  @ApiResponse({ status: 404, ...errorResponse })
  async pdf(@Param('id') id: string, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    const pdf = await this.views.pdf(context.tenant.id, id);
    await reply.header('content-type', 'application/pdf').header('content-disposition', `inline; filename="${id}.pdf"`).send(pdf);
  }

  @Get(':id/html')
  @ApiOperation({
    summary: 'The document as people read it: an HTML page.',
    description:
      'What the PDF shows, as one self-contained page (inline CSS, the QR as inline SVG, no script, nothing fetched), printable on A4. ' +
      '404: no such document in your account, or it has no printed view (`DOCUMENT.NO_VIEW`: a Malaysian buyer\'s rejection request is no document).',
  })
  @ApiParam({ name: 'id', description: 'The document id (a UUID).', example: '0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a' })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'The page (UTF-8).', content: documentViewContent.html })
  @ApiResponse({ status: 404, ...errorResponse })
  async html(@Param('id') id: string, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    const html = await this.views.html(context.tenant.id, id);
    // Nothing on the page runs or loads: the policy says so to the browser too.
    await reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
      .send(html);
  }
}
