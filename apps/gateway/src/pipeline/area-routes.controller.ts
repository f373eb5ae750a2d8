import { Body, Controller, Get, HttpCode, Param, Post, Res, Type } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { type BodyClass, areaOf, supplierHeaderOf } from '@einvoice/areas';
import { sendAnswer } from '../http/answer';
import { errorResponse, schemaRef } from '../http/openapi';
import { Ctx, type RequestContext } from '../http/request-context';
import { idempotencyKeyHeader } from '../http/openapi-idempotency';
import { SeedHeader } from '../http/seed-headers';
import { AreaPipeline } from './area-pipeline';

/** The body's schema in the OpenAPI document, by its DTO's name; an object where the area names none. */
const bodyOf = (bodyClass: BodyClass | undefined) => (bodyClass ? schemaRef(bodyClass.name) : { schema: { type: 'object' } });

/**
 * The pipeline's own routes under an area's `routePrefix`, for an area whose seed gives it no routes of
 * its own (the toy area of docs/adding-an-area.md): onboarding, a document's submission, its read and its
 * cancellation, each the pipeline's call with the area's code. An area with routes of its own writes its
 * thin controller instead (apps/gateway/src/areas/<area>), calling the same pipeline.
 */
export function areaRoutesController(code: string): Type<unknown> {
  const area = areaOf(code);
  const { name, routePrefix } = area;
  const supplierHeader = supplierHeaderOf(area);
  @ApiTags(`${name} (/${routePrefix})`)
  @ApiSecurity('x-svc-auth-key')
  @ApiResponse({ status: 400, ...errorResponse })
  @ApiResponse({ status: 401, ...errorResponse })
  @Controller(routePrefix)
  class AreaRoutesController {
    constructor(readonly pipeline: AreaPipeline) {}

    @Post('onboard')
    @HttpCode(201)
    @ApiOperation({ summary: `Onboard a ${name} supplier: 201 with its id.` })
    @ApiHeader(idempotencyKeyHeader())
    @ApiBody(bodyOf(area.onboarding?.bodyClass))
    @ApiResponse({ status: 409, ...errorResponse })
    onboard(@Body() body: unknown, @Ctx() context: RequestContext) {
      return this.pipeline.onboard(code, body, context);
    }

    @Post('documents')
    @ApiOperation({ summary: `Report a document to the ${name} authority: 200 with its answer, 400 with its refusal, 202 while it has not answered.` })
    @ApiHeader({ name: supplierHeader, required: true })
    @ApiHeader(idempotencyKeyHeader())
    @ApiBody(bodyOf(area.documents?.bodyClass))
    @ApiResponse({ status: 404, ...errorResponse })
    @ApiResponse({ status: 409, ...errorResponse })
    async submit(@SeedHeader(supplierHeader) supplier: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
      await sendAnswer(reply, await this.pipeline.submit(code, supplier, body, context));
    }

    @Post('documents/:id/cancel')
    @ApiOperation({ summary: `Cancel a reported document at the ${name} authority, body \`{reason}\`: 200 cancelled, 409 refused, 202 while it has not answered.` })
    @ApiHeader({ name: supplierHeader, required: true })
    @ApiHeader(idempotencyKeyHeader())
    @ApiBody(schemaRef('ReasonBody'))
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
  return AreaRoutesController;
}
