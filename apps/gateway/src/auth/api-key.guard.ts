import { CanActivate, ExecutionContext, Injectable, SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { Reflector } from '@nestjs/core';
import { AppError } from '@einvoice/domain';
import type { FastifyRequest } from 'fastify';
import { Tenant, hashApiKey } from './api-keys';
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
    const key = request.headers[AUTH_HEADER];
    if (typeof key !== 'string' || key.length === 0) {
      throw new AppError('unauthenticated', 'AUTH.MISSING_KEY', `Send your API key in the ${AUTH_HEADER} header.`);
    }
    const tenant = await this.keys.tenantOf(hashApiKey(key));
    if (!tenant) throw new AppError('unauthenticated', 'AUTH.INVALID_KEY', 'The API key is not valid.');
    // After the key: an unknown key is a 401, and counts against nobody's allowance.
    await this.limits.take(tenant.id);
    request.tenant = tenant;
    return true;
  }
}
