import { Body, Controller, Get, Headers, HttpCode, Param, Post, Res, applyDecorators } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { areaOf, myinvois, supplierHeaderOf } from '@einvoice/areas';
import type { FastifyReply } from 'fastify';
import { Ctx } from '../../http/request-context';
import { SeedHeader, seedHeader } from '../../http/seed-headers';
import type { RequestContext } from '../../http/request-context';
import { MyInvoisSubmissionService } from './submission.service';
import { AreaPipeline } from '../../pipeline/area-pipeline';
import { sendAnswer as send } from '../../http/answer';
import { errorResponse, schemaRef } from '../../http/openapi';
import { fileContent } from '../../http/openapi-answers';
import { RawDocument, digestHeaders, rawDocument } from './raw-documents';
import {
  cancelledExample, cancellingExample, digestHeaders as digestHeaderDocs, documentSchema,
  submissionPendingExample, submissionSchema, supplierHeaderDescription,
} from './myinvois-openapi';
import { idempotencyKeyHeader } from '../../http/openapi-idempotency';

const examples = myinvois.myInvoisExamples;

/** The answers of the four submit routes. */
const submitAnswers = () => applyDecorators(
  ApiResponse({ status: 200, description: 'MyInvois answered for every document: accepted (it validates them next) or rejected.', schema: submissionSchema }),
  ApiResponse({
    status: 202,
    description: 'MyInvois did not answer within MYINVOIS_WAIT_MS: the same shape, the documents in `pendingDocuments` with the `href` to poll.',
    content: { 'application/json': { schema: submissionSchema, example: submissionPendingExample } },
  }),
);

const SUBMISSION_STEPS =
  'Checked here first (the seed\'s fields and MyInvois\'s rules: 400 with every issue), then signed and submitted to MyInvois by the reporting worker; '
  + 'the answer waits up to MYINVOIS_WAIT_MS for MyInvois\'s answer (200), else 202 with the documents to poll. MyInvois then validates each '
  + 'accepted document: GET documents/{id} shows `valid` or `invalid`. With transport_mode peppol, a valid document\'s PINT MY copy is delivered over Peppol '
  + 'to its buyer (GET documents/{id} `peppol`). A retry with the same Idempotency-Key answers the same submission.';

/** The exact text as sent, with its SHA-256 (`Repr-Digest`, `X-Document-Hash`): never re-serialised. */
async function sendRaw(reply: FastifyReply, document: RawDocument): Promise<void> {
  await reply.status(200).headers(digestHeaders(document)).send(document.bytes);
}

const { code } = areaOf('my');

const transportModeHeader = {
  name: 'transport_mode', required: true, enum: ['peppol', 'myinvois'], example: 'peppol',
  description: 'peppol: MyInvois, then the PINT MY copy over Peppol once valid; myinvois: MyInvois only',
};
const idParam = { name: 'id', description: 'Our documentId, the MyInvois uuid, or the document `ID`', example: 'INV-1764651600' };

const supplierHeader = supplierHeaderOf(areaOf('my'));

/**
 * Malaysian area, submission (#4): single, bulk, consolidated, self-billed (its own: a submission holds
 * several documents); the document's state, its files and its cancellation through the pipeline's routes.
 */
