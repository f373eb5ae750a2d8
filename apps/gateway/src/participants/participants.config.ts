import { type SmpSettings, smpSettings } from '../smp/smp-settings';

/** Settings of the Peppol participant area (README "Configuration"), read once from the environment. */
export interface ParticipantsConfig {
  /** How long an SML activate/deactivate waits for the delivery-worker's outcome before answering 202. */
  readonly smlWaitMs: number;
  /** Largest KYC PDF accepted, decoded; its base64 must also fit BODY_LIMIT_BYTES. */
  readonly kycPdfMaxBytes: number;
  /** The AS4 endpoint and certificates the SMP publishes (AS4_PUBLIC_URL, keystores): smp-settings.ts. */
  readonly smp: SmpSettings;
  readonly technicalContactUrl: string;
  /** Public base URL of the SMP interface for ServiceGroup hrefs; default: the request's own host. */
  readonly smpPublicUrl?: string;
}

export function loadParticipantsConfig(env: NodeJS.ProcessEnv = process.env, smp: SmpSettings = smpSettings()): ParticipantsConfig {
  return {
    smlWaitMs: Number(env.SML_WAIT_MS ?? 5_000),
    kycPdfMaxBytes: Number(env.KYC_PDF_MAX_BYTES ?? 700_000),
    smp,
    technicalContactUrl: env.PEPPOL_AP_TECHNICAL_CONTACT_URL ?? 'https://einvoice.example/support',
    smpPublicUrl: env.SMP_PUBLIC_URL?.replace(/\/+$/, ''),
  };
}
