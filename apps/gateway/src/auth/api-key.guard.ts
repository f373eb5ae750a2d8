import { CanActivate, ExecutionContext, Injectable, SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { Reflector } from '@nestjs/core';
import { AppError, addToLogContext } from '@einvoice/domain';
import type { FastifyRequest } from 'fastify';
import { Connections } from '../infrastructure/infrastructure.module';
import { type Tenant, hashApiKey } from './api-keys';
import { type Operator, isOperatorKey, operatorOf } from './operator-keys';
import { TenantKeys } from './tenant-keys';
import { TenantRateLimit } from './tenant-rate-limit';

export const AUTH_HEADER = 'x-svc-auth-key';
const PUBLIC = Symbol('public-route');
const CALLERS = Symbol('route-callers');

/** Marks an operation of the OpenAPI document that needs no key (openapi.ts gives it `security: []`). */
export const PUBLIC_EXTENSION = 'x-public';

/** Marks a route that needs no API key (health, docs, public Peppol network data). */
export const Public = () => applyDecorators(SetMetadata(PUBLIC, true), ApiExtension(PUBLIC_EXTENSION, true));

/**
 * Who may call a route (#50): an account (`tenant`, every route's default), an operator (`/v1/operations`), or
 * either (`GET /v1/whoami`, which tells a client which it holds).
 */
type Callers = 'tenant' | 'operator' | 'any';

/** Marks an operator's route (`/v1/operations/*`): an operator key only; an account's key or token is a 403. */
export const OperatorOnly = () => SetMetadata(CALLERS, 'operator' satisfies Callers);

/** Marks a route any valid credential may call, an account's or an operator's. */
export const AnyCaller = () => SetMetadata(CALLERS, 'any' satisfies Callers);

/** `tenant` on an account's request, `operator` on an operator's: never both. */
export type AuthenticatedRequest = FastifyRequest & { tenant: Tenant; operator?: Operator };

@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: TenantKeys,
    private readonly limits: TenantRateLimit,
    private readonly connections: Connections,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const credential = credentialOf(request);
    if (!credential) {
      throw new AppError('unauthenticated', 'AUTH.MISSING_KEY', `Send your API key in the ${AUTH_HEADER} header, or an API key or access token as Authorization: Bearer.`);
    }
    const callers = this.reflector.getAllAndOverride<Callers>(CALLERS, [context.getHandler(), context.getClass()]) ?? 'tenant';
    // The prefix tells them apart: `op_` an operator key, `at_` an OAuth access token, anything else an API key (`sk_`).
    if (isOperatorKey(credential)) return this.operatorRequest(request, credential, callers);
    const tenant = credential.startsWith(ACCESS_TOKEN_PREFIX) ? await this.accessTokenTenant(credential) : await this.keys.tenantOf(hashApiKey(credential));
    if (!tenant) throw new AppError('unauthenticated', 'AUTH.INVALID_KEY', 'The API key is not valid.');
    // After the key is known: a 403 to a valid account key, a 401 to an unknown one.
    if (callers === 'operator') throw new AppError('forbidden', 'AUTH.OPERATOR_ONLY', 'This route is an operator\'s: send an operator key (`op_…`, `cli operators create <name>`); an account\'s key or token cannot call it.');
    // After the key: an unknown key is a 401, and counts against nobody's allowance.
    await this.limits.take(tenant.id);
    request.tenant = tenant;
    addToLogContext({ tenantId: tenant.id });
    return true;
  }

  /** An operator key: valid on operator routes (and those any caller may call); on an account's route a 403, since it acts for no account. */
  private async operatorRequest(request: AuthenticatedRequest, key: string, callers: Callers): Promise<true> {
    const operator = await operatorOf((sql, params) => this.connections.dataSource.query(sql, params), hashApiKey(key));
    if (!operator) throw new AppError('unauthenticated', 'AUTH.INVALID_KEY', 'The operator key is not valid (unknown, or its operator was disabled).');
    if (callers === 'tenant') throw new AppError('forbidden', 'AUTH.NO_ACCOUNT', 'An operator key acts for no account: send an account\'s API key or access token to this route.');
    // Operators have a bucket of their own (the tenants' limits, README "Request limits"), apart from every account's.
    await this.limits.take(`operator:${operator.id}`);
    request.operator = operator;
    addToLogContext({ operatorId: operator.id });
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