@ApiTags('Malaysia (/api/einvoice)')
@ApiSecurity('x-svc-auth-key')
@ApiHeader({ name: supplierHeader, required: true, description: supplierHeaderDescription })
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
  @ApiOperation({
    summary: 'Submit one document to MyInvois (a refused document is a 400, a reused ID a 409).',
    description: `${SUBMISSION_STEPS} 409 DOCUMENT.DUPLICATE_ID: this supplier submitted this \`ID\` already; 409 SUPPLIER.INACTIVE: the supplier was deactivated.`,
  })
  @ApiHeader(transportModeHeader)
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('InvoiceDocument'), examples: examples.invoice })
  @submitAnswers()
  @ApiResponse({ status: 409, ...errorResponse })
  @ApiResponse({ status: 413, ...errorResponse })
  async single(@Headers() headers: Record<string, string>, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await send(reply, await this.service.submit('invoice', 'single', of(headers), body, context));
  }

  @Post('generate/invoice/bulk')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Submit 1 to 100 documents (5 MB, 300 KB each) as one MyInvois submission; refusals are per document.',
    description: `${SUBMISSION_STEPS} A document refused here or by MyInvois (a reused ID included) is listed in \`rejectedDocuments\` and does not stop the others; 413 over the sizes; 409 SUPPLIER.INACTIVE: the supplier was deactivated.`,
  })
  @ApiHeader(transportModeHeader)
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ schema: { type: 'array', maxItems: 100, items: { $ref: '#/components/schemas/InvoiceDocument' } }, examples: examples.bulk })
  @submitAnswers()
  @ApiResponse({ status: 409, ...errorResponse })
  @ApiResponse({ status: 413, ...errorResponse })
  async bulk(@Headers() headers: Record<string, string>, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await send(reply, await this.service.submit('invoice', 'bulk', of(headers), body, context));
  }

  @Post('generate/invoice/consolidated')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Submit a consolidated general-public document (buyer TIN EI00000000010).',
    description: `The monthly or daily summary of receipts to buyers who asked for no e-invoice (seed 000 "consolidated"): no DeliveryDetails, the general public as CustomerParty, no Peppol copy. ${SUBMISSION_STEPS} 409 DOCUMENT.DUPLICATE_ID: this \`ID\` was submitted already; 409 SUPPLIER.INACTIVE: the supplier was deactivated.`,
  })
  @ApiHeader(transportModeHeader)
  @ApiHeader(idempotencyKeyHeader())
  @submitAnswers()
  @ApiBody({ ...schemaRef('ConsolidatedDocument'), examples: examples.consolidated })
  @ApiResponse({ status: 409, ...errorResponse })
  async consolidated(@Headers() headers: Record<string, string>, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await send(reply, await this.service.submit('consolidated', 'single', of(headers), body, context));
  }

  @Post('generate/invoice/self-billed')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Submit a self-billed document (the supplier_uuid taxpayer is the buyer; SupplierParty the seller). Path not shown in the seed: ours.',
    description: `The buyer issues the document for its seller (an individual, a foreign seller, …); types 01–04 become MyInvois's 11–14. ${SUBMISSION_STEPS} 409 DOCUMENT.DUPLICATE_ID: this \`ID\` was submitted already; 409 SUPPLIER.INACTIVE: the supplier was deactivated.`,
  })
  @ApiHeader(transportModeHeader)
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('SelfBilledDocument'), examples: examples.selfBilled })
  @submitAnswers()
  @ApiResponse({ status: 409, ...errorResponse })
  async selfBilled(@Headers() headers: Record<string, string>, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await send(reply, await this.service.submit('self-billed', 'single', of(headers), body, context));
  }

  @Post('documents/:id/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel a valid (or rejected_by_buyer) document at MyInvois (within 72 h of validation), body `{reason}`.',
    description: 'The reporting worker asks MyInvois to cancel it; the answer waits for MyInvois (200, state cancelled) or answers 202 (state cancelling: poll GET documents/{id}). '
      + '404: no such document of this supplier. 409 MYINVOIS.NOT_CANCELLABLE: it is not valid (yet); 409 MYINVOIS.CANCEL_REFUSED: MyInvois refused (72 h passed…). '
      + 'A retry with the same Idempotency-Key answers the same cancellation.',
  })
  @ApiHeader(idempotencyKeyHeader())
  @ApiParam(idParam)
  @ApiBody({ ...schemaRef('ReasonBody'), examples: examples.cancel })
  @ApiResponse({ status: 200, description: 'Cancelled at MyInvois.', content: { 'application/json': { schema: documentSchema, example: cancelledExample } } })
  @ApiResponse({ status: 202, description: 'Cancelling: MyInvois has not answered yet; poll `data.href`.', content: { 'application/json': { schema: documentSchema, example: cancellingExample } } })
  @ApiResponse({ status: 409, ...errorResponse })
  async cancel(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await send(reply, await this.pipeline.cancel(code, supplier, id, body, context));
  }

  @Get('documents/:id')
  @ApiOperation({
    summary: "A submitted document's state (pending, submitted, rejected, valid, invalid, cancelling, cancelled, rejected_by_buyer), MyInvois uuid, longId, submissionUid, the buyer's rejection.",
    description: 'What the reporting worker learnt from MyInvois so far: poll it after a 202, or until `valid` / `invalid` (MyInvois validates within seconds). '
      + '`peppol` (transport_mode: peppol) follows the PINT MY copy: awaiting_validation, then Scheduled / Delivered, or withheld with its reason. 404: no such document of this supplier.',
  })
  @ApiParam(idParam)
  @ApiResponse({ status: 200, description: 'The document\'s state.', schema: documentSchema })
  document(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('id') id: string, @Ctx() context: RequestContext) {
    return this.pipeline.document(code, supplier, id, context);
  }

  @Get('documents/:id/raw')
  @ApiOperation({
    summary: 'The exact document submitted to MyInvois (the bytes its documentHash covers), JSON or XML as submitted.',
    description: 'Never re-serialised: its SHA-256 is MyInvois\'s documentHash. 404: no such document, or not rendered yet (state pending).',
  })
  @ApiParam(idParam)
  @ApiProduces('application/json', 'application/xml')
  @ApiResponse({ status: 200, description: 'The document bytes; SHA-256 in `Repr-Digest` and `X-Document-Hash`.', headers: digestHeaderDocs, content: fileContent('application/json', 'application/xml') })
  async raw(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('id') id: string, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    const file = await this.pipeline.documentFile(code, supplier, id, context);
    await sendRaw(reply, rawDocument(file.bytes, `${file.mediaType}; charset=utf-8`));
  }

  @Get('documents/:id/peppol')
  @ApiOperation({
    summary: 'The PINT MY XML of the document\'s Peppol copy (transport_mode: peppol), sent or not yet (GET documents/{id} `peppol` says); 404 DOCUMENT.NO_PEPPOL_COPY without one.',
    description: 'The UBL (PINT MY 1.x) the Peppol track delivers, or delivered, to the buyer. 404 DOCUMENT.NO_PEPPOL_COPY: submitted with transport_mode myinvois, consolidated, or to a generic TIN.',
  })
  @ApiParam(idParam)
  @ApiProduces('application/xml')
  @ApiResponse({ status: 200, description: 'The PINT MY XML; SHA-256 in `Repr-Digest` and `X-Document-Hash`.', headers: digestHeaderDocs, content: fileContent('application/xml') })
  async peppol(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('id') id: string, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendRaw(reply, rawDocument(await this.pipeline.peppolCopyFile(code, supplier, id, context), 'application/xml; charset=utf-8'));
  }
}

function of(headers: Record<string, string | undefined>) {
  return { supplier: seedHeader(headers, supplierHeader), transportMode: seedHeader(headers, 'transport_mode') };
}
