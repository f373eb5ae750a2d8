import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { issue, validationError } from '@einvoice/domain';
import { CATALOGS, SequenceQuery, VoucherQuery, afipDefinition, afipExamples, supplierHeaderOf, validateBody } from '@einvoice/areas';
import { AreaPipeline } from '../../pipeline/area-pipeline';
import { sendAnswer } from '../../http/answer';
import { errorResponse, schemaRef } from '../../http/openapi';
import { Ctx, type RequestContext } from '../../http/request-context';
import { SeedHeader } from '../../http/seed-headers';
import { pendingAnswer } from '../reporting-openapi';
import { idempotencyKeyHeader } from '../../http/openapi-idempotency';
import {
  afipCatalogSchema, afipCuitHeader, afipHeldVoucherSchema, afipLastVoucherSchema, afipOnboardedSchema, afipReadParams, afipVoucherAnswerExamples,
  afipVoucherAnswerSchema, afipVoucherIdParam,
} from './afip-openapi';

const { code, routePrefix } = afipDefinition;
const supplierHeader = supplierHeaderOf(afipDefinition);
const cuitHeader = { name: supplierHeader, required: true, ...afipCuitHeader };
const voucherAnswer = { content: { 'application/json': { schema: afipVoucherAnswerSchema, examples: afipVoucherAnswerExamples } } };
const catalogNames = Object.keys(CATALOGS);

/** The most a GET's JSON body may hold (the reads take three numbers). */
const GET_BODY_LIMIT = 16 * 1024;

/**
 * The seed's reads are GETs with a JSON body, which the HTTP server does not parse for GET: the body is
 * read here from the request stream (bounded, JSON or a 400); without one, the fields come from the query
 * (numbers written as digits).
 */
async function readParams(request: FastifyRequest, query: Record<string, string>): Promise<Record<string, unknown>> {
  const raw = request.raw;
  const length = Number(raw.headers['content-length'] ?? 0);
  if (length > 0 || raw.headers['transfer-encoding']) {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of raw) {
      size += (chunk as Buffer).length;
      if (size > GET_BODY_LIMIT) throw validationError([issue('', 'BODY.TOO_LARGE', `A read's body holds at most ${GET_BODY_LIMIT} bytes.`)]);
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8').trim();
    if (text) {
      try {
        return JSON.parse(text) as Record<string, unknown>;
      } catch {
        throw validationError([issue('', 'BODY.INVALID_JSON', 'The body is not JSON.')]);
      }
    }
  }
  return Object.fromEntries(Object.entries(query ?? {}).map(([k, v]) => [k, /^\d+$/.test(v) ? Number(v) : v]));
}

/** Argentina, AFIP/ARCA WSFEv1 (seed 002 "Argentina", libs/areas/src/afip/README.md): the platform's reporting routes. */
@ApiTags(`${afipDefinition.name} (/${routePrefix})`)
@ApiSecurity('x-svc-auth-key')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@Controller(routePrefix)
export class AfipController {
  constructor(private readonly pipeline: AreaPipeline) {}

