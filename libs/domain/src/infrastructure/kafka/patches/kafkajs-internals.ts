// The one place that decides whether kafkajs's internals may be patched here (request-queue.ts,
// produce-request.ts): each patch was written and checked against this version.
export const PATCHED_KAFKAJS_VERSION = '2.2.4';

/** The installed kafkajs's version. */
export function kafkajsVersion(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('kafkajs/package.json') as { version: string }).version;
}

/** Whether the installed kafkajs is the version the patches were written for (another keeps its own code). */
export function isPatchableKafkajs(): boolean {
  return kafkajsVersion() === PATCHED_KAFKAJS_VERSION;
}

const REPLACED = Symbol.for('einvoice.kafkajsModuleReplaced');

/**
 * Puts `replace(original exports)` in place of a kafkajs module that kafkajs loads lazily (with its
 * first produce request), before anything holds it: false when it is too late (the module, or one of
 * `loadedBy`, is loaded already with kafkajs's own), for another kafkajs version, and under a module
 * system without Node's cache (jest's). True when done, now or before.
 */
export function replaceLazyKafkajsModule(module: string, loadedBy: readonly string[], replace: (original: unknown) => unknown): boolean {
  if (!isPatchableKafkajs()) return false;
  const file = require.resolve(`kafkajs/${module}`);
  const cached = require.cache[file] as (NodeJS.Module & { [REPLACED]?: true }) | undefined;
  if (cached?.[REPLACED]) return true;
  if (cached || loadedBy.some((m) => require.cache[require.resolve(`kafkajs/${m}`)])) return false;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const original: unknown = require(file);
  const loaded = require.cache[file] as (NodeJS.Module & { [REPLACED]?: true }) | undefined;
  if (!loaded) return false;
  loaded.exports = replace(original);
  loaded[REPLACED] = true;
  return true;
}
