import type { LargeBodies } from '@einvoice/areas';

/** The AS4 engine's callback route (peppol-inbound.controller.ts), as a body-limit path prefix. */
export const PEPPOL_INBOUND_PATH = 'internal/peppol/inbound';

/**
 * AS4_INBOUND_BODY_LIMIT_BYTES' default, 100 MiB: the callback carries a whole received document as
 * text (docs/peppol-as4.md "Settings" says why this size).
 */
export const DEFAULT_INBOUND_BODY_LIMIT_BYTES = 100 * 1024 * 1024;

/** AS4_INBOUND_BODY_LIMIT_BYTES, a positive whole number of bytes. @throws Error naming the setting */
export function inboundBodyLimitBytes(env: NodeJS.ProcessEnv): number {
  const setting = env.AS4_INBOUND_BODY_LIMIT_BYTES?.trim();
  if (!setting) return DEFAULT_INBOUND_BODY_LIMIT_BYTES;
  const bytes = Number(setting);
  if (!Number.isSafeInteger(bytes) || bytes <= 0) throw new Error(`AS4_INBOUND_BODY_LIMIT_BYTES must be a number of bytes (default ${DEFAULT_INBOUND_BODY_LIMIT_BYTES}, 100 MiB); it is "${setting}".`);
  return bytes;
}

/**
 * The inbound callback's body limit, for the gateway's one per-path limit (`bodyLimitFor`); none while
 * AS4_ENGINE_SECRET is unset: the route then serves no one, so no one may send it more than any route.
 */
export function inboundLargeBodies(bytes: number, engineSecret: string | undefined): readonly LargeBodies[] {
  return engineSecret ? [{ bytes, pathPrefixes: [PEPPOL_INBOUND_PATH] }] : [];
}
