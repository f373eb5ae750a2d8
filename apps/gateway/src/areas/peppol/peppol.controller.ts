import { Body, Controller, Get, HttpCode, Param, Post, Res, Type } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { areaOf, supplierHeaderOf } from '@einvoice/areas';
import type { FastifyReply } from 'fastify';
import { AreaPipeline } from '../../pipeline/area-pipeline';
import { sendAnswer } from '../../http/answer';
import { errorResponse, schemaRef } from '../../http/openapi';
import { Ctx, type RequestContext } from '../../http/request-context';
import { SeedHeader } from '../../http/seed-headers';
import { assertTransportMode } from './transport-mode';

/**
 * Belgium, Germany, Singapore (seed 002 "Belgium, Germany, Singapore (same shapes)",
 * libs/areas/src/peppol): the platform's routes under each area's prefix. One controller class per
 * area, made from the same code: the three areas share every shape.
 */
export function peppolAreaController(code: 'be' | 'de' | 'sg'): Type<unknown> {
  const { name, routePrefix } = areaOf(code);
  const supplierHeader = supplierHeaderOf(areaOf(code));
  @ApiTags(`${name} (/${code})`)
  @ApiSecurity('x-svc-auth-key')
  @ApiResponse({ status: 400, ...errorResponse })
  @ApiResponse({ status: 401, ...errorResponse })
  @Controller(routePrefix)
  class PeppolAreaController {
    constructor(readonly pipeline: AreaPipeline) {}

    @Post('onboard')
    @HttpCode(201)
    @ApiOperation({ summary: `Onboard a ${name} supplier to Peppol with this service as access point.` })
    @ApiHeader({ name: 'Idempotency-Key', required: false })
    @ApiBody(schemaRef('OnboardingBody'))
    @ApiResponse({ status: 201, description: '`{status, message, data:{supplier_uuid}}`' })
    @ApiResponse({ status: 409, ...errorResponse })
    onboard(@Body() body: unknown, @Ctx() context: RequestContext) {
      return this.pipeline.onboard(code, body, context);
    }

    @Post('generate/invoice')
    @ApiOperation({ summary: 'Submit an invoice or credit note for delivery over Peppol; answers DeliveryStatus Scheduled.' })
    @ApiHeader({ name: supplierHeader, required: true })
    @ApiHeader({ name: 'transport_mode', required: false, description: '`peppol` (the default and only value)' })
    @ApiHeader({ name: 'Idempotency-Key', required: false })
    @ApiBody(schemaRef('InvoiceBody'))
    @ApiResponse({ status: 202, description: '`{status, data:{DocumentID, DeliveryStatus:"Scheduled"}}`' })
    @ApiResponse({ status: 404, ...errorResponse })
    @ApiResponse({ status: 409, ...errorResponse })
    @ApiResponse({ status: 413, ...errorResponse })
    async generate(
      @SeedHeader(supplierHeader) supplier: string | undefined,
      @SeedHeader('transport_mode') transportMode: string | undefined,
      @Body() body: unknown,
      @Ctx() context: RequestContext,
      @Res() reply: FastifyReply,
    ) {
      assertTransportMode(transportMode);
      await sendAnswer(reply, await this.pipeline.submit(code, supplier, body, context));
    }

    @Get('get-document/:uuid')
    @ApiOperation({ summary: 'The document: its uuid plus the submitted fields.' })
    @ApiHeader({ name: supplierHeader, required: true })
    @ApiParam({ name: 'uuid' })
    @ApiResponse({ status: 404, ...errorResponse })
    getDocument(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('uuid') uuid: string, @Ctx() context: RequestContext) {
      return this.pipeline.document(code, supplier, uuid, context, 'get-document');
    }

    @Get('get-document/:uuid/xml')
    @ApiOperation({ summary: 'The rendered UBL 2.1 document (Peppol BIS Billing 3.0, or PINT SG for Singapore).' })
    @ApiHeader({ name: supplierHeader, required: true })
    @ApiProduces('application/xml')
    @ApiResponse({ status: 404, ...errorResponse })
    async getXml(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('uuid') uuid: string, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
      const file = await this.pipeline.documentFile(code, supplier, uuid, context);
      await reply.header('content-type', `${file.mediaType}; charset=utf-8`).send(file.bytes);
    }

    @Get('delivery-status/:uuid')
    @ApiOperation({ summary: '`Scheduled` after submission, `Sent` once the receiving access point took it over AS4 (live Peppol), `Delivered` once its Message Level Status confirmed, `Failed` with `DeliveryFailure`.' })
    @ApiHeader({ name: supplierHeader, required: true })
    @ApiResponse({ status: 404, ...errorResponse })
    deliveryStatus(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('uuid') uuid: string, @Ctx() context: RequestContext) {
      return this.pipeline.document(code, supplier, uuid, context, 'delivery-status');
    }
  }
  Object.defineProperty(PeppolAreaController, 'name', { value: `${code.toUpperCase()}AreaController` });
  return PeppolAreaController;
}
