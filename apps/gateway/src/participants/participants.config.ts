import { X509Certificate } from 'node:crypto';
import { serviceProviderIdOf } from '@einvoice/areas';
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
    serviceProviderParticipantId: serviceProviderParticipant(checkedServiceProviderId(loadPeppolInboundSettings(env).serviceProviderId, smp)),
  };
}

/**
 * In live mode the service provider id must be the one the AP certificate names (`PBE000001` is
 * `0242:000001`): other access points send their MLS to the id the SBDH's MLS_TO names, or, without
 * one, to the id of the certificate that signed; two ids would split the MLS between an address this
 * SMP serves and one it does not. A certificate whose CN is no seat id (not a Peppol PKI one) is not checked.
 */
function checkedServiceProviderId(id: string | undefined, smp: SmpSettings): string | undefined {
  if (!id || smp.mode !== 'live') return id;
  const named = serviceProviderIdOf(new X509Certificate(Buffer.from(smp.apCertificate, 'base64')).toString());
  if (named && named.toLowerCase() !== id.toLowerCase()) {
    throw new Error(`PEPPOL_SERVICE_PROVIDER_ID is ${id}, but the AP certificate of PEPPOL_AP_KEYSTORE names the service provider ${named} (its seat id): set PEPPOL_SERVICE_PROVIDER_ID=${named}.`);
  }
  return id;
}

/** Canonical form (scheme, lower-case value), as `requireParticipantId` gives the SMP's requests. */
const serviceProviderParticipant = (id: string | undefined): string | undefined => (id ? `iso6523-actorid-upis::${id.toLowerCase()}` : undefined);
