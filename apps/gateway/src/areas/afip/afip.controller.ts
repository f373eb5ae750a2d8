import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { issue, validationError } from '@einvoice/domain';
import { CATALOGS, SequenceQuery, VoucherQuery, afipDefinition, supplierHeaderOf, validateBody } from '@einvoice/areas';
import { AreaPipeline } from '../../pipeline/area-pipeline';
import { sendAnswer } from '../../http/answer';
import { errorResponse, schemaRef } from '../../http/openapi';
import { Ctx, type RequestContext } from '../../http/request-context';
import { SeedHeader } from '../../http/seed-headers';

const { code, routePrefix } = afipDefinition;
const supplierHeader = supplierHeaderOf(afipDefinition);

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
  @ApiOperation({ summary: 'Onboard a taxpayer (CUIT check digit verified): 201 {status, message, data: {supplier_uuid, cuit, legal_name}}.' })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('AfipOnboardingBody'))
  onboard(@Body() body: unknown, @Ctx() context: RequestContext) {
    return this.pipeline.onboard(code, body, context);
  }

  @Get('last-voucher')
  @ApiOperation({ summary: 'FECompUltimoAutorizado: {PtoVta, CbteTipo, CbteNro}. Fields in a JSON body (as the seed) or the query.' })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiQuery({ name: 'PtoVta', required: false })
  @ApiQuery({ name: 'CbteTipo', required: false })
  @ApiResponse({ status: 404, ...errorResponse })
  async lastVoucher(@SeedHeader(supplierHeader) cuit: string | undefined, @Req() request: FastifyRequest, @Query() query: Record<string, string>, @Ctx() context: RequestContext) {
    const params = validateBody(SequenceQuery, await readParams(request, query));
    return this.pipeline.askAuthority(code, cuit, 'last-voucher', { PtoVta: params.PtoVta, CbteTipo: params.CbteTipo }, context);
  }

  @Post('create-voucher')
  @ApiOperation({
    summary: 'FECAESolicitar: AFIP\'s answer (Resultado A with FeDetResp[].CAE, or R with Errors[], both HTTP 200); a body that is not a voucher → 400; no answer within the wait → 202 with the link.',
    description: 'Extension: CbteDesde and CbteHasta may be left out together; the gateway then gives the voucher the next number of its sequence when it sends it to AFIP (concurrent requests get consecutive numbers, each once), answered in FeDetResp[0].CbteDesde/CbteHasta.',
  })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('CreateVoucherBody'))
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async createVoucher(@SeedHeader(supplierHeader) cuit: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendAnswer(reply, await this.pipeline.submit(code, cuit, body, context));
  }

  @Get('get-voucher')
  @ApiOperation({ summary: 'FECompConsultar: the voucher as AFIP holds it, CodAutorizacion its CAE; 404 (AFIP 602) when unknown. Fields in a JSON body or the query.' })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiQuery({ name: 'PtoVta', required: false })
  @ApiQuery({ name: 'CbteTipo', required: false })
  @ApiQuery({ name: 'CbteNro', required: false })
  @ApiResponse({ status: 404, ...errorResponse })
  async getVoucher(@SeedHeader(supplierHeader) cuit: string | undefined, @Req() request: FastifyRequest, @Query() query: Record<string, string>, @Ctx() context: RequestContext) {
    const params = validateBody(VoucherQuery, await readParams(request, query));
    return this.pipeline.askAuthority(code, cuit, 'get-voucher', { PtoVta: params.PtoVta, CbteTipo: params.CbteTipo, CbteNro: params.CbteNro }, context);
  }

  @Get('vouchers/:id')
  @ApiOperation({ summary: 'A voucher sent through this service, as create-voucher answered (or will answer) it.' })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiResponse({ status: 404, ...errorResponse })
  voucher(@SeedHeader(supplierHeader) cuit: string | undefined, @Param('id') id: string, @Ctx() context: RequestContext) {
    return this.pipeline.document(code, cuit, id, context);
  }

  @Get(':catalog')
  @ApiOperation({ summary: `AFIP's catalogs (FEParamGet*): ${Object.keys(CATALOGS).join(', ')}: [{Id, Desc, FchDesde, FchHasta}].` })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiResponse({ status: 404, ...errorResponse })
  catalog(@SeedHeader(supplierHeader) cuit: string | undefined, @Param('catalog') name: string, @Ctx() context: RequestContext) {
    return this.pipeline.askAuthority(code, cuit, name, {}, context);
  }
}
