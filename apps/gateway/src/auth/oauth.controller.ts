import { Body, Controller, Delete, Header, Headers, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { errorResponse } from '../http/openapi';
import { type AuthenticatedRequest, Public } from './api-key.guard';
import { clientCredentialsRequest } from './oauth-request';
import { OAuthTokens } from './oauth-tokens.service';

const tokenRequestSchema = {
  title: 'OAuthTokenRequest',
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: { type: 'string', enum: ['client_credentials'] },
    client_id: { type: 'string', description: 'Unless sent with HTTP Basic authentication' },
    client_secret: { type: 'string', description: 'Unless sent with HTTP Basic authentication' },
  },
  example: { grant_type: 'client_credentials', client_id: 'client_5f0c8e1d2a3b4c5d6e7f8a9b', client_secret: 'cs_…' },
};
const oauthError = (error: string) => ({ schema: { type: 'object', properties: { error: { type: 'string' }, error_description: { type: 'string' } }, example: { error, error_description: '…' } } });

/**
 * OAuth 2.0 client credentials (issue 10 "Authentication"; README "OAuth 2.0 client credentials"):
 * clients exchange their id and secret for an access token (`at_…`, one hour) that is accepted
 * wherever an API key is, as `Authorization: Bearer` or in `x-svc-auth-key`.
 */
@ApiTags('OAuth 2.0 (/v1/oauth)')
@Controller('v1/oauth')
export class OAuthController {
  constructor(private readonly tokens: OAuthTokens) {}

  @Post('token')
  @Public()
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  @Header('pragma', 'no-cache')
  @ApiOperation({ summary: 'An access token for client credentials (JSON or form body; HTTP Basic client authentication accepted). Errors follow RFC 6749 §5.2.' })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({ schema: tokenRequestSchema })
  @ApiResponse({ status: 200, schema: { example: { access_token: 'at_…', token_type: 'Bearer', expires_in: 3600 } } })
  @ApiResponse({ status: 400, description: 'invalid_request | unsupported_grant_type', ...oauthError('invalid_request') })
  @ApiResponse({ status: 401, description: 'invalid_client', ...oauthError('invalid_client') })
  token(@Body() body: unknown, @Headers('authorization') authorization: string | undefined) {
    return this.tokens.issue(clientCredentialsRequest(body, authorization));
  }

  @Post('clients')
  @HttpCode(201)
  @ApiSecurity('x-svc-auth-key')
  @ApiOperation({ summary: 'A new OAuth client of your account; the secret is shown once.' })
  @ApiResponse({ status: 201, schema: { example: { client_id: 'client_5f0c8e1d2a3b4c5d6e7f8a9b', client_secret: 'cs_…' } } })
  @ApiResponse({ status: 401, ...errorResponse })
  createClient(@Req() request: AuthenticatedRequest) {
    return this.tokens.createClient(request.tenant);
  }

  @Delete('clients/:client_id')
  @HttpCode(204)
  @ApiSecurity('x-svc-auth-key')
  @ApiOperation({ summary: 'Delete a client: its access tokens stop working at once.' })
  @ApiParam({ name: 'client_id' })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 401, ...errorResponse })
  async deleteClient(@Req() request: AuthenticatedRequest, @Param('client_id') clientId: string): Promise<void> {
    await this.tokens.deleteClient(request.tenant, clientId);
  }
}
