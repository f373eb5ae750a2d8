import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { toyDefinition, supplierHeaderOf } from '@einvoice/areas';
import { AreaPipeline } from '../../pipeline/area-pipeline';
import { sendAnswer } from '../../http/answer';
import { errorResponse, schemaRef } from '../../http/openapi';
import { Ctx, type RequestContext } from '../../http/request-context';
import { SeedHeader } from '../../http/seed-headers';

const { code, routePrefix } = toyDefinition;
const supplierHeader = supplierHeaderOf(toyDefinition);

/** The toy area (test suite only, libs/areas/src/toy): the platform's reporting routes under its prefix. */
@ApiTags(`${toyDefinition.name} (/${routePrefix})`)
@ApiSecurity('x-svc-auth-key')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@Controller(routePrefix)
export class ToyController {
  constructor(private readonly pipeline: AreaPipeline) {}

  @Post('onboard')
  @HttpCode(201)
  @ApiOperation({ summary: 'Onboard a toy supplier.' })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('ToyOnboardingBody'))
  onboard(@Body() body: unknown, @Ctx() context: RequestContext) {
    return this.pipeline.onboard(code, body, context);
  }

  @Post('documents')
  @ApiOperation({ summary: 'Report a document to the toy authority: 200 with its answer, 400 with its refusal, 202 while it has not answered.' })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('ToyDocumentBody'))
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async submit(@SeedHeader(supplierHeader) supplier: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendAnswer(reply, await this.pipeline.submit(code, supplier, body, context));
  }

  @Post('documents/:id/cancel')
  @ApiOperation({ summary: 'Cancel a reported document at the toy authority, body `{reason}`: 200 cancelled, 409 refused, 202 while it has not answered.' })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('CancellationBody'))
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async cancel(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendAnswer(reply, await this.pipeline.cancel(code, supplier, id, body, context));
  }

  @Get('documents/:id')
  @ApiOperation({ summary: 'The document, its state and the authority\'s answer.' })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiResponse({ status: 404, ...errorResponse })
  document(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('id') id: string, @Ctx() context: RequestContext) {
    return this.pipeline.document(code, supplier, id, context);
  }
}
