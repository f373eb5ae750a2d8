import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether a request carries the engine's secret (`x-engine-secret`), compared in constant time: both
 * sides hashed first, so neither the secret's length nor its first differing byte shows in the time
 * the answer takes. False when no secret is set: then no one is the engine.
 */
export function carriesEngineSecret(given: string | string[] | undefined, secret: string | undefined): boolean {
  if (!secret || typeof given !== 'string') return false;
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(secret));
}
