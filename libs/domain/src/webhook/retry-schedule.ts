/**
 * When a failed webhook is tried again (README "Webhooks"): exponential backoff with jitter,
 * `min(max, base * 2^(n-1)) * uniform(0.8, 1.2)` before attempt n+1. Defaults: 18 attempts,
 * base 10 s, cap 3 h: 10 s, 20 s, 40 s ... 2 h 50 min, then 3 h four times; 85,270 s ≈ 23.7 h
 * from the first attempt to the last (19–28 h with the jitter), then the delivery is `failed`.
 */
export interface RetrySchedule {
  /** Attempts in all, the first one included. */
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** Spread of the jitter: 0.2 means ±20 %. */
  readonly jitter: number;
}

export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = { attempts: 18, baseDelayMs: 10_000, maxDelayMs: 3 * 3_600_000, jitter: 0.2 };

/** Delay before the next attempt after `failedAttempts` failures (1 after the first). */
export function retryDelayMs(failedAttempts: number, schedule: RetrySchedule, random: () => number = Math.random): number {
  const nominal = Math.min(schedule.maxDelayMs, schedule.baseDelayMs * 2 ** Math.max(0, failedAttempts - 1));
  return Math.round(nominal * (1 - schedule.jitter + 2 * schedule.jitter * random()));
}

/** Nominal (jitter-free) time from the first attempt to the last. */
export function totalRetryWindowMs(schedule: RetrySchedule): number {
  let total = 0;
  for (let n = 1; n < schedule.attempts; n += 1) total += retryDelayMs(n, schedule, () => 0.5);
  return total;
}

/** Webhook settings read from the environment (README "Configuration"). */
export interface WebhookConfig {
  readonly schedule: RetrySchedule;
  /** A receiver that has not answered after this long failed this attempt. */
  readonly timeoutMs: number;
  /** http:// to loopback for development; never under NODE_ENV=production. */
  readonly allowLoopback: boolean;
  /** How often the dispatcher re-enqueues pending deliveries whose job is missing. */
  readonly sweepIntervalMs: number;
  /** Retries one dispatcher sends at once (its BullMQ worker). */
  readonly concurrency: number;
  /**
   * First attempts one dispatcher sends at once, without the queue (past it, new deliveries are
   * enqueued): a first attempt is a POST and two statements, so more of them may be in flight.
   */
  readonly firstAttemptsInFlight: number;
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) && n > 0 ? n : fallback;
}

export function loadWebhookConfig(env: NodeJS.ProcessEnv = process.env): WebhookConfig {
  return {
    schedule: {
      attempts: Math.floor(positive(env.WEBHOOK_ATTEMPTS, DEFAULT_RETRY_SCHEDULE.attempts)),
      baseDelayMs: positive(env.WEBHOOK_BACKOFF_BASE_MS, DEFAULT_RETRY_SCHEDULE.baseDelayMs),
      maxDelayMs: positive(env.WEBHOOK_BACKOFF_MAX_MS, DEFAULT_RETRY_SCHEDULE.maxDelayMs),
      jitter: DEFAULT_RETRY_SCHEDULE.jitter,
    },
    timeoutMs: positive(env.WEBHOOK_TIMEOUT_MS, 10_000),
    allowLoopback: env.WEBHOOK_ALLOW_LOOPBACK === 'true' && env.NODE_ENV !== 'production',
    sweepIntervalMs: positive(env.WEBHOOK_SWEEP_INTERVAL_MS, 30_000),
    concurrency: Math.floor(positive(env.WEBHOOK_CONCURRENCY, 20)),
    firstAttemptsInFlight: Math.floor(positive(env.WEBHOOK_FIRST_ATTEMPTS, 100)),
  };
}
