import { Body, Controller, Get, HttpCode, Param, Post, Res, Type } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { areaOf, peppolExamples, supplierHeaderOf } from '@einvoice/areas';
import type { FastifyReply } from 'fastify';
import { AreaPipeline } from '../../pipeline/area-pipeline';
import { sendAnswer } from '../../http/answer';
import { errorResponse, schemaRef } from '../../http/openapi';
import { idempotencyKeyHeader } from '../../http/openapi-idempotency';
import { Ctx, type RequestContext } from '../../http/request-context';
import { SeedHeader } from '../../http/seed-headers';
import { xmlContent } from '../../http/openapi-answers';
import { deliveryStatusSchema, documentSchema, onboardedSchema, scheduledSchema, supplierHeaderParam, uuidParam } from './peppol-openapi';
import { assertTransportMode } from './transport-mode';

/**
 * Belgium, Germany, Singapore (seed 002 "Belgium, Germany, Singapore (same shapes)",
 * libs/areas/src/peppol): the platform's routes under each area's prefix. One controller class per
 * area, made from the same code: the three areas share every shape.
 */
export function peppolAreaController(code: 'be' | 'de' | 'sg'): Type<unknown> {
  const { name, routePrefix } = areaOf(code);
  const supplierHeader = supplierHeaderOf(areaOf(code));
  const examples = peppolExamples[code];
  const supplierParam = supplierHeaderParam(supplierHeader);
  @ApiTags(`${name} (/${code})`)
  @ApiSecurity('x-svc-auth-key')
  @ApiResponse({ status: 400, ...errorResponse })
  @ApiResponse({ status: 401, ...errorResponse })
  @Controller(routePrefix)
  class PeppolAreaController {
    constructor(readonly pipeline: AreaPipeline) {}

    @Post('onboard')
    @HttpCode(201)
    @ApiOperation({
      summary: `Onboard a ${name} supplier to Peppol with this service as access point.`,
      description:
        'Checks the identifiers (scheme, format, check digits), stores the supplier and registers each identifier as a Peppol participant ' +
        'of this access point, published in the SML so that others can send to it; the answer\'s `supplier_uuid` names the supplier in its ' +
        'document and webhook routes. 409 `SUPPLIER.EXISTS`: your account onboarded a supplier with one of these identifiers in this area ' +
        'already (the error\'s `data.supplier_id` names it); 409 `PARTICIPANT.ALREADY_REGISTERED`: the participant is registered with this access point already (by another account, or through /1.0/participant).',
    })
    @ApiHeader(idempotencyKeyHeader())
    @ApiBody({ ...schemaRef('OnboardingBody'), examples: examples.onboard })
    @ApiResponse({ status: 201, description: 'Onboarded: the supplier\'s id.', schema: onboardedSchema })
    @ApiResponse({ status: 409, ...errorResponse })
    onboard(@Body() body: unknown, @Ctx() context: RequestContext) {
      return this.pipeline.onboard(code, body, context);
    }

    @Post('generate/invoice')
    @ApiOperation({
      summary: 'Submit an invoice or credit note for delivery over Peppol; answers DeliveryStatus Scheduled.',
      description:
        'Validates the body against the schema and every business rule of the area (EN 16931, Peppol BIS Billing 3.0 or PINT SG, the ' +
        'national rules; all issues in one 400), renders the UBL and queues its delivery to the buyer\'s first identifier over Peppol: 202 ' +
        '`Scheduled`. The delivery worker then looks the receiver up (SML, SMP) and sends it over AS4; follow it with delivery-status. ' +
        '404 `SUPPLIER.NOT_FOUND`: no such supplier in this area for your account; 409 `DOCUMENT.DUPLICATE_ID`: the supplier ' +
        'submitted this `ID` already; 409 `SUPPLIER.INACTIVE`: the supplier was deactivated.',
    })
    @ApiHeader(supplierParam)
    @ApiHeader({ name: 'transport_mode', required: false, description: '`peppol` (the default and only value)', example: 'peppol' })
    @ApiHeader(idempotencyKeyHeader())
    @ApiBody({ ...schemaRef('InvoiceBody'), examples: examples.invoice })
    @ApiResponse({ status: 202, description: 'Accepted and queued for delivery.', schema: scheduledSchema })
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
    @ApiOperation({
      summary: 'The document: its uuid plus the submitted fields.',
      description: 'The fields as validated, with the defaults the area applied, and `DeliveryFailure` once its delivery failed. 404: no such document of this supplier (another account\'s is a 404 too).',
    })
    @ApiHeader(supplierParam)
    @ApiParam(uuidParam)
    @ApiResponse({ status: 200, description: 'The document.', schema: documentSchema(code) })
    @ApiResponse({ status: 404, ...errorResponse })
    getDocument(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('uuid') uuid: string, @Ctx() context: RequestContext) {
      return this.pipeline.document(code, supplier, uuid, context, 'get-document');
    }

    @Get('get-document/:uuid/xml')
    @ApiOperation({
      summary: 'The rendered UBL 2.1 document (Peppol BIS Billing 3.0, or PINT SG for Singapore).',
      description: 'The XML exactly as delivered over Peppol (Invoice or CreditNote root). 404: no such document of this supplier.',
    })
    @ApiHeader(supplierParam)
    @ApiParam(uuidParam)
    @ApiProduces('application/xml')
    @ApiResponse({ status: 200, description: 'The UBL document.', content: xmlContent })
    @ApiResponse({ status: 404, ...errorResponse })
    async getXml(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('uuid') uuid: string, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
      const file = await this.pipeline.documentFile(code, supplier, uuid, context);
      await reply.header('content-type', `${file.mediaType}; charset=utf-8`).send(file.bytes);
    }

    @Get('delivery-status/:uuid')
    @ApiOperation({
      summary: 'Where the document\'s delivery over Peppol stands.',
      description: '`Scheduled` after submission, `Sent` once the receiving access point took it over AS4 (live Peppol), `Delivered` once its Message Level Status confirmed, `Failed` with `DeliveryFailure`. Poll it until `Delivered` or `Failed`. 404: no such document of this supplier.',
    })
    @ApiHeader(supplierParam)
    @ApiParam(uuidParam)
    @ApiResponse({ status: 200, description: 'Its delivery status.', schema: deliveryStatusSchema })
    @ApiResponse({ status: 404, ...errorResponse })
    deliveryStatus(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('uuid') uuid: string, @Ctx() context: RequestContext) {
      return this.pipeline.document(code, supplier, uuid, context, 'delivery-status');
    }
  }
  Object.defineProperty(PeppolAreaController, 'name', { value: `${code.toUpperCase()}AreaController` });
  return PeppolAreaController;
}
