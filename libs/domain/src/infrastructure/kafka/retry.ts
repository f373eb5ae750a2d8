import { AppError } from '../../errors';

/** How often a failing handler is tried before its message goes to the dead-letter topic. */
export interface RetryPolicy {
  /** Tries in all, the first one included. Default 5. */
  readonly attempts: number;
  /** Wait before the second try; doubles each time. Default 200 ms. */
  readonly initialBackoffMs: number;
  /** Upper bound of one wait. Default 5000 ms. */
  readonly maxBackoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, initialBackoffMs: 200, maxBackoffMs: 5_000 };

/**
 * Worth another try? An AppError says so itself (`retriable`, STYLE.md §3); anything else is an
 * unexpected failure (a dropped connection, a bug in a dependency) and gets the benefit of the doubt.
 */
export function isRetriable(error: unknown): boolean {
  return error instanceof AppError ? error.retriable : true;
}

/**
 * Wait after failed try number `attempt` (1-based): exponential, capped, with "equal jitter"
 * (half fixed, half random) so that instances failing together do not retry in lockstep.
 */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const base = Math.min(policy.maxBackoffMs, policy.initialBackoffMs * 2 ** (attempt - 1));
  return Math.round(base / 2 + (random() * base) / 2);
}

/** Longest total wait one message can spend in backoff. */
export function worstCaseBackoffMs(policy: RetryPolicy): number {
  let total = 0;
  for (let attempt = 1; attempt < policy.attempts; attempt++) total += backoffMs(policy, attempt, () => 1);
  return total;
}

/**
 * Sleeps `ms`, calling `heartbeat` at least every `intervalMs`: kafkajs only heartbeats when
 * asked (there is no background thread), so a long wait inside `eachMessage` would otherwise
 * let the session expire and the group rebalance under us. A heartbeat error (a rebalance in
 * progress) propagates: the message is not committed and its next owner gets it again.
 */
export async function sleepWithHeartbeats(ms: number, intervalMs: number, heartbeat: () => Promise<void>): Promise<void> {
  const until = Date.now() + ms;
  await heartbeat();
  for (let left = ms; left > 0; left = until - Date.now()) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(left, intervalMs)));
    await heartbeat();
  }
}

/** A stable code for the `x-error-code` header. */
export function errorCode(error: unknown): string {
  if (error instanceof AppError) return error.code;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.name : 'UNKNOWN';
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
