/**
 * What this installation's SMP publishes and signs with (issue #46, docs/peppol-as4.md "SMP"): the AS4
 * endpoint (`AS4_PUBLIC_URL`), the AP certificate (`PEPPOL_AP_KEYSTORE`) and the SMP certificate that
 * signs each SignedServiceMetadata (`PEPPOL_SMP_KEYSTORE`). Read and checked once, before the gateway
 * serves anything: in `PEPPOL_MODE=live` all three are required; in sandbox mode (the default) each one
 * given is checked the same way and the others keep the placeholders of a gateway no other access point
 * reads (unsigned answers without an SMP keystore). A missing, unreadable, expired or mismatched one stops
 * the start with a message naming the setting; keys and passwords are never logged.
 */
import { type KeystoreEntry, type SmpSigningKey, describeCertificate, loadKeystore } from '@einvoice/areas';

export const PLACEHOLDER_ENDPOINT_URL = 'https://ap.einvoice.example/as4';
export const PLACEHOLDER_AP_CERTIFICATE = 'CERTIFICATE-PLACEHOLDER-configure-PEPPOL_AP_KEYSTORE';
/** A certificate this close to its end is announced with a warning at every start. */
const EXPIRY_WARNING_MS = 30 * 24 * 3600 * 1000;

export interface SmpSettings {
  readonly mode: 'sandbox' | 'live';
  /** `EndpointURI` of SMP answers, `EndpointId` of lookups. */
  readonly endpointUrl: string;
  /** `Certificate` of SMP answers: base64 DER of the AP certificate, or the sandbox placeholder. */
  readonly apCertificate: string;
  /** Undefined in sandbox mode without PEPPOL_SMP_KEYSTORE: answers go unsigned. */
  readonly signingKey?: SmpSigningKey;
  /** The start-up line: URLs and certificates' subjects and dates, nothing secret. */
  readonly summary: Readonly<Record<string, unknown>>;
  /** Certificates that end within 30 days. */
  readonly warnings: readonly string[];
}

/** The settings of `env`. @throws Error (KeystoreError for a keystore) with the reason the gateway must not start. */
export function loadSmpSettings(env: NodeJS.ProcessEnv, now: number = Date.now()): SmpSettings {
  const mode = env.PEPPOL_MODE?.trim() || 'sandbox';
  if (mode !== 'sandbox' && mode !== 'live') throw new Error(`PEPPOL_MODE is "${mode}": sandbox or live.`);
  const live = mode === 'live';
  const missing = ['AS4_PUBLIC_URL', 'PEPPOL_AP_KEYSTORE', 'PEPPOL_SMP_KEYSTORE'].filter((name) => !env[name]?.trim());
  if (live && missing.length) throw new Error(`PEPPOL_MODE=live needs ${missing.join(', ')}: the SMP publishes this access point's AS4 endpoint and certificate, signed with the SMP certificate (README "Configuration").`);
  const endpointUrl = env.AS4_PUBLIC_URL?.trim() ? publicUrl(env.AS4_PUBLIC_URL.trim(), live) : PLACEHOLDER_ENDPOINT_URL;
  const ap = loadKeystore('PEPPOL_AP_KEYSTORE', env, now);
  const smp = loadKeystore('PEPPOL_SMP_KEYSTORE', env, now);
  const warnings = [ap, smp].flatMap((entry) => (entry && Date.parse(entry.certificate.validTo) - now < EXPIRY_WARNING_MS ? [expiring(entry)] : []));
  return {
    mode,
    endpointUrl,
    apCertificate: ap ? ap.certificate.raw.toString('base64') : PLACEHOLDER_AP_CERTIFICATE,
    signingKey: smp ? { certificatePem: smp.certificate.toString(), privateKey: smp.privateKey } : undefined,
    summary: {
      mode,
      endpointUrl,
      apCertificate: ap ? describeCertificate(ap.certificate) : 'placeholder (no PEPPOL_AP_KEYSTORE)',
      smpCertificate: smp ? describeCertificate(smp.certificate) : 'none (no PEPPOL_SMP_KEYSTORE): ServiceMetadata unsigned',
    },
    warnings,
  };
}

/** Hosts no other machine reaches: an AS4 endpoint there serves access points on this machine only. */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * An absolute http(s) URL; https in live mode (Peppol AS4 is served over TLS only), except on a loopback
 * host, which no other access point can reach anyway: two installations on one machine (the tests, a
 * rehearsal of the test network) exchange over plain HTTP there.
 */
function publicUrl(value: string, live: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`AS4_PUBLIC_URL "${value}" is not an absolute URL.`);
  }
  const plainAllowed = !live || LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(plainAllowed && url.protocol === 'http:')) {
    throw new Error(`AS4_PUBLIC_URL "${value}" must be an https URL${live ? ' in PEPPOL_MODE=live (http only on a loopback host)' : ''}.`);
  }
  return value;
}

function expiring(entry: KeystoreEntry): string {
  return `${entry.setting}: the certificate ${describeCertificate(entry.certificate).subject} expires on ${new Date(entry.certificate.validTo).toISOString()}: renew it before then.`;
}

let current: SmpSettings | undefined;

/** The process's settings, read once (the start's check reads them first: see announceSmp). */
export function smpSettings(): SmpSettings {
  return (current ??= loadSmpSettings(process.env));
}
