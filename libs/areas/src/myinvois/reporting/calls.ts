/**
 * How the MyInvois reporting connector spends MyInvois's per-client-id rate limits (SDK "Rate Limit":
 * Get Recent Documents 12 RPM, Get Submission 300 RPM): answers shared for a moment by the reports
 * that ask the same question, and a 429 waited out when its Retry-After is short.
 */
import { retryAfterMsOf } from '@einvoice/domain';
import type { AuthorityCallContext } from '../../registry/authority';

/** How long a wait is cut into between heartbeats (the worker's Kafka session is a few seconds). */
const HEARTBEAT_EVERY_MS = 1_000;
/** Calls made at most for one answer when MyInvois keeps answering 429. */
const MAX_ATTEMPTS = 3;

/**
 * One call's answer shared by key: callers with the same key get the first one's promise while it
 * runs and for `ttlMs` after it resolved. A failed call is forgotten at once (the next caller tries).
 */
export class SharedAnswers<T> {
  private readonly entries = new Map<string, { readonly answer: Promise<T>; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  get(key: string, call: () => Promise<T>): Promise<T> {
    const now = this.now();
    for (const [k, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(k);
    const shared = this.entries.get(key);
    if (shared) return shared.answer;
    const entry = { answer: call(), expiresAt: Number.POSITIVE_INFINITY };
    this.entries.set(key, entry);
    entry.answer.then(
      () => {
        entry.expiresAt = this.now() + this.ttlMs;
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry.answer;
  }
}

/** What a wait needs: the clock, a way to sleep, and the longest Retry-After worth waiting for. */
export interface RetryAfterPolicy {
  readonly maxRetryAfterMs: number;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

/**
 * Runs `call`, waiting out a 429 whose `retryAfterMs` is at most `maxRetryAfterMs` (heartbeating
 * meanwhile, so the worker keeps its partition), up to MAX_ATTEMPTS calls; a longer wait, or any other
 * error, goes to the caller (the sweeps try again after the Retry-After).
 */
export async function withRetryAfter<T>(policy: RetryAfterPolicy, context: AuthorityCallContext, call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const retryAfterMs = retryAfterMsOf(error) ?? -1;
      if (retryAfterMs < 0 || retryAfterMs > policy.maxRetryAfterMs || attempt >= MAX_ATTEMPTS) throw error;
      const until = policy.now() + retryAfterMs;
      for (let left = retryAfterMs; left > 0; left = until - policy.now()) {
        await policy.sleep(Math.min(left, HEARTBEAT_EVERY_MS));
        await context.heartbeat();
      }
    }
  }
}

/** The default sleep. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
