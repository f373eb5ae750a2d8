import { As4Engine, DEFAULT_AS4_ENGINE_URL, serviceProviderIdSetting } from '@einvoice/areas';
import type { EventStore } from '@einvoice/domain/infrastructure';
import type { AccessPointConnector } from './access-point';
import { LiveAccessPoint } from './live-access-point';
import { SandboxAccessPoint } from './sandbox-access-point';

/**
 * The access point of PEPPOL_MODE (README "Configuration", docs/peppol-as4.md "Settings"): `sandbox`
 * (default) the simulated one; `live` the AS4 engine at AS4_ENGINE_URL, which also sends the access
 * point's own messages (MLS). A mode it does not know, or live without AS4_ENGINE_SECRET, stops the start.
 */
export function accessPointFromEnv(store: EventStore, env: NodeJS.ProcessEnv = process.env): { readonly accessPoint: AccessPointConnector; readonly engine?: As4Engine } {
  const mode = env.PEPPOL_MODE?.trim() || 'sandbox';
  if (mode === 'sandbox') return { accessPoint: new SandboxAccessPoint(store, Number(env.SANDBOX_AP_LATENCY_MS ?? 0)) };
  if (mode !== 'live') throw new Error(`PEPPOL_MODE=${mode} is not a mode: sandbox (default) or live.`);
  const secret = env.AS4_ENGINE_SECRET ?? '';
  if (!secret) throw new Error('PEPPOL_MODE=live needs AS4_ENGINE_SECRET, the secret the AS4 engine and this service share (docs/peppol-as4.md).');
  const engine = new As4Engine({
    url: env.AS4_ENGINE_URL?.trim() || DEFAULT_AS4_ENGINE_URL,
    secret,
    timeoutMs: env.AS4_ENGINE_TIMEOUT_MS ? Number(env.AS4_ENGINE_TIMEOUT_MS) : undefined,
  });
  return { accessPoint: new LiveAccessPoint(engine, serviceProviderIdSetting(env).id), engine };
}
