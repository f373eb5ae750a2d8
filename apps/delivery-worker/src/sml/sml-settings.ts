/**
 * Which SML the delivery worker registers participants at (issue #46): `PEPPOL_SML=sandbox` (default: the
 * in-process SandboxSml, as before), `test` (Peppol's test SML, "SMK") or `production` (the SML), both
 * through BDMSL's SOAP interface with the SMP certificate. Read and checked at the worker's start: the
 * real SMLs need PEPPOL_SMP_KEYSTORE (the client certificate the SML knows the SMP by) and PEPPOL_SMP_ID
 * (the ID the SMP was registered with); a missing, expired or mismatched keystore stops the start.
 */
import { readFileSync } from 'node:fs';
import { BdmslSml, SML_ENDPOINTS, type SmlConnector, describeCertificate, loadKeystore, privateKeyPem } from '@einvoice/areas';
import type { DataSource } from 'typeorm';
import { SandboxSml } from './sml-connector';

export type SmlSettings =
  | { readonly network: 'sandbox'; readonly smpId: string; readonly latencyMs: number }
  | {
      readonly network: 'test' | 'production';
      readonly smpId: string;
      readonly url: string;
      readonly tls: { readonly cert: string; readonly key: string; readonly ca?: string };
      readonly timeoutMs: number;
      /** The start-up line: nothing secret. */
      readonly summary: Readonly<Record<string, unknown>>;
    };

/** @throws Error (KeystoreError for the keystore) with the reason the worker must not start. */
export function loadSmlSettings(env: NodeJS.ProcessEnv, now: number = Date.now()): SmlSettings {
  const network = env.PEPPOL_SML?.trim() || 'sandbox';
  if (network === 'sandbox') return { network, smpId: env.PEPPOL_SMP_ID ?? 'einvoice-gateway-smp', latencyMs: Number(env.SANDBOX_SML_LATENCY_MS ?? 0) };
  if (network !== 'test' && network !== 'production') throw new Error(`PEPPOL_SML is "${network}": sandbox, test or production.`);
  const smpId = env.PEPPOL_SMP_ID?.trim();
  if (!smpId) throw new Error(`PEPPOL_SML=${network} needs PEPPOL_SMP_ID: the ID this SMP was registered with at the SML.`);
  const keystore = loadKeystore('PEPPOL_SMP_KEYSTORE', env, now);
  if (!keystore) throw new Error(`PEPPOL_SML=${network} needs PEPPOL_SMP_KEYSTORE: the SML knows the SMP by its certificate (mutual TLS).`);
  const url = env.PEPPOL_SML_URL?.trim() || SML_ENDPOINTS[network];
  let ca: string | undefined;
  if (env.PEPPOL_SML_CA?.trim()) {
    try {
      ca = readFileSync(env.PEPPOL_SML_CA.trim(), 'utf8');
    } catch (error) {
      throw new Error(`PEPPOL_SML_CA: ${env.PEPPOL_SML_CA} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
    }
  }
  return {
    network,
    smpId,
    url,
    tls: { cert: [keystore.certificate.toString(), ...keystore.chain].join(''), key: privateKeyPem(keystore), ...(ca ? { ca } : {}) },
    timeoutMs: Number(env.PEPPOL_SML_TIMEOUT_MS ?? 30_000),
    summary: { network, url, smpId, smpCertificate: describeCertificate(keystore.certificate) },
  };
}

/** The connector the settings name. */
export function smlConnector(settings: SmlSettings, dataSource: DataSource): SmlConnector {
  if (settings.network === 'sandbox') return new SandboxSml(dataSource, settings.smpId, settings.latencyMs);
  return new BdmslSml({ url: settings.url, smpId: settings.smpId, tls: settings.tls, timeoutMs: settings.timeoutMs });
}

let current: SmlSettings | undefined;

/** The process's settings, read once (the worker's start reads them first: main.ts). */
export function smlSettings(): SmlSettings {
  return (current ??= loadSmlSettings(process.env));
}
