import { DEFAULT_TICKET_OPTIONS, type TicketOptions } from './live/access-tickets';

/** AFIP's hosts (notes section 2): homologation, then production. */
export const AFIP_HOSTS = {
  homologation: { wsaa: 'https://wsaahomo.afip.gov.ar/ws/services/LoginCms', wsfe: 'https://wswhomo.afip.gov.ar/wsfev1/service.asmx' },
  production: { wsaa: 'https://wsaa.afip.gov.ar/ws/services/LoginCms', wsfe: 'https://servicios1.afip.gov.ar/wsfev1/service.asmx' },
} as const;

/** The Argentine area's settings (README.md "Configuration"). */
export interface AfipSettings {
  readonly mode: 'sandbox' | 'live';
  /** AFIP_WSAA_URL / AFIP_WSFE_URL, else the hosts of AFIP_ENV (`homologation`, the default, or `production`). */
  readonly wsaaUrl: string;
  readonly wsfeUrl: string;
  readonly timeoutMs: number;
  /**
   * AFIP_CERTIFICATE / AFIP_PRIVATE_KEY (PEM, `\n` allowed): the service's own certificate, for taxpayers
   * who delegated WSFE to it at AFIP instead of giving their own at onboarding.
   */
  readonly certificate?: { readonly cert: string; readonly key: string };
  readonly tickets: TicketOptions;
  /** AFIP_SANDBOX_DELAY_MS (0): the sandbox's time to answer a voucher, after it authorised it. */
  readonly sandboxAnswerDelayMs: number;
}

export function afipSettings(env: NodeJS.ProcessEnv = process.env): AfipSettings {
  const hosts = env.AFIP_ENV === 'production' ? AFIP_HOSTS.production : AFIP_HOSTS.homologation;
  const pem = (value: string | undefined) => (value ?? '').replace(/\\n/g, '\n');
  const cert = pem(env.AFIP_CERTIFICATE);
  const key = pem(env.AFIP_PRIVATE_KEY);
  return {
    mode: env.AFIP_MODE === 'live' ? 'live' : 'sandbox',
    wsaaUrl: env.AFIP_WSAA_URL || hosts.wsaa,
    wsfeUrl: env.AFIP_WSFE_URL || hosts.wsfe,
    timeoutMs: Number(env.AFIP_TIMEOUT_MS ?? 30_000),
    ...(cert && key ? { certificate: { cert, key } } : {}),
    tickets: { ...DEFAULT_TICKET_OPTIONS, ...(env.AFIP_TICKET_RENEW_BEFORE_MS ? { renewBeforeMs: Number(env.AFIP_TICKET_RENEW_BEFORE_MS) } : {}) },
    sandboxAnswerDelayMs: Number(env.AFIP_SANDBOX_DELAY_MS ?? 0),
  };
}
