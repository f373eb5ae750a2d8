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
}

export function verifactuSettings(env: NodeJS.ProcessEnv = process.env): VerifactuSettings {
  return {
    mode: env.VERIFACTU_MODE === 'live' ? 'live' : 'sandbox',
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
