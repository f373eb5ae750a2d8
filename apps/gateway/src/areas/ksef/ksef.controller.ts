import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ksefDefinition, supplierHeaderOf } from '@einvoice/areas';
import { Public } from '../../auth/api-key.guard';
import { AreaPipeline } from '../../pipeline/area-pipeline';
import { sendAnswer } from '../../http/answer';
import { errorResponse, schemaRef } from '../../http/openapi';
import { Ctx, type RequestContext } from '../../http/request-context';
import { SeedHeader } from '../../http/seed-headers';

const { code, routePrefix } = ksefDefinition;
const supplierHeader = supplierHeaderOf(ksefDefinition);
/** Seed 002 lists only x-svc-auth-key on the routes about one document (`byIdAlone`): the supplier header is optional there. */
const optionalSupplier = { name: supplierHeader, required: false, description: 'Optional (the document id is enough within your account); when sent, it must be the document\'s supplier, else 404.' };

/** Poland, KSeF 2.0 (seed 002 "Poland", libs/areas/src/ksef/README.md): the platform's reporting routes. */
@ApiTags(`${ksefDefinition.name} (/${routePrefix})`)
@ApiSecurity('x-svc-auth-key')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@Controller(routePrefix)
export class KsefController {
  constructor(private readonly pipeline: AreaPipeline) {}

  @Post('onboard')
  @HttpCode(201)
  @ApiOperation({ summary: 'Onboard a supplier (identifier PL:NIP, check digit verified): 201 {status, message, data: {supplier_uuid}}.' })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('KsefOnboardingBody'))
  onboard(@Body() body: unknown, @Ctx() context: RequestContext) {
    return this.pipeline.onboard(code, body, context);
  }

  @Post('generate/invoice')
  @ApiOperation({ summary: 'Issue an invoice or a correction as FA(3): 202 {status, data: {DocumentID, Status: "Submitted"}}; the reporting worker sends it to KSeF.' })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiHeader({ name: 'transport_mode', required: true, enum: ['ksef', 'peppol'], description: 'ksef: KSeF only; peppol: KSeF, then a Peppol BIS 3.0 copy to the buyer once KSeF accepts' })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('KsefInvoiceBody'))
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async generate(
    @SeedHeader(supplierHeader) supplier: string | undefined,
    @SeedHeader('transport_mode') transportMode: string | undefined,
    @Body() body: unknown,
    @Ctx() context: RequestContext,
    @Res() reply: FastifyReply,
  ) {
    await sendAnswer(reply, await this.pipeline.submit(code, supplier, body, context, transportMode));
  }

  @Get('status/:document_id')
  @ApiOperation({ summary: 'Submitted, Accepted (with KsefNumber) or Rejected (with KSeF\'s reason).' })
  @ApiHeader(optionalSupplier)
  @ApiResponse({ status: 404, ...errorResponse })
  status(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('document_id') id: string, @Ctx() context: RequestContext) {
    return this.pipeline.document(code, supplier, id, context, 'status');
  }

  @Get('retrieve/:document_id')
  @ApiOperation({ summary: 'The invoice: ID, IssueDate, TotalIncludingVat, CustomerParty, Status, KsefNumber once accepted, and KSeF\'s verification link (QrLink).' })
  @ApiHeader(optionalSupplier)
  @ApiResponse({ status: 404, ...errorResponse })
  retrieve(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('document_id') id: string, @Ctx() context: RequestContext) {
    return this.pipeline.document(code, supplier, id, context, 'retrieve');
  }

  @Post('access-code/send')
  @HttpCode(200)
  @ApiOperation({ summary: 'E-mail a single-use, expiring access code to the invoice, body {document_id, recipient_email}: the mail carries the code and its link (GET shared/{code}).' })
  @ApiHeader(optionalSupplier)
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('AccessCodeBody'))
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 503, ...errorResponse })
  sendAccessCode(@SeedHeader(supplierHeader) supplier: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext) {
    return this.pipeline.shareDocument(code, supplier, body, context);
  }

  @Get('shared/:code')
  @Public()
  @ApiOperation({ summary: 'The invoice an access code opens, without an API key (as retrieve shows it); a wrong, expired or used-up code: 404.' })
  @ApiResponse({ status: 404, ...errorResponse })
  shared(@Param('code') accessCode: string) {
    return this.pipeline.sharedDocument(code, accessCode, 'retrieve');
  }

  @Get('shared/:code/xml')
  @Public()
  @ApiOperation({ summary: 'The FA(3) XML an access code opens, without an API key.' })
  @ApiResponse({ status: 200, description: 'application/xml' })
  @ApiResponse({ status: 404, ...errorResponse })
  async sharedXml(@Param('code') accessCode: string, @Res() reply: FastifyReply) {
    const file = await this.pipeline.sharedFile(code, accessCode);
    await reply.status(200).header('content-type', `${file.mediaType}; charset=utf-8`).send(file.bytes);
  }

  @Get('retrieve/:document_id/xml')
  @ApiOperation({ summary: 'The FA(3) XML exactly as sent to KSeF.' })
  @ApiHeader(optionalSupplier)
  @ApiResponse({ status: 200, description: 'application/xml' })
  @ApiResponse({ status: 404, ...errorResponse })
  async xml(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('document_id') id: string, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    const file = await this.pipeline.documentFile(code, supplier, id, context);
    await reply.status(200).header('content-type', `${file.mediaType}; charset=utf-8`).send(file.bytes);
  }
}
