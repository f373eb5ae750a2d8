import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { areaOf, myinvois, supplierHeaderOf } from '@einvoice/areas';
import type { FastifyReply } from 'fastify';
import { Ctx } from '../../http/request-context';
import { SeedHeader } from '../../http/seed-headers';
import { errorResponse, schemaRef } from '../../http/openapi';
import type { RequestContext } from '../../http/request-context';
import { MyInvoisReceivedService } from './received.service';
import { sendAnswer } from '../../http/answer';
import { rejectionPendingExample, rejectionSchema } from './myinvois-openapi';
import { idempotencyKeyHeader } from '../../http/openapi-idempotency';

const supplierHeader = supplierHeaderOf(areaOf('my'));

/** Malaysian area, documents received at MyInvois: the buyer's rejection (SDK "04 reject document"). */
@ApiTags('Malaysia (/api/einvoice)')
@ApiSecurity('x-svc-auth-key')
@ApiHeader({ name: supplierHeader, required: true, description: 'The buyer: an onboarded Malaysian supplier whose TIN is the receiver of the document' })
@ApiParam({ name: 'uuid', description: 'The MyInvois uuid of the received document', example: '3RGMW1VH2TKP5S2GDE9F0H8J10' })
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@ApiResponse({ status: 404, ...errorResponse })
@Controller('api/einvoice/received')
export class MyInvoisReceivedController {
  constructor(private readonly service: MyInvoisReceivedService) {}

  @Post(':uuid/reject')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Reject a document this supplier received (its recipient only, within 72 h of validation, once), body `{reason}`; MyInvois decides.',
    description: 'The reporting worker sends the rejection to MyInvois ("Reject Document"); the answer waits for MyInvois (200, state rejected: its issuer may now cancel it) '
      + 'or answers 202 (state requested: poll `href`). A retry with the same Idempotency-Key answers the same request. '
      + '404: no such received document. 403 / 409: see below.',
  })
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('ReasonBody'), examples: myinvois.myInvoisExamples.reject })
  @ApiResponse({ status: 200, description: 'MyInvois recorded the rejection (state rejected).', schema: rejectionSchema })
  @ApiResponse({ status: 202, description: 'Sent, not answered yet (state requested): poll `data.href`.', content: { 'application/json': { schema: rejectionSchema, example: rejectionPendingExample } } })
  @ApiResponse({ status: 403, description: 'MYINVOIS.REJECT_REFUSED: this supplier is not the receiver (the authority\'s error in errors[0])', ...schemaRef('ErrorBody') })
  @ApiResponse({ status: 409, description: 'MYINVOIS.REJECT_REFUSED (72 h passed, rejected before), MYINVOIS.REJECTION_IN_PROGRESS, MYINVOIS.ALREADY_REJECTED', ...schemaRef('ErrorBody') })
  async reject(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('uuid') uuid: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendAnswer(reply, await this.service.reject(supplier, uuid, body, context));
  }

  @Get(':uuid/rejection')
  @ApiOperation({
    summary: "This supplier's rejection of a received document and MyInvois's answer.",
    description: 'Where a 202 of POST …/reject is polled: requested until MyInvois answers, then rejected, or refused with MyInvois\'s error. 404: this supplier never asked to reject it.',
  })
  @ApiResponse({ status: 200, description: 'The rejection and its state.', schema: rejectionSchema })
  rejection(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('uuid') uuid: string, @Ctx() context: RequestContext) {
    return this.service.rejection(supplier, uuid, context);
  }
}
