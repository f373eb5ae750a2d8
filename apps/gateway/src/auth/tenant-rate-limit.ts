import { Inject, Injectable } from '@nestjs/common';
import { AppError, createLogger } from '@einvoice/domain';
import type Redis from 'ioredis';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { Connections } from '../infrastructure/infrastructure.module';

const log = createLogger('gateway');

/**
 * GCRA (the generic cell rate algorithm, a token bucket kept as one timestamp): `tat` is the
 * theoretical arrival time of the next request. A request is allowed while `tat - now` stays within
 * the burst tolerance; each allowed request moves `tat` one emission interval on. Redis's own clock
 * (TIME) so that every gateway instance shares one bucket per tenant, whatever its clock says.
 * Returns 0 when allowed, else the ms until a request would be.
 */
const GCRA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local wait = tat - tolerance - now
if wait > 0 then return wait end
local next = tat + interval
redis.call('SET', KEYS[1], next, 'PX', math.ceil(next - now) + 1000)
return 0
`;

type WithGcra = Redis & { tenantGcra(key: string, intervalMs: number, toleranceMs: number): Promise<number> };

/** How long a warning about an unreachable Redis stays quiet before it is logged again. */
const WARN_EVERY_MS = 10_000;

/**
 * Per-tenant request limits (#9 fair sharing, README "Request limits"): every authenticated request
 * takes one token of its tenant's bucket (`TENANT_RATE_LIMIT_PER_S` sustained, `TENANT_RATE_BURST`
 * at once); beyond it, 429 RATE_LIMIT.EXCEEDED with Retry-After. The bucket lives in Redis so that
 * every gateway instance shares it. Redis unreachable: requests pass (logged), since refusing every
 * invoice for a counter's sake would be the bigger outage.
 */
@Injectable()
export class TenantRateLimit {
  private readonly redis: WithGcra;
  private readonly intervalMs: number;
  private readonly toleranceMs: number;
  private warnedAt = 0;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig, connections: Connections) {
    this.redis = connections.redis as WithGcra;
    if (!this.redis.tenantGcra) this.redis.defineCommand('tenantGcra', { numberOfKeys: 1, lua: GCRA });
    this.intervalMs = config.tenantRatePerSecond > 0 ? 1000 / config.tenantRatePerSecond : 0;
    this.toleranceMs = this.intervalMs * Math.max(0, config.tenantRateBurst - 1);
  }

  /** Takes one request of the tenant's allowance, or throws `rate_limited` with `retryAfterMs`. */
  async take(tenantId: string): Promise<void> {
    if (this.intervalMs === 0) return;
    let waitMs: number;
    try {
      waitMs = await this.redis.tenantGcra(`${this.config.kafkaPrefix}:rate:tenant:${tenantId}`, this.intervalMs, this.toleranceMs);
    } catch (error) {
      if (Date.now() - this.warnedAt > WARN_EVERY_MS) {
        this.warnedAt = Date.now();
        log('warn', 'tenant rate limits not enforced: Redis unavailable', { error: String(error) });
      }
      return;
    }
    if (waitMs > 0) {
      throw new AppError(
        'rate_limited',
        'RATE_LIMIT.EXCEEDED',
        `Too many requests for this account: at most ${this.config.tenantRatePerSecond} per second (bursts of ${this.config.tenantRateBurst}). Retry after the Retry-After header's seconds.`,
        { details: { retryAfterMs: Math.ceil(waitMs) } },
      );
    }
  }
}
