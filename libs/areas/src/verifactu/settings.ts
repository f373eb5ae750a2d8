import { readFileSync } from 'node:fs';
import { AEAT_ENDPOINTS } from './live-aeat';
import type { VerifactuMode } from './qr';
import type { InvoicingSystem } from './soap';

/** The Spanish area's settings (README.md "Configuration"). */
export interface VerifactuSettings {
  /** `sandbox` (default): the sandbox AEAT and the test QR host; `live`: the AEAT and the production host. */
  readonly mode: VerifactuMode;
  /** The sandbox AEAT's `TiempoEsperaEnvio`, seconds (VERIFACTU_SANDBOX_WAIT_S, 60 as the AEAT's samples). */
  readonly sandboxWaitSeconds: number;
  /** The sandbox AEAT's delay before answering a call, ms (VERIFACTU_SANDBOX_ANSWER_DELAY_MS, 0). */
  readonly sandboxAnswerDelayMs: number;
  /** `SistemaInformatico` of every record: this gateway as its producer declares it. */
  readonly system: InvoicingSystem;
  /** Live mode: the web service (VERIFACTU_AEAT_URL, the production endpoint by default). */
  readonly aeatUrl: string;
  /** The QR's host: the test portal in sandbox mode and when the live endpoint is the AEAT's pre-production (`prewww`). */
  readonly qrEnvironment: VerifactuMode;
  /** Live mode: how long a call may take (VERIFACTU_AEAT_TIMEOUT_MS, 30 s). */
  readonly aeatTimeoutMs: number;
}

export function verifactuSettings(env: NodeJS.ProcessEnv = process.env): VerifactuSettings {
  const mode: VerifactuMode = env.VERIFACTU_MODE === 'live' ? 'live' : 'sandbox';
  const aeatUrl = env.VERIFACTU_AEAT_URL ?? AEAT_ENDPOINTS.production;
  return {
    mode,
    aeatUrl,
    aeatTimeoutMs: Number(env.VERIFACTU_AEAT_TIMEOUT_MS ?? 30_000),
    qrEnvironment: mode === 'live' && !new URL(aeatUrl).hostname.startsWith('prewww') ? 'live' : 'sandbox',
    sandboxWaitSeconds: Number(env.VERIFACTU_SANDBOX_WAIT_S ?? 60),
    sandboxAnswerDelayMs: Number(env.VERIFACTU_SANDBOX_ANSWER_DELAY_MS ?? 0),
    system: {
      producer: { nif: env.VERIFACTU_SYSTEM_NIF ?? 'B00000000', name: env.VERIFACTU_SYSTEM_NAME ?? 'einvoice gateway' },
      name: 'einvoice-gateway',
      id: 'EG',
      version: '1.0',
      installation: env.VERIFACTU_INSTALLATION ?? 'einvoice-1',
    },
  };
}

/**
 * Live mode's representative certificate (a colaborador social or an apoderado of the issuers), used
 * for issuers that gave no certificate of their own: PEM files named by VERIFACTU_CERT_FILE and
 * VERIFACTU_KEY_FILE (both or neither), read at start. `ca`: VERIFACTU_CA_FILE, to trust a server
 * other than the AEAT's public one.
 */
export function representativeCertificate(env: NodeJS.ProcessEnv = process.env): { cert?: string; key?: string; ca?: string } {
  const certFile = env.VERIFACTU_CERT_FILE;
  const keyFile = env.VERIFACTU_KEY_FILE;
  if (!certFile !== !keyFile) throw new Error('VERIFACTU_CERT_FILE and VERIFACTU_KEY_FILE go together (PEM certificate and its private key)');
  return {
    ...(certFile && keyFile ? { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') } : {}),
    ...(env.VERIFACTU_CA_FILE ? { ca: readFileSync(env.VERIFACTU_CA_FILE, 'utf8') } : {}),
  };
}
