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

const CLIENT_ID = 'client_5f0c8e1d2a3b4c5d6e7f8a9b';
const tokenSchema = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in'],
  properties: {
    access_token: { type: 'string', description: 'Send it as `Authorization: Bearer <token>` (or in `x-svc-auth-key`) until it expires.', example: 'at_Zq3n8VbR1xK4mT7yW2pL9sD6fH0jC5gA1eN3uI8oQ4r' },
    token_type: { type: 'string', enum: ['Bearer'], example: 'Bearer' },
    expires_in: { type: 'integer', description: 'Seconds until it expires (OAUTH_TOKEN_TTL_SECONDS, default 3600).', example: 3600 },
  },
  example: { access_token: 'at_Zq3n8VbR1xK4mT7yW2pL9sD6fH0jC5gA1eN3uI8oQ4r', token_type: 'Bearer', expires_in: 3600 },
};
const clientSchema = {
  type: 'object',
  required: ['client_id', 'client_secret'],
  properties: {
    client_id: { type: 'string', description: 'The client\'s id.', example: CLIENT_ID },
    client_secret: { type: 'string', description: 'Its secret: in this answer only (only its hash is stored).', example: 'cs_7Hk2pQ9wX4mN1vB6tR3yL8dF5sJ0gC2aZ7eU4iO9nK' },
  },
  example: { client_id: CLIENT_ID, client_secret: 'cs_7Hk2pQ9wX4mN1vB6tR3yL8dF5sJ0gC2aZ7eU4iO9nK' },
};

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
  @ApiOperation({
    summary: 'An access token for client credentials (JSON or form body; HTTP Basic client authentication accepted). Errors follow RFC 6749 §5.2.',
    description: 'RFC 6749 §4.4: the client authenticates with its id and secret and receives an access token (`at_…`) accepted wherever an API key is, for your account, until it expires or the client is deleted. No API key needed; answers are never cached.',
  })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({ schema: tokenRequestSchema })
  @ApiResponse({ status: 200, description: 'The access token.', schema: tokenSchema })
  @ApiResponse({ status: 400, description: 'invalid_request | unsupported_grant_type', ...oauthError('invalid_request') })
  @ApiResponse({ status: 401, description: 'invalid_client', ...oauthError('invalid_client') })
  token(@Body() body: unknown, @Headers('authorization') authorization: string | undefined) {
    return this.tokens.issue(clientCredentialsRequest(body, authorization));
  }

  @Post('clients')
  @HttpCode(201)
  @ApiSecurity('x-svc-auth-key')
  @ApiOperation({
    summary: 'A new OAuth client of your account; the secret is shown once.',
    description: 'For a system that should hold short-lived tokens instead of an API key: exchange the id and secret at POST /v1/oauth/token. Lost the secret? Delete the client and create another.',
  })
  @ApiResponse({ status: 201, description: 'The client, with its secret.', schema: clientSchema })
  @ApiResponse({ status: 401, ...errorResponse })
  createClient(@Req() request: AuthenticatedRequest) {
    return this.tokens.createClient(request.tenant);
  }

  @Delete('clients/:client_id')
  @HttpCode(204)
  @ApiSecurity('x-svc-auth-key')
  @ApiOperation({
    summary: 'Delete a client: its access tokens stop working at once.',
    description: 'Every gateway instance forgets its tokens at once. 404 `OAUTH.CLIENT_NOT_FOUND`: no such client of your account.',
  })
  @ApiParam({ name: 'client_id', description: 'The client\'s id its creation answered.', example: CLIENT_ID })
  @ApiResponse({ status: 204, description: 'Deleted.' })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 401, ...errorResponse })
  async deleteClient(@Req() request: AuthenticatedRequest, @Param('client_id') clientId: string): Promise<void> {
    await this.tokens.deleteClient(request.tenant, clientId);
  }
}
