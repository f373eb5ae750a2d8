import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { jofotaraDefinition, jofotaraExamples, supplierHeaderOf } from '@einvoice/areas';
import { AreaPipeline } from '../../pipeline/area-pipeline';
import { sendAnswer } from '../../http/answer';
import { errorResponse, schemaRef } from '../../http/openapi';
import { Ctx, type RequestContext } from '../../http/request-context';
import { SeedHeader } from '../../http/seed-headers';
import { pendingAnswer, xmlFileAnswer } from '../reporting-openapi';
import { idempotencyKeyHeader } from '../../http/openapi-idempotency';
import {
  jofotaraClearedSchema, jofotaraDocumentSchema, jofotaraOnboardedSchema, jofotaraParticipantHeader, jofotaraUuidParam,
} from './jofotara-openapi';

const { code, routePrefix } = jofotaraDefinition;
const supplierHeader = supplierHeaderOf(jofotaraDefinition);
const participantHeader = { name: supplierHeader, required: true, ...jofotaraParticipantHeader };
const pending = pendingAnswer(jofotaraDefinition.documentsPath ?? '', 'INV-1764547200');

/** Jordan, JoFotara (seed 002 "Jordan", libs/areas/src/jofotara/README.md): the platform's reporting routes. */
@ApiTags(`${jofotaraDefinition.name} (/${routePrefix})`)
@ApiSecurity('x-svc-auth-key')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@Controller(routePrefix)
export class JofotaraController {
  constructor(private readonly pipeline: AreaPipeline) {}

  @Post('supplier/onboard')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Onboard a supplier\'s JoFotara device (client id and secret checked with the portal, then sealed): 201 {status, message, data: {supplier_name, participant_id}}.',
    description:
      'The client id and secret are checked with JoFotara first (an empty invoice, which it refuses with 400 for valid credentials and 403 for others): refused → 400 at `client_id` (`JOFOTARA.403`), nothing stored. Then the supplier is stored with its TIN, income source and device class, the credentials sealed (never returned), and its `participant_id` answered: the `participant-id` header of its invoices. The same TIN onboarded again by your account: 409 `SUPPLIER.EXISTS` naming the supplier.',
  })
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('JofotaraOnboardingBody'), examples: jofotaraExamples.onboard })
  @ApiResponse({ status: 201, description: 'Onboarded.', schema: jofotaraOnboardedSchema })
  @ApiResponse({ status: 409, ...errorResponse })
  onboard(@Body() body: unknown, @Ctx() context: RequestContext) {
    return this.pipeline.onboard(code, body, context);
  }

  @Post('einvoice/generate')
  @ApiOperation({
    summary: 'Issue an invoice cleared by JoFotara: 200 {status, message: {uuid, qr_code}}; JoFotara\'s refusal: 400 with its errors; no answer within the wait: 202 with the link.',
    description:
      'The body is checked (rates, categories, discounts, the buyer\'s identifier and name), the invoice takes the next ICV of the supplier\'s device and is rendered in JoFotara\'s UBL 2.1 profile; the reporting worker sends it and the answer waits for JoFotara\'s verdict (AUTHORITY_WAIT_MS): cleared → 200 with its uuid and QR; refused → 400 `AUTHORITY.REJECTED` with each of JoFotara\'s errors (`code` = its `EINV_CODE`), and the number is free again; no verdict in time → 202 with where to read it (the worker keeps trying, never twice: a resend is ALREADY_SUBMITTED). 404: no such supplier; 409: `invoice_ref_number` used already, or the supplier is deactivated (`SUPPLIER.INACTIVE`). A retry with the same Idempotency-Key answers the same.',
  })
  @ApiHeader(participantHeader)
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('JofotaraInvoiceBody'), examples: jofotaraExamples.generate })
  @ApiResponse({ status: 200, description: 'Cleared by JoFotara.', schema: jofotaraClearedSchema })
  @ApiResponse({ status: 202, ...pending })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async generate(@SeedHeader(supplierHeader) participant: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendAnswer(reply, await this.pipeline.submit(code, participant, body, context, 'invoice'));
  }

  @Post('einvoice/generate/credit-note')
  @ApiOperation({
    summary: 'A credit note returning quantities of an invoice\'s lines (never more than sold): the same answers as generate.',
    description:
      'Only quantities of the original invoice\'s lines come back, at its prices, rates and pro-rata discounts (InvoiceTypeCode 381, `BillingReference` to the original, the reason in `PaymentMeans/InstructionNote`). The original must be a cleared invoice of the supplier: unknown → 404, not cleared → 400 at `original_uuid`; a line returning more than it sold → 400 at `returned_lines[i].quantity` (JoFotara counts over all credit notes). 409: `credit_note_ref_number` used already, or the supplier is deactivated.',
  })
  @ApiHeader(participantHeader)
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('JofotaraCreditNoteBody'), examples: jofotaraExamples.creditNote })
  @ApiResponse({ status: 200, description: 'Cleared by JoFotara.', schema: jofotaraClearedSchema })
  @ApiResponse({ status: 202, ...pending })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async creditNote(@SeedHeader(supplierHeader) participant: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendAnswer(reply, await this.pipeline.submit(code, participant, body, context, 'credit-note'));
  }

  @Get('einvoice/invoices/:uuid')
  @ApiOperation({
    summary: 'An invoice or credit note: its fields, totals, ICV, JoFotara status (PENDING, SUBMITTED, ALREADY_SUBMITTED, NOT_SUBMITTED with errors), number and QR.',
    description: 'Where a 202 points: read it until `jofotara_status` leaves PENDING. 404: no such document of this supplier in your account.',
  })
  @ApiHeader(participantHeader)
  @ApiParam(jofotaraUuidParam)
  @ApiResponse({ status: 200, description: 'The document.', schema: jofotaraDocumentSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  invoice(@SeedHeader(supplierHeader) participant: string | undefined, @Param('uuid') uuid: string, @Ctx() context: RequestContext) {
    return this.pipeline.document(code, participant, uuid, context);
  }

  @Get('einvoice/invoices/:uuid/xml')
  @ApiOperation({
    summary: 'The UBL 2.1 XML exactly as sent to JoFotara.',
    description: 'The bytes the worker sent (base64 in JoFotara\'s `{invoice}`), rendered when the document took its ICV; JoFotara\'s signed copy is not this. 404: no such document of this supplier in your account.',
  })
  @ApiHeader(participantHeader)
  @ApiParam(jofotaraUuidParam)
  @ApiResponse({ status: 200, ...xmlFileAnswer('The UBL 2.1 Invoice (388) or credit note (381).') })
  @ApiResponse({ status: 404, ...errorResponse })
  async xml(@SeedHeader(supplierHeader) participant: string | undefined, @Param('uuid') uuid: string, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    const file = await this.pipeline.documentFile(code, participant, uuid, context);
    await reply.header('content-type', `${file.mediaType}; charset=utf-8`).send(file.bytes);
  }
}
