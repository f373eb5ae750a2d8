import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { areaOf, myinvois, supplierHeaderOf } from '@einvoice/areas';
import { Ctx } from '../../http/request-context';
import { SeedHeader } from '../../http/seed-headers';
import type { RequestContext } from '../../http/request-context';
import { MyInvoisService } from './myinvois.service';
import { errorResponse, schemaRef } from '../../http/openapi';
import { onboardedSchema, supplierHeaderDescription, tinValidSchema } from './myinvois-openapi';
import { idempotencyKeyHeader } from '../../http/openapi-idempotency';

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
    summary: 'Onboard a supplier to MyInvois.',
    description: 'Logs in at MyInvois with the client id/secret LHDN issued for the supplier first (bad credentials: 400, nothing stored), '
      + 'then stores the supplier (its secret sealed) and registers its PINT MY Peppol participant (0230 + TIN) and sends it to the SML, '
      + 'unless that participant is registered here already: then the onboarding succeeds without it and `message` says so '
      + '(docs/areas.md "Malaysia (MyInvois)": a receiver is in exactly one SMP). The answer\'s `supplier_uuid` is the header of every other route. '
      + '409 SUPPLIER.EXISTS: this account onboarded a supplier with this TIN already (`data.supplier_id` names it).',
  })
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('MyInvoisOnboardingBody'), examples: myinvois.myInvoisExamples.onboard })
  @ApiResponse({ status: 201, description: 'Onboarded.', schema: onboardedSchema })
  @ApiResponse({ status: 409, ...errorResponse })
  onboard(@Body() body: unknown, @Ctx() context: RequestContext) {
    return this.service.onboard(body, context);
  }

  @Post('validate-tin')
  @HttpCode(200)
  @ApiOperation({
    summary: "Validate a taxpayer's TIN against an id (BRN, NRIC, PASSPORT, ARMY) at MyInvois.",
    description: 'Asks MyInvois ("Validate Taxpayer\'s TIN") with the supplier\'s own login, e.g. before invoicing a new buyer; nothing is stored. '
      + '404 MYINVOIS.TIN_NOT_FOUND: MyInvois knows no taxpayer with this TIN and id; 404 also for an unknown supplier.',
  })
  @ApiHeader({ name: supplierHeader, required: true, description: supplierHeaderDescription })
  @ApiBody({ ...schemaRef('TinValidationBody'), examples: myinvois.myInvoisExamples.validateTin })
  @ApiResponse({ status: 200, description: 'MyInvois knows the TIN with this id.', schema: tinValidSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  validateTin(@SeedHeader(supplierHeader) supplier: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext) {
    return this.service.validateTin(supplier, body, context);
  }
}
