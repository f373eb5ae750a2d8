import { Body, Controller, Get, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { firsDefinition, firsExamples, paymentStatusChange, supplierHeaderOf } from '@einvoice/areas';
import { AreaPipeline } from '../../pipeline/area-pipeline';
import { sendAnswer } from '../../http/answer';
import { errorResponse, schemaRef } from '../../http/openapi';
import { Ctx, type RequestContext } from '../../http/request-context';
import { SeedHeader } from '../../http/seed-headers';
import { pendingAnswer } from '../reporting-openapi';
import { idempotencyKeyHeader } from '../../http/openapi-idempotency';
import { firsInvoiceSchema, firsIrnParam, firsOnboardedSchema, firsParticipantHeader, firsSignedSchema } from './firs-openapi';

const { code, routePrefix } = firsDefinition;
const supplierHeader = supplierHeaderOf(firsDefinition);
const participantHeader = { name: supplierHeader, required: true, ...firsParticipantHeader };
const documentsPath = firsDefinition.documentsPath ?? '';

/** Nigeria, FIRS (NRS) MBS (seed 002 "Nigeria", libs/areas/src/firs/README.md): the platform's reporting routes. */
@ApiTags(`${firsDefinition.name} (/${routePrefix})`)
@ApiSecurity('x-svc-auth-key')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@Controller(routePrefix)
export class FirsController {
  constructor(private readonly pipeline: AreaPipeline) {}

  @Post('auth/taxpayer/login')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Onboard a taxpayer: FIRS logs it in (utilities/authenticate) first; 201 {status, message, data: {supplier_name, participant_id}}; a refused login → 400 at password.',
    description:
      'FIRS logs the taxpayer in with its portal e-mail and password before anything is stored (refused: 400 at `password`, `FIRS.LOGIN_REFUSED`); its answer gives the taxpayer\'s FIRS business id and service id (the IRN\'s middle part), kept with the supplier. The e-mail and password are sealed for later logins, never returned. The answer\'s `participant_id` is the `participant-id` header of its invoices. The same TIN onboarded again by your account: 409 `SUPPLIER.EXISTS` naming the supplier.',
  })
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('FirsOnboardingBody'), examples: firsExamples.onboard })
  @ApiResponse({ status: 201, description: 'Logged in at FIRS and onboarded.', schema: firsOnboardedSchema })
  @ApiResponse({ status: 409, ...errorResponse })
  onboard(@Body() body: unknown, @Ctx() context: RequestContext) {
    return this.pipeline.onboard(code, body, context);
  }

  @Post('invoice/generate')
  @ApiOperation({
    summary: 'Validate the IRN and the invoice, sign it at FIRS and store it: 200 {status: "submitted", data: {irn, authority_response, qr_code, steps_completed, message, invoice, timestamp}}; FIRS\'s refusal → 400; no answer within the wait → 202 with the link.',
    description:
      'The body is checked (invoice type, line amounts, taxes, totals within a cent) and the IRN made from `document_identifier`, the supplier\'s service id and `issue_date`; the reporting worker then runs FIRS\'s steps (`invoice/irn/validate`, `invoice/validate`, `invoice/sign`) and the answer waits for them (AUTHORITY_WAIT_MS): signed → 200 with the IRN, the QR and the stored invoice; refused at a step → 400 with FIRS\'s message and `FIRS.<STEP>_<status>`, the IRN free again; FIRS unavailable or slow → 202 with where to read it (the worker retries, and never signs twice). 404: no such supplier; 409: `document_identifier` used already, or the supplier is deactivated (`SUPPLIER.INACTIVE`). A retry with the same Idempotency-Key answers the same.',
  })
  @ApiHeader(participantHeader)
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('FirsInvoiceBody'), examples: firsExamples.generate })
  @ApiResponse({ status: 200, description: 'Signed by FIRS and stored.', schema: firsSignedSchema })
  @ApiResponse({ status: 202, ...pendingAnswer(documentsPath, 'INV-1764547200') })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async generate(@SeedHeader(supplierHeader) participant: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendAnswer(reply, await this.pipeline.submit(code, participant, body, context));
  }

  @Get('invoice/:irn')
  @ApiOperation({
    summary: 'The stored invoice by its IRN (or its id): the record of the generate answer, with its QR.',
    description: 'Where a 202 points: read it until `status` leaves PENDING_SIGNATURE (SIGNED, or REJECTED with FIRS\'s reason in `authorityResponse`). 404: no such invoice of this supplier in your account.',
  })
  @ApiHeader(participantHeader)
  @ApiParam(firsIrnParam)
  @ApiResponse({ status: 200, description: 'The stored invoice.', schema: firsInvoiceSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  invoice(@SeedHeader(supplierHeader) participant: string | undefined, @Param('irn') irn: string, @Ctx() context: RequestContext) {
    return this.pipeline.document(code, participant, irn, context);
  }

  @Patch('invoice/:irn/payment-status')
  @ApiOperation({
    summary: 'Update the payment status (PENDING, PAID, CANCELED) at FIRS, then here: 200 with the stored invoice; FIRS\'s refusal → 400; no answer within the wait → 202 with the link.',
    description:
      'The change is recorded, the reporting worker asks FIRS (`PATCH invoice/update/{irn}`), and FIRS\'s answer is recorded: made → 200 with the stored invoice, its new `paymentStatus` and `paymentReference`; refused → 400 `AUTHORITY.AMENDMENT_REFUSED` with FIRS\'s reason; no answer within the wait → 202 (state `amending`) with where to read it. 404: no such invoice of this supplier in your account; 409 `AUTHORITY.NOT_AMENDABLE`: FIRS has not signed the invoice, or another change of it is in progress.',
  })
  // No Idempotency-Key: the gateway's idempotency covers POSTs (idempotency.guard.ts).
  @ApiHeader(participantHeader)
  @ApiParam(firsIrnParam)
  @ApiBody({ ...schemaRef('FirsPaymentStatusBody'), examples: firsExamples.paymentStatus })
  @ApiResponse({ status: 200, description: 'Changed at FIRS, then here: the stored invoice.', schema: firsInvoiceSchema })
  @ApiResponse({ status: 202, ...pendingAnswer(documentsPath, 'INV-1764547200', 'amending') })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async paymentStatus(@SeedHeader(supplierHeader) participant: string | undefined, @Param('irn') irn: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendAnswer(reply, await this.pipeline.amend(code, participant, irn, paymentStatusChange(body), context));
  }
}
