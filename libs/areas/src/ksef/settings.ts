import type { KsefLimits } from './sandbox-ksef';
import { KSEF_SEND_LIMITS } from './sandbox-ksef';

/** The Polish area's settings (README.md "Configuration"). */
export interface KsefSettings {
  /** `sandbox` (default): the sandbox KSeF and the test QR host. */
  readonly mode: 'sandbox' | 'live';
  /** KSEF_SANDBOX_LIMITS `perSecond/perMinute/perHour` (KSeF's send limits, 10/30/180, by default). */
  readonly sandboxLimits: KsefLimits;
  /** KSEF_SANDBOX_ANSWER_DELAY_MS (0): the sandbox's delay before answering a send. */
  readonly sandboxAnswerDelayMs: number;
}

export function ksefSettings(env: NodeJS.ProcessEnv = process.env): KsefSettings {
  const [perSecond, perMinute, perHour] = (env.KSEF_SANDBOX_LIMITS ?? '').split('/').map(Number);
  return {
    mode: env.KSEF_MODE === 'live' ? 'live' : 'sandbox',
    sandboxAnswerDelayMs: Number(env.KSEF_SANDBOX_ANSWER_DELAY_MS ?? 0),
    sandboxLimits: perSecond > 0 && perMinute > 0 && perHour > 0 ? { perSecond, perMinute, perHour } : KSEF_SEND_LIMITS,
  };
}
