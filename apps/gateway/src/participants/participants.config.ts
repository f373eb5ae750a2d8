/** Settings of the Peppol participant area (README "Configuration"), read once from the environment. */
export interface ParticipantsConfig {
  /** How long an SML activate/deactivate waits for the delivery-worker's outcome before answering 202. */
  readonly smlWaitMs: number;
  /** Largest KYC PDF accepted, decoded; its base64 must also fit BODY_LIMIT_BYTES. */
  readonly kycPdfMaxBytes: number;
  /** The access point's AS4 endpoint: `EndpointId` in lookups and `EndpointURI` in SMP answers. */
  readonly apEndpointUrl: string;
  /** Base64 DER certificate of the access point for SMP answers; a placeholder until configured. */
  readonly apCertificate: string;
  readonly technicalContactUrl: string;
  /** Public base URL of the SMP interface for ServiceGroup hrefs; default: the request's own host. */
  readonly smpPublicUrl?: string;
}

export function loadParticipantsConfig(env: NodeJS.ProcessEnv = process.env): ParticipantsConfig {
  return {
    smlWaitMs: Number(env.SML_WAIT_MS ?? 5_000),
    kycPdfMaxBytes: Number(env.KYC_PDF_MAX_BYTES ?? 700_000),
    apEndpointUrl: env.PEPPOL_AP_ENDPOINT_URL ?? 'https://ap.einvoice.example/as4',
    apCertificate: env.PEPPOL_AP_CERTIFICATE ?? 'CERTIFICATE-PLACEHOLDER-configure-PEPPOL_AP_CERTIFICATE',
    technicalContactUrl: env.PEPPOL_AP_TECHNICAL_CONTACT_URL ?? 'https://einvoice.example/support',
    smpPublicUrl: env.SMP_PUBLIC_URL?.replace(/\/+$/, ''),
  };
}
