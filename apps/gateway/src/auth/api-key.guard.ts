import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError } from '@einvoice/domain';
import type { FastifyRequest } from 'fastify';
import { Connections } from '../infrastructure/infrastructure.module';
import { Tenant, hashApiKey } from './api-keys';

export const AUTH_HEADER = 'x-svc-auth-key';
const PUBLIC = Symbol('public-route');

/** Marks a route that needs no API key (health, docs). */
export const Public = () => SetMetadata(PUBLIC, true);

export type AuthenticatedRequest = FastifyRequest & { tenant: Tenant };

/** Short cache so that a hot client costs no query per request; a revoked key lives at most this long. */
const CACHE_MS = 30_000;

@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly cache = new Map<string, { tenant: Tenant | null; until: number }>();

  constructor(
    private readonly reflector: Reflector,
    private readonly connections: Connections,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = request.headers[AUTH_HEADER];
    if (typeof key !== 'string' || key.length === 0) {
      throw new AppError('unauthenticated', 'AUTH.MISSING_KEY', `Send your API key in the ${AUTH_HEADER} header.`);
    }
    const tenant = await this.lookup(hashApiKey(key));
    if (!tenant) throw new AppError('unauthenticated', 'AUTH.INVALID_KEY', 'The API key is not valid.');
    request.tenant = tenant;
    return true;
  }

  private async lookup(hash: string): Promise<Tenant | null> {
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.until > now) return cached.tenant;
    const rows: Tenant[] = await this.connections.dataSource.query(`SELECT id, name FROM tenants WHERE api_key_hash = $1`, [hash]);
    const tenant = rows[0] ?? null;
    // Only hits are cached, so a key created a moment ago works at once.
    if (tenant) {
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(hash, { tenant, until: now + CACHE_MS });
    }
    return tenant;
  }
}