  @Post('onboard')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Onboard a taxpayer (CUIT check digit verified): 201 {status, message, data: {supplier_uuid, cuit, legal_name}}.',
    description:
      'The CUIT\'s check digit is verified (wrong: 400 at `cuit`); in live mode the taxpayer\'s WSAA certificate and key, when sent, are checked (valid today, matching) and sealed. From then on the area\'s routes name the taxpayer by its CUIT in the `cuit` header. The same CUIT onboarded again by your account: 409 `SUPPLIER.EXISTS` naming the supplier.',
  })
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('AfipOnboardingBody'), examples: afipExamples.onboard })
  @ApiResponse({ status: 201, description: 'Onboarded.', schema: afipOnboardedSchema })
  @ApiResponse({ status: 409, ...errorResponse })
  onboard(@Body() body: unknown, @Ctx() context: RequestContext) {
    return this.pipeline.onboard(code, body, context);
  }

  @Get('last-voucher')
  @ApiOperation({
    summary: 'FECompUltimoAutorizado: {PtoVta, CbteTipo, CbteNro}. Fields in a JSON body (as the seed) or the query.',
    description: 'AFIP\'s last authorised number of the sequence (the taxpayer\'s CUIT, the point of sale, the voucher type), asked of AFIP now: a voucher sent with its numbers takes CbteNro + 1. The seed sends the fields as a JSON body on this GET; the query is the portable form (a body wins). 404: the CUIT is not one of your taxpayers.',
  })
  @ApiHeader(cuitHeader)
  @ApiQuery(afipReadParams.PtoVta)
  @ApiQuery(afipReadParams.CbteTipo)
  @ApiResponse({ status: 200, description: 'The sequence\'s last number.', schema: afipLastVoucherSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  async lastVoucher(@SeedHeader(supplierHeader) cuit: string | undefined, @Req() request: FastifyRequest, @Query() query: Record<string, string>, @Ctx() context: RequestContext) {
    const params = validateBody(SequenceQuery, await readParams(request, query));
    return this.pipeline.askAuthority(code, cuit, 'last-voucher', { PtoVta: params.PtoVta, CbteTipo: params.CbteTipo }, context);
  }

  @Post('create-voucher')
  @ApiOperation({
    summary: 'FECAESolicitar: AFIP\'s answer (Resultado A with FeDetResp[].CAE, or R with Errors[], both HTTP 200); a body that is not a voucher → 400; no answer within the wait → 202 with the link.',
    description:
      'The voucher is recorded; the reporting worker sends the taxpayer\'s waiting vouchers to AFIP in number order per sequence, each checked first with AFIP\'s own validations, and the answer waits for AFIP\'s (AUTHORITY_WAIT_MS): Resultado A with the CAE and the QR link, or R with AFIP\'s codes (a refused voucher frees its number), both HTTP 200 as AFIP answers; no answer in time → 202 with where to read it (`vouchers/{id}`). A body that is not a voucher (a field missing or of the wrong type, a point of sale not onboarded) → 400 naming the field. 404: the CUIT is not one of your taxpayers; 409: that number of the sequence was sent already, or the taxpayer is deactivated. A retry with the same Idempotency-Key answers for the same voucher. Extension: CbteDesde and CbteHasta may be left out together; the gateway then gives the voucher the next number of its sequence when it sends it to AFIP (concurrent requests get consecutive numbers, each once), answered in FeDetResp[0].CbteDesde/CbteHasta.',
  })
  @ApiHeader(cuitHeader)
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('CreateVoucherBody'), examples: afipExamples.createVoucher })
  @ApiResponse({ status: 200, description: 'AFIP\'s answer: A (authorised) or R (refused).', ...voucherAnswer })
  @ApiResponse({ status: 202, ...pendingAnswer(afipDefinition.documentsPath ?? '', '00001-001-00000001') })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async createVoucher(@SeedHeader(supplierHeader) cuit: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendAnswer(reply, await this.pipeline.submit(code, cuit, body, context));
  }

  @Get('get-voucher')
  @ApiOperation({
    summary: 'FECompConsultar: the voucher as AFIP holds it, CodAutorizacion its CAE; 404 (AFIP 602) when unknown. Fields in a JSON body or the query.',
    description: 'Asked of AFIP now, whoever sent the voucher (this service or another of the taxpayer\'s systems). 404: AFIP holds no such voucher (`AFIP.602`), or the CUIT is not one of your taxpayers.',
  })
  @ApiHeader(cuitHeader)
  @ApiQuery(afipReadParams.PtoVta)
  @ApiQuery(afipReadParams.CbteTipo)
  @ApiQuery(afipReadParams.CbteNro)
  @ApiResponse({ status: 200, description: 'The voucher as AFIP holds it.', schema: afipHeldVoucherSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  async getVoucher(@SeedHeader(supplierHeader) cuit: string | undefined, @Req() request: FastifyRequest, @Query() query: Record<string, string>, @Ctx() context: RequestContext) {
    const params = validateBody(VoucherQuery, await readParams(request, query));
    return this.pipeline.askAuthority(code, cuit, 'get-voucher', { PtoVta: params.PtoVta, CbteTipo: params.CbteTipo, CbteNro: params.CbteNro }, context);
  }

  @Get('vouchers/:id')
  @ApiOperation({
    summary: 'A voucher sent through this service, as create-voucher answered (or will answer) it.',
    description: 'Where a 202 points: `Resultado` P until AFIP answered, then A or R as create-voucher would have answered. 404: no such voucher of this taxpayer in your account.',
  })
  @ApiHeader(cuitHeader)
  @ApiParam(afipVoucherIdParam)
  @ApiResponse({ status: 200, description: 'The voucher\'s answer.', ...voucherAnswer })
  @ApiResponse({ status: 404, ...errorResponse })
  voucher(@SeedHeader(supplierHeader) cuit: string | undefined, @Param('id') id: string, @Ctx() context: RequestContext) {
    return this.pipeline.document(code, cuit, id, context);
  }

  @Get(':catalog')
  @ApiOperation({
    summary: `AFIP's catalogs (FEParamGet*): ${catalogNames.join(', ')}: [{Id, Desc, FchDesde, FchHasta}].`,
    description: 'The codes create-voucher takes, as AFIP lists them, in AFIP\'s order: voucher-types (CbteTipo, FEParamGetTiposCbte), concept-types (Concepto), document-types (DocTipo), rates (Iva[].Id), currencies (MonId), options-types (Opcionales), tax-types (Tributos[].Id). Another name: 404.',
  })
  @ApiHeader(cuitHeader)
  @ApiParam({ name: 'catalog', description: 'Which catalog.', enum: catalogNames, example: 'voucher-types' })
  @ApiResponse({ status: 200, description: 'The catalog\'s items.', schema: afipCatalogSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  catalog(@SeedHeader(supplierHeader) cuit: string | undefined, @Param('catalog') name: string, @Ctx() context: RequestContext) {
    return this.pipeline.askAuthority(code, cuit, name, {}, context);
  }
}
