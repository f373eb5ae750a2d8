import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { verifactuDefinition, verifactuExamples, supplierHeaderOf } from '@einvoice/areas';
import { AreaPipeline } from '../../pipeline/area-pipeline';
import { sendAnswer } from '../../http/answer';
import { errorResponse, schemaRef } from '../../http/openapi';
import { Ctx, type RequestContext } from '../../http/request-context';
import { SeedHeader } from '../../http/seed-headers';
import { idempotencyKeyHeader } from '../../http/openapi-idempotency';
import { verifactuCancelledSchema, verifactuOnboardedSchema, verifactuRecordMadeSchema, verifactuRecordSchema } from './verifactu-openapi';

const { code, routePrefix } = verifactuDefinition;
const supplierHeader = supplierHeaderOf(verifactuDefinition);
const PARTICIPANT_ID = '0f8e8b1c-6a57-4d57-9d5e-2f0f3c1d9a11';
const participantHeader = {
  name: supplierHeader,
  required: true,
  description: 'The issuer: the participant_id its onboarding answered. Unknown in your account: 404; deactivated: 409 SUPPLIER.INACTIVE.',
  example: PARTICIPANT_ID,
};
/** Why a record's request answers 409 (the record is made in the issuer's chain at once, never twice). */
const RECORD_CONFLICTS = '409: the issuer already recorded this document_identifier (DOCUMENT.DUPLICATE_ID), the issuer is deactivated (SUPPLIER.INACTIVE), or an Idempotency-Key reused for another body.';

/** Spain, VERI*FACTU (seed 002 "Spain", libs/areas/src/verifactu/README.md): the platform's reporting routes. */
@ApiTags(`${verifactuDefinition.name} (/${routePrefix})`)
@ApiSecurity('x-svc-auth-key')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@Controller(routePrefix)
export class VerifactuController {
  constructor(private readonly pipeline: AreaPipeline) {}

  @Post('onboard')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Onboard an issuer (NIF checked): 201 {status, message, data: {participant_id}}.',
    description: 'Registers the issuer (ObligadoEmision) of your account: its NIF, NIE or CIF (control character checked, else 400 VERIFACTU.NIF) and its NombreRazon. In live mode it may bring its own certificate for the AEAT\'s mutual TLS (checked: it must parse, be valid today and match its key; sealed at rest, never answered). The answer\'s participant_id is the participant-id header of its records. 409 SUPPLIER.EXISTS: your account onboarded this NIF already (the error\'s data names it).',
  })
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('VerifactuOnboardingBody'), examples: verifactuExamples.onboard })
  @ApiResponse({ status: 201, description: 'The issuer, onboarded.', schema: verifactuOnboardedSchema })
  @ApiResponse({ status: 409, ...errorResponse })
  onboard(@Body() body: unknown, @Ctx() context: RequestContext) {
    return this.pipeline.onboard(code, body, context);
  }

  @Post('generate')
  @ApiOperation({
    summary: 'Make the next record of the issuer\'s chain (F1, F2): 200 {status, message: {uuid, qr_link, qr_code}}; the AEAT hears of it in the issuer\'s next batch.',
    description: 'Checks the invoice (one spelling per tax line, the total against the lines within ±0.02, the recipient F1 needs and F2 refuses), makes its RegistroAlta, chains it on the issuer\'s previous record by its Huella and answers at once with the record\'s uuid and the invoice\'s AEAT QR (link and PNG). The reporting worker sends the issuer\'s records to the AEAT in batches of up to 1000, never sooner than the TiempoEsperaEnvio the AEAT stated; GET records/{uuid} shows aeat_status Pendiente until then. 404: no such participant in your account. ' + RECORD_CONFLICTS,
  })
  @ApiHeader(participantHeader)
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('VerifactuReportBody'), examples: verifactuExamples.generate })
  @ApiResponse({ status: 200, description: 'The record, chained: its uuid and the invoice\'s QR.', schema: verifactuRecordMadeSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async generate(@SeedHeader(supplierHeader) participant: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendAnswer(reply, await this.pipeline.submit(code, participant, body, context, 'generate'));
  }

  @Post('rectify')
  @ApiOperation({
    summary: 'Make a rectifying record (R1, TipoRectificativa I) in the issuer\'s chain: the same answer as generate.',
    description: 'A rectifying invoice by differences: its RegistroAlta carries TipoFactura R1, TipoRectificativa I and the rectified invoices (FacturasRectificadas), with the amounts of the difference (negative for a reduction). nif and name must be the issuer\'s own as onboarded (else 400 VERIFACTU.ISSUER_MISMATCH). Chained, answered and sent to the AEAT as generate\'s records are. 404: no such participant in your account. ' + RECORD_CONFLICTS,
  })
  @ApiHeader(participantHeader)
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('VerifactuRectifyBody'), examples: verifactuExamples.rectify })
  @ApiResponse({ status: 200, description: 'The rectifying record, chained: its uuid and the invoice\'s QR.', schema: verifactuRecordMadeSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async rectify(@SeedHeader(supplierHeader) participant: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendAnswer(reply, await this.pipeline.submit(code, participant, body, context, 'rectify'));
  }

  @Post('cancel')
  @ApiOperation({
    summary: 'Cancel an invoice: a cancellation record (RegistroAnulacion) in the issuer\'s chain, body {document_identifier, issue_date}: 200 {status, message: {uuid}}; 404 for an invoice this issuer never recorded; 409 when already cancelled here.',
    description: 'Makes a RegistroAnulacion of the invoice this issuer recorded with that number and date, chained like any record and sent to the AEAT in the issuer\'s next batch; it has no QR and no amounts (GET shows invoice_type `anulacion`). The AEAT never takes that number and date again (its error 3000). 404: no such participant, or no invoice of this issuer with this number and date. 409: already cancelled here, the issuer is deactivated, or an Idempotency-Key reused for another body.',
  })
  @ApiHeader(participantHeader)
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('VerifactuCancelBody'), examples: verifactuExamples.cancel })
  @ApiResponse({ status: 200, description: 'The cancellation record, chained.', schema: verifactuCancelledSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async cancel(@SeedHeader(supplierHeader) participant: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendAnswer(reply, await this.pipeline.submit(code, participant, body, context, 'cancel'));
  }

  @Get('records/:uuid')
  @ApiOperation({
    summary: 'A record: its chain (hash, previous_hash, generated_at), its QR link and what the AEAT said (aeat_status, aeat_errors).',
    description: 'An invoice\'s or a cancellation\'s record as chained, and the AEAT\'s verdict once the issuer\'s batch was answered: aeat_status Pendiente until then, then Correcto, AceptadoConErrores (with aeat_errors) or Incorrecto (with the AEAT\'s code in aeat_errors). 404: no such participant in your account, or no record with this uuid of this issuer.',
  })
  @ApiHeader(participantHeader)
  @ApiParam({ name: 'uuid', description: 'The record\'s uuid, as generate, rectify or cancel answered it.', example: '01938a7e-5c2b-7d41-9f3e-6a1b2c3d4e5f' })
  @ApiResponse({ status: 200, description: 'The record and the AEAT\'s verdict.', schema: verifactuRecordSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  record(@SeedHeader(supplierHeader) participant: string | undefined, @Param('uuid') uuid: string, @Ctx() context: RequestContext) {
    return this.pipeline.document(code, participant, uuid, context);
  }
}
