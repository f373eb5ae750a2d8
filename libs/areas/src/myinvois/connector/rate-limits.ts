/**
 * Client-side rate limiting for MyInvois: the authority limits requests per client id per
 * endpoint (notes/national-systems.md, SDK "Rate Limit" section of each API) and answers 429
 * with Retry-After beyond them. A token bucket per (client id, endpoint) makes callers wait
 * instead, for a moment (`maxWaitMs`); beyond it they get the 429 MyInvois would have answered,
 * without the call, so that nobody waits a minute holding what others need (a Kafka partition).
 * Pure apart from the injected clock and sleep.
 */
import { rateLimited } from './errors';

/** The API operations that have their own limit. */
export type MyInvoisEndpoint =
  | 'login'
  | 'submitDocuments'
  | 'getSubmission'
  | 'cancelDocument'
  | 'rejectDocument'
  | 'getDocument'
  | 'getDocumentDetails'
  | 'searchDocuments'
  | 'recentDocuments'
  | 'searchTin'
  | 'validateTin';

/** Requests per minute per client id, as the SDK documents them. */
export const MYINVOIS_RATE_LIMITS: Readonly<Record<MyInvoisEndpoint, number>> = {
  login: 12,
  submitDocuments: 100,
  getSubmission: 300,
  cancelDocument: 12,
  rejectDocument: 12,
  getDocument: 60,
  getDocumentDetails: 125,
  searchDocuments: 12,
  recentDocuments: 12,
  searchTin: 60,
  // Assumed: the Validate TIN page shows no limit; use Search TIN's.
  validateTin: 60,
};

const MINUTE_MS = 60_000;

/** A bucket of `capacity` tokens refilled continuously at `capacity` per minute. */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    readonly capacity: number,
    now: number,
    readonly windowMs: number = MINUTE_MS,
  ) {
    if (!(capacity > 0)) throw new RangeError('capacity must be positive');
    this.tokens = capacity;
    this.updatedAt = now;
  }

  /** Takes one token: 0 when taken, otherwise the ms to wait before one is available. */
  take(now: number): number {
    const perMs = this.capacity / this.windowMs;
    this.tokens = Math.min(this.capacity, this.tokens + Math.max(0, now - this.updatedAt) * perMs);
    this.updatedAt = Math.max(this.updatedAt, now);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / perMs));
  }
}

export interface RateLimiterOptions {
  /** Overrides of {@link MYINVOIS_RATE_LIMITS} (requests per minute). */
  readonly limits?: Partial<Record<MyInvoisEndpoint, number>>;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Longest wait for a slot; a longer one throws MYINVOIS.RATE_LIMITED with `retryAfterMs` (default: wait). */
  readonly maxWaitMs?: number;
}

/** Token buckets keyed by client id and endpoint. */
export class RateLimiter {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly limits: Record<MyInvoisEndpoint, number>;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly maxWaitMs: number;

  constructor(options: RateLimiterOptions = {}) {
    this.limits = { ...MYINVOIS_RATE_LIMITS, ...options.limits };
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.maxWaitMs = options.maxWaitMs ?? Number.POSITIVE_INFINITY;
  }

  /** Takes a slot now if there is one: 0, or the ms until the next slot. */
  tryAcquire(clientId: string, endpoint: MyInvoisEndpoint): number {
    const key = `${clientId}\u0000${endpoint}`;
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = new TokenBucket(this.limits[endpoint], now);
      this.buckets.set(key, bucket);
    }
    return bucket.take(now);
  }

  /** Waits until a slot is free (at most `maxWaitMs`), then takes it. */
  async acquire(clientId: string, endpoint: MyInvoisEndpoint): Promise<void> {
    for (;;) {
      const waitMs = this.tryAcquire(clientId, endpoint);
      if (waitMs === 0) return;
      if (waitMs > this.maxWaitMs) throw rateLimited(waitMs, endpoint);
      await this.sleep(waitMs);
    }
  }
}
