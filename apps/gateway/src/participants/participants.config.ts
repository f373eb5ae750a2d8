import { loadPeppolInboundSettings } from '../peppol-inbound/inbound-settings';
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
  /**
   * This access point's own participant (`iso6523-actorid-upis::0242:000123`, from PEPPOL_SERVICE_PROVIDER_ID):
   * the SMP serves it, receiving the MLS, as if hosted, so that other access points find where to send
   * the MLS of what this one sent (MLS 1.0 §4). Unset in sandbox mode.
   */
  readonly serviceProviderParticipantId?: string;
}

export function loadParticipantsConfig(env: NodeJS.ProcessEnv = process.env, smp: SmpSettings = smpSettings()): ParticipantsConfig {
  return {
    smlWaitMs: Number(env.SML_WAIT_MS ?? 5_000),
    kycPdfMaxBytes: Number(env.KYC_PDF_MAX_BYTES ?? 700_000),
    smp,
    technicalContactUrl: env.PEPPOL_AP_TECHNICAL_CONTACT_URL ?? 'https://einvoice.example/support',
    smpPublicUrl: env.SMP_PUBLIC_URL?.replace(/\/+$/, ''),
    serviceProviderParticipantId: serviceProviderParticipant(loadPeppolInboundSettings(env).serviceProviderId),
  };
}

/** Canonical form (scheme, lower-case value), as `requireParticipantId` gives the SMP's requests. */
const serviceProviderParticipant = (id: string | undefined): string | undefined => (id ? `iso6523-actorid-upis::${id.toLowerCase()}` : undefined);
