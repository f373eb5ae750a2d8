import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { errorResponse } from '../http/openapi';
import { Ctx, type RequestContext } from '../http/request-context';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './page';
import { supplierChangeSchema, supplierDetailSchema, supplierListSchema } from './suppliers.openapi';
import { SuppliersAccountService } from './suppliers.service';

const idParam = { name: 'id', description: 'The supplier id its onboarding answered.', example: '0f8e8b1c-6a57-4d57-9d5e-2f0f3c1d9a11' };

/** Suppliers of every area, account-wide (#47, docs/account-api.md). */
@ApiTags('Account (/v1)')
@ApiSecurity('x-svc-auth-key')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@Controller('v1/suppliers')
export class SuppliersAccountController {
  constructor(private readonly service: SuppliersAccountService) {}

  @Get()
  @ApiOperation({
    summary: 'List your suppliers of every area, newest first.',
    description: 'Cursor paging: `limit` per page, `starting_after` the last `id` of the page before; `has_more` says whether a next page follows. A page does not move while suppliers are onboarded.',
  })
  @ApiQuery({ name: 'area', required: false, description: 'Only these areas: one code or several, comma-separated.', example: 'sg,be' })
  @ApiQuery({ name: 'limit', required: false, description: `1 to ${MAX_PAGE_LIMIT}; default ${DEFAULT_PAGE_LIMIT}.`, example: 20 })
  @ApiQuery({ name: 'starting_after', required: false, description: 'The id of the last supplier of the page before.', example: '0f8e8b1c-6a57-4d57-9d5e-2f0f3c1d9a11' })
  @ApiResponse({ status: 200, description: 'One page of suppliers.', schema: supplierListSchema })
  list(@Query() query: Record<string, unknown>, @Ctx() context: RequestContext) {
    return this.service.list(query, context);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One of your suppliers, with its onboarding fields.', description: 'Its profile as onboarded or changed since; never a secret (credentials, certificates, tokens). Another account\'s supplier is a 404.' })
  @ApiParam(idParam)
  @ApiResponse({ status: 200, description: 'The supplier.', schema: supplierDetailSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  get(@Param('id') id: string, @Ctx() context: RequestContext) {
    return this.service.get(id, context);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change what the supplier\'s area lets change.',
    description:
      'Names, address, contacts and the area\'s optional fields, in its onboarding body\'s names (`editable_fields`), checked by the area\'s onboarding rules: a Singapore supplier onboarded without a street (BR-106-GST-SG) gets one. The tax identifier never changes (400 `FIELD.NOT_EDITABLE`); a deactivated supplier does not either (409 `SUPPLIER.INACTIVE`).',
  })
  @ApiParam(idParam)
  @ApiBody({ schema: supplierChangeSchema })
  @ApiResponse({ status: 200, description: 'The supplier as changed.', schema: supplierDetailSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  update(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext) {
    return this.service.update(id, body, context);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Deactivate a supplier.',
    description: 'Its new documents are refused from now on (409 `SUPPLIER.INACTIVE`); its documents, and the supplier itself, stay readable. Deactivating again answers 204 too.',
  })
  @ApiParam(idParam)
  @ApiResponse({ status: 204, description: 'Deactivated.' })
  @ApiResponse({ status: 404, ...errorResponse })
  async deactivate(@Param('id') id: string, @Ctx() context: RequestContext): Promise<void> {
    await this.service.deactivate(id, context);
  }
}
