import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ksefDefinition, ksefExamples, supplierHeaderOf } from '@einvoice/areas';
import { Public } from '../../auth/api-key.guard';
import { AreaPipeline } from '../../pipeline/area-pipeline';
import { sendAnswer } from '../../http/answer';
import { errorResponse, schemaRef } from '../../http/openapi';
import { Ctx, type RequestContext } from '../../http/request-context';
import { SeedHeader } from '../../http/seed-headers';
import { idempotencyKeyHeader } from '../../http/openapi-idempotency';
import { xmlContent } from '../../http/openapi-answers';
import { accessCodeSentSchema, ksefInvoiceSchema, ksefOnboardedSchema, ksefStatusSchema, ksefSubmittedSchema } from './ksef-openapi';

const { code, routePrefix } = ksefDefinition;
const supplierHeader = supplierHeaderOf(ksefDefinition);
/** Seed 002 lists only x-svc-auth-key on the routes about one document (`byIdAlone`): the supplier header is optional there. */
const optionalSupplier = { name: supplierHeader, required: false, description: 'Optional (the document id is enough within your account); when sent, it must be the document\'s supplier, else 404.' };
const documentIdParam = { name: 'document_id', description: 'The invoice\'s DocumentID, as generate/invoice answered it.', example: '01938a7e-5c2b-7d41-9f3e-6a1b2c3d4e5f' };
const accessCodeParam = { name: 'code', description: 'The access code the e-mail of access-code/send carried (32 characters, base64url).', example: 'q1Zk7cR0aT3vX9mB2nL5pW8sYd4fGh6J' };
/** Why a read by document id answers 404 (README.md "Headers"). */
const DOCUMENT_NOT_FOUND = '404 DOCUMENT.NOT_FOUND: no such invoice in your account (another account\'s or area\'s id is unknown here), or not the sent supplier_uuid\'s.';

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
  @ApiOperation({
    summary: 'Onboard a supplier (identifier PL:NIP, check digit verified): 201 {status, message, data: {supplier_uuid}}.',
    description: 'Registers a supplier of your account as the seller (FA(3) Podmiot1) of its invoices: its NIP (check digit verified, else 400 KSEF.NIP at identifiers[i].id), name and address in Poland (country PL). In live mode it brings its KSeF token, sealed at rest and never answered. The answer\'s supplier_uuid is the supplier_uuid header of its invoices. 409 SUPPLIER.EXISTS: your account onboarded this NIP already (the error\'s data names it).',
  })
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('KsefOnboardingBody'), examples: ksefExamples.onboard })
  @ApiResponse({ status: 201, description: 'The supplier, onboarded.', schema: ksefOnboardedSchema })
  @ApiResponse({ status: 409, ...errorResponse })
  onboard(@Body() body: unknown, @Ctx() context: RequestContext) {
    return this.pipeline.onboard(code, body, context);
  }

  @Post('generate/invoice')
  @ApiOperation({
    summary: 'Issue an invoice or a correction as FA(3): 202 {status, data: {DocumentID, Status: "Submitted"}}; the reporting worker sends it to KSeF.',
    description: 'Checks the invoice (rates per tax type, the total to the grosz, a correction\'s references, with transport_mode peppol the Peppol copy\'s BIS 3.0 rules too) and renders it as FA(3) with the supplier as Podmiot1; answers 202 Submitted at once. The reporting worker sends it to KSeF in the supplier\'s session and polls its verdict: status/{document_id} shows Accepted with the KSeF number, or Rejected with KSeF\'s reason. With transport_mode peppol, a Peppol BIS 3.0 copy goes to the buyer once KSeF accepted (withheld if it rejected). 404: no such supplier in your account. 409: an ID the supplier already used (DOCUMENT.DUPLICATE_ID), a deactivated supplier (SUPPLIER.INACTIVE), or an Idempotency-Key reused for another body.',
  })
  @ApiHeader({ name: supplierHeader, required: true, description: 'The supplier: the supplier_uuid its onboarding answered.', example: '0f8e8b1c-6a57-4d57-9d5e-2f0f3c1d9a11' })
  @ApiHeader({ name: 'transport_mode', required: true, enum: ['ksef', 'peppol'], description: 'ksef: KSeF only; peppol: KSeF, then a Peppol BIS 3.0 copy to the buyer once KSeF accepts', example: 'ksef' })
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('KsefInvoiceBody'), examples: ksefExamples.generate })
  @ApiResponse({ status: 202, description: 'Taken: Submitted to KSeF.', schema: ksefSubmittedSchema })
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
  @ApiOperation({
    summary: 'Submitted, Accepted (with KsefNumber) or Rejected (with KSeF\'s reason).',
    description: 'Where the invoice is: Submitted until KSeF\'s verdict (the worker polls KSeF every 500 ms), then Accepted with its KSeF number or Rejected with KSeF\'s code and message; with transport_mode peppol also where the Peppol copy is. ' + DOCUMENT_NOT_FOUND,
  })
  @ApiHeader(optionalSupplier)
  @ApiParam(documentIdParam)
  @ApiResponse({ status: 200, description: 'The invoice\'s status.', schema: ksefStatusSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  status(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('document_id') id: string, @Ctx() context: RequestContext) {
    return this.pipeline.document(code, supplier, id, context, 'status');
  }

  @Get('retrieve/:document_id')
  @ApiOperation({
    summary: 'The invoice: ID, IssueDate, TotalIncludingVat, CustomerParty, Status, KsefNumber once accepted, and KSeF\'s verification link (QrLink).',
    description: 'The invoice as sent, with its status as status/{document_id} shows it and KSeF\'s verification link (KOD I) of its FA(3) file, to print as the invoice\'s QR. ' + DOCUMENT_NOT_FOUND,
  })
  @ApiHeader(optionalSupplier)
  @ApiParam(documentIdParam)
  @ApiResponse({ status: 200, description: 'The invoice.', schema: ksefInvoiceSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  retrieve(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('document_id') id: string, @Ctx() context: RequestContext) {
    return this.pipeline.document(code, supplier, id, context, 'retrieve');
  }

  @Post('access-code/send')
  @HttpCode(200)
  @ApiOperation({
    summary: 'E-mail a single-use, expiring access code to the invoice, body {document_id, recipient_email}: the mail carries the code and its link (GET shared/{code}).',
    description: 'A service of this gateway, not of KSeF: makes a random code (only its SHA-256 is kept) that opens the invoice and its XML without an API key, valid 72 hours (ACCESS_CODE_TTL_HOURS) and used up 15 minutes after its first use (ACCESS_CODE_USE_MINUTES), and e-mails it with its links. The answer is recorded for an Idempotency-Key retry only once the mail went. ' + DOCUMENT_NOT_FOUND + ' 503: no mail server configured or reachable.',
  })
  @ApiHeader(optionalSupplier)
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('AccessCodeBody'), examples: ksefExamples.accessCode })
  @ApiResponse({ status: 200, description: 'The code was mailed.', schema: accessCodeSentSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 503, ...errorResponse })
  sendAccessCode(@SeedHeader(supplierHeader) supplier: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext) {
    return this.pipeline.shareDocument(code, supplier, body, context);
  }

  @Get('shared/:code')
  @Public()
  @ApiOperation({
    summary: 'The invoice an access code opens, without an API key (as retrieve shows it); a wrong, expired or used-up code: 404.',
    description: 'For the recipient of an access-code/send e-mail: the invoice as retrieve/{document_id} shows it. The first use starts the code\'s 15 minutes; a wrong, expired or used-up code is the same 404 SHARE.NOT_FOUND, saying nothing of why.',
  })
  @ApiParam(accessCodeParam)
  @ApiResponse({ status: 200, description: 'The invoice.', schema: ksefInvoiceSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  shared(@Param('code') accessCode: string) {
    return this.pipeline.sharedDocument(code, accessCode, 'retrieve');
  }

  @Get('shared/:code/xml')
  @Public()
  @ApiOperation({
    summary: 'The FA(3) XML an access code opens, without an API key.',
    description: 'For the recipient of an access-code/send e-mail: the FA(3) file exactly as sent to KSeF. A wrong, expired or used-up code: 404 SHARE.NOT_FOUND.',
  })
  @ApiParam(accessCodeParam)
  @ApiResponse({ status: 200, description: 'The FA(3) XML as sent to KSeF.', content: xmlContent })
  @ApiResponse({ status: 404, ...errorResponse })
  async sharedXml(@Param('code') accessCode: string, @Res() reply: FastifyReply) {
    const file = await this.pipeline.sharedFile(code, accessCode);
    await reply.status(200).header('content-type', `${file.mediaType}; charset=utf-8`).send(file.bytes);
  }

  @Get('retrieve/:document_id/xml')
  @ApiOperation({
    summary: 'The FA(3) XML exactly as sent to KSeF.',
    description: 'The invoice\'s FA(3) file (namespace http://crd.gov.pl/wzor/2025/06/25/13775/), byte for byte as the reporting worker sent it to KSeF: its SHA-256 is the one QrLink names. ' + DOCUMENT_NOT_FOUND,
  })
  @ApiHeader(optionalSupplier)
  @ApiParam(documentIdParam)
  @ApiResponse({ status: 200, description: 'The FA(3) XML as sent to KSeF.', content: xmlContent })
  @ApiResponse({ status: 404, ...errorResponse })
  async xml(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('document_id') id: string, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    const file = await this.pipeline.documentFile(code, supplier, id, context);
    await reply.status(200).header('content-type', `${file.mediaType}; charset=utf-8`).send(file.bytes);
  }
}
