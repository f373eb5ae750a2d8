import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { errorResponse } from '../http/openapi';
import { noQuery } from '../operations/operations-query';
import { whoamiSchema } from '../operations/operations.openapi';
import { AnyCaller, type AuthenticatedRequest } from './api-key.guard';

/**
 * Which credential a client holds (#50): the console signs in with one field, then shows the account's
 * pages for an account's key or token and the Operations page for an operator's.
 */
@ApiTags('Account (/v1)')
@ApiSecurity('x-svc-auth-key')
@ApiSecurity('operator')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@AnyCaller()
@Controller('v1/whoami')
export class WhoamiController {
  @Get()
  @ApiOperation({
    summary: 'Who the credential is: an account, or an operator.',
    description:
      'Answers for any valid credential, an account\'s API key (`sk_…`) or access token (`at_…`), or an operator key (`op_…`): `kind` says which, with the ' +
      'account\'s or the operator\'s id and name. A client that takes either in one field (the console) asks this first. 401 for anything else.',
  })
  @ApiResponse({ status: 200, description: '`{status, data: {kind, id, name}}`', schema: whoamiSchema })
  whoami(@Req() request: AuthenticatedRequest, @Query() query: Record<string, unknown>) {
    noQuery(query);
    const who = request.operator ? { kind: 'operator' as const, ...request.operator } : { kind: 'tenant' as const, id: request.tenant.id, name: request.tenant.name };
    return { status: 'success' as const, data: { kind: who.kind, id: who.id, name: who.name } };
  }
}
