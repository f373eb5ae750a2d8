import { KSEF_ENVIRONMENTS } from './live/ksef-api';
import type { KsefLimits } from './sandbox-ksef';
import { KSEF_SEND_LIMITS } from './sandbox-ksef';

/** The Polish area's settings (README.md "Configuration"). */
export interface KsefSettings {
  /** `sandbox` (default): the sandbox KSeF; `live`: KSeF 2.0 itself (live/live-ksef.ts). */
  readonly mode: 'sandbox' | 'live';
  /** KSEF_ENV `test` (default) | `demo` | `prod`: KSeF's environment in live mode, and the QR host (the sandbox's is `test`). */
  readonly environment: keyof typeof KSEF_ENVIRONMENTS;
  /** KSEF_URL: KSeF's API base, by default the environment's (`https://api-test.ksef.mf.gov.pl/v2`...). */
  readonly url: string;
  /** KSEF_TIMEOUT_MS (30 s): one call to KSeF. */
  readonly timeoutMs: number;
  /** KSEF_SESSION_IDLE_MS (10 min): an online session without a send for this long is closed. */
  readonly sessionIdleMs: number;
  /** KSEF_SANDBOX_LIMITS `perSecond/perMinute/perHour` (KSeF's send limits, 10/30/180, by default). */
  readonly sandboxLimits: KsefLimits;
  /** KSEF_SANDBOX_ANSWER_DELAY_MS (0): the sandbox's delay before answering a send. */
  readonly sandboxAnswerDelayMs: number;
}

export function ksefSettings(env: NodeJS.ProcessEnv = process.env): KsefSettings {
  const [perSecond, perMinute, perHour] = (env.KSEF_SANDBOX_LIMITS ?? '').split('/').map(Number);
  const mode = env.KSEF_MODE === 'live' ? 'live' : 'sandbox';
  const environment = mode === 'live' && (env.KSEF_ENV === 'demo' || env.KSEF_ENV === 'prod') ? env.KSEF_ENV : 'test';
  return {
    mode,
    environment,
    url: env.KSEF_URL || KSEF_ENVIRONMENTS[environment],
    timeoutMs: Number(env.KSEF_TIMEOUT_MS ?? 30_000),
    sessionIdleMs: Number(env.KSEF_SESSION_IDLE_MS ?? 600_000),
    sandboxAnswerDelayMs: Number(env.KSEF_SANDBOX_ANSWER_DELAY_MS ?? 0),
    sandboxLimits: perSecond > 0 && perMinute > 0 && perHour > 0 ? { perSecond, perMinute, perHour } : KSEF_SEND_LIMITS,
  };
}
