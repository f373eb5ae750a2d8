import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { areaOf, supplierHeaderOf } from '@einvoice/areas';
import { Ctx } from '../../http/request-context';
import { SeedHeader } from '../../http/seed-headers';
import type { RequestContext } from '../../http/request-context';
import { MyInvoisService } from './myinvois.service';
import { errorResponse, schemaRef } from '../../http/openapi';

const supplierHeader = supplierHeaderOf(areaOf('my'));

@ApiTags('Malaysia (/api/einvoice)')
@ApiSecurity('x-svc-auth-key')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@Controller('api/einvoice')
export class MyInvoisController {
  constructor(private readonly service: MyInvoisService) {}

  @Post('onboard')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Onboard a supplier to MyInvois: logs in with its client id/secret first (bad credentials: 400, nothing stored); '
      + 'registers its PINT MY Peppol participant (0230 + TIN) unless that is registered here already.',
  })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('MyInvoisOnboardingBody'))
  @ApiResponse({
    status: 201,
    description: '`{status, message, data:{supplier_uuid}}`; when the TIN\'s participant is registered here already, the onboarding '
      + 'succeeds without it and `message` says so (docs/areas.md "Malaysia (MyInvois)": a receiver is in exactly one SMP)',
  })
  onboard(@Body() body: unknown, @Ctx() context: RequestContext) {
    return this.service.onboard(body, context);
  }

  @Post('validate-tin')
  @HttpCode(200)
  @ApiOperation({ summary: "Validate a taxpayer's TIN against an id (BRN, NRIC, PASSPORT, ARMY) at MyInvois." })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiBody(schemaRef('TinValidationBody'))
  @ApiResponse({ status: 200, description: '`{status, message}`' })
  @ApiResponse({ status: 404, ...errorResponse })
  validateTin(@SeedHeader(supplierHeader) supplier: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext) {
    return this.service.validateTin(supplier, body, context);
  }
}
