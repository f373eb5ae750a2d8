import { JOFOTARA_URL } from './live-jofotara';

/** The Jordanian area's settings (README.md "Configuration"). */
export interface JofotaraSettings {
  /** `sandbox` (default) or `live`. */
  readonly mode: 'sandbox' | 'live';
  /** JOFOTARA_URL: the portal's base (`https://backend.jofotara.gov.jo`). */
  readonly url: string;
  /** JOFOTARA_TIMEOUT_MS (30 s). */
  readonly timeoutMs: number;
  /** JOFOTARA_SANDBOX_DELAY_MS (0): the sandbox's time to answer (the bench's latency; the kill -9 test's window). */
  readonly sandboxAnswerDelayMs: number;
}

export function jofotaraSettings(env: NodeJS.ProcessEnv = process.env): JofotaraSettings {
  return {
    mode: env.JOFOTARA_MODE === 'live' ? 'live' : 'sandbox',
    url: env.JOFOTARA_URL || JOFOTARA_URL,
    timeoutMs: Number(env.JOFOTARA_TIMEOUT_MS ?? 30_000),
    sandboxAnswerDelayMs: Number(env.JOFOTARA_SANDBOX_DELAY_MS ?? 0),
  };
}
