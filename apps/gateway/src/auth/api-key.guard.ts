import { CanActivate, ExecutionContext, Injectable, SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { Reflector } from '@nestjs/core';
import { AppError, addToLogContext } from '@einvoice/domain';
import type { FastifyRequest } from 'fastify';
import { type Tenant, hashApiKey } from './api-keys';
import { TenantKeys } from './tenant-keys';
import { TenantRateLimit } from './tenant-rate-limit';

export const AUTH_HEADER = 'x-svc-auth-key';
const PUBLIC = Symbol('public-route');

/** Marks an operation of the OpenAPI document that needs no key (openapi.ts gives it `security: []`). */
export const PUBLIC_EXTENSION = 'x-public';

/** Marks a route that needs no API key (health, docs, public Peppol network data). */
export const Public = () => applyDecorators(SetMetadata(PUBLIC, true), ApiExtension(PUBLIC_EXTENSION, true));

export type AuthenticatedRequest = FastifyRequest & { tenant: Tenant };

@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: TenantKeys,
    private readonly limits: TenantRateLimit,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const credential = credentialOf(request);
    if (!credential) {
      throw new AppError('unauthenticated', 'AUTH.MISSING_KEY', `Send your API key in the ${AUTH_HEADER} header, or an API key or access token as Authorization: Bearer.`);
    }
    // The prefix tells them apart: `at_` an OAuth access token, anything else an API key (`sk_`).
    const tenant = credential.startsWith(ACCESS_TOKEN_PREFIX) ? await this.accessTokenTenant(credential) : await this.keys.tenantOf(hashApiKey(credential));
    if (!tenant) throw new AppError('unauthenticated', 'AUTH.INVALID_KEY', 'The API key is not valid.');
    // After the key: an unknown key is a 401, and counts against nobody's allowance.
    await this.limits.take(tenant.id);
    request.tenant = tenant;
    addToLogContext({ tenantId: tenant.id });
    return true;
  }

  private async accessTokenTenant(token: string): Promise<Tenant> {
    const found = await this.keys.tenantOfToken(hashApiKey(token));
    if (found === 'expired') throw new AppError('unauthenticated', 'AUTH.TOKEN_EXPIRED', 'The access token has expired: ask POST /v1/oauth/token for a new one.');
    if (!found) throw new AppError('unauthenticated', 'AUTH.INVALID_TOKEN', 'The access token is not valid (unknown, or its client was deleted).');
    return found;
  }
}

/** OAuth access tokens start with this; API keys with `sk_`. */
export const ACCESS_TOKEN_PREFIX = 'at_';

/** The credential of a request: `x-svc-auth-key`, else `Authorization: Bearer …` (RFC 6750). */
function credentialOf(request: FastifyRequest): string | undefined {
  const key = request.headers[AUTH_HEADER];
  if (typeof key === 'string' && key.length > 0) return key;
  const bearer = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(request.headers.authorization ?? '');
  return bearer?.[1];
}
