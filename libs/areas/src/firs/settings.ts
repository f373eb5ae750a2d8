import { FIRS_URL } from './live-firs';

/** The Nigerian area's settings (README.md "Configuration"). */
export interface FirsSettings {
  readonly mode: 'sandbox' | 'live';
  /** FIRS_URL (`https://einvoice.firs.gov.ng`). */
  readonly url: string;
  /** FIRS_API_KEY / FIRS_API_SECRET: the service's credentials for FIRS MBS (`x-api-key`, `x-api-secret`). */
  readonly apiKey: string;
  readonly apiSecret: string;
  /** FIRS_PUBLIC_KEY (PEM) and FIRS_CERTIFICATE: `crypto_keys.txt` of the FIRS dashboard, for the QR. */
  readonly publicKey: string;
  readonly certificate: string;
  readonly timeoutMs: number;
  /** FIRS_SANDBOX_DELAY_MS (0): the sandbox's time to answer a signing, after it signed. */
  readonly sandboxAnswerDelayMs: number;
}

export function firsSettings(env: NodeJS.ProcessEnv = process.env): FirsSettings {
  return {
    mode: env.FIRS_MODE === 'live' ? 'live' : 'sandbox',
    url: env.FIRS_URL || FIRS_URL,
    apiKey: env.FIRS_API_KEY ?? '',
    apiSecret: env.FIRS_API_SECRET ?? '',
    publicKey: (env.FIRS_PUBLIC_KEY ?? '').replace(/\\n/g, '\n'),
    certificate: env.FIRS_CERTIFICATE ?? '',
    timeoutMs: Number(env.FIRS_TIMEOUT_MS ?? 30_000),
    sandboxAnswerDelayMs: Number(env.FIRS_SANDBOX_DELAY_MS ?? 0),
  };
}
