// The kafkajs patches (README.md in this folder: what each one does, the figure it was measured on,
// and how to turn it off). Applied when this module loads: client.ts imports it before any client exists.
import type { Logger } from '../../../log';
import { metrics } from '../../metrics/metrics';
import { PATCHED_KAFKAJS_VERSION, kafkajsVersion } from './kafkajs-internals';
import { fixKafkajsRequestQueue } from './request-queue';
import { useSinglePassProduceRequests } from './produce-request';

/** Each kafkajs patch by name, and what puts it in place (true when in force). */
const PATCHES: Readonly<Record<string, () => boolean>> = {
  // kafkajs's request queues otherwise spin a 1 ms timer each (request-queue.ts).
  'request-queue': fixKafkajsRequestQueue,
  // kafkajs copies each message's bytes some ten times on the way to the socket, and checksums them a byte at a time (produce-request.ts).
  'produce-request': useSinglePassProduceRequests,
};

/** Every patch's name, in the order they are applied and announced. */
export const KAFKAJS_PATCH_NAMES: readonly string[] = Object.keys(PATCHES);

/**
 * The patches KAFKAJS_PATCHES asks for: unset or `all`, every one; `none`, none; else a comma-separated
 * list of names (README.md: to measure a patch, `npm run bench` with it and without it).
 * @throws Error naming an unknown patch: a typo must not turn a patch off unseen.
 */
export function wantedKafkajsPatches(setting = process.env.KAFKAJS_PATCHES): readonly string[] {
  const raw = (setting ?? '').trim();
  if (raw === '' || raw === 'all') return KAFKAJS_PATCH_NAMES;
  if (raw === 'none') return [];
  const wanted = raw.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = wanted.filter((name) => !KAFKAJS_PATCH_NAMES.includes(name));
  if (unknown.length) throw new Error(`KAFKAJS_PATCHES: unknown patch(es) ${unknown.join(', ')}; known: ${KAFKAJS_PATCH_NAMES.join(', ')} (or all, none)`);
  return wanted;
}

/** Where a patch stands in this process. */
export type KafkajsPatchState = 'active' | 'switched off' | 'not applied';

/**
 * The kafkajs patches this process runs with: `active` when in force; `switched off` when KAFKAJS_PATCHES
 * leaves it out; `not applied` where kafkajs keeps its own code (another kafkajs version than the one they
 * were written for, kafkajs-internals.ts, or a module kafkajs had loaded already).
 */
export const kafkajsPatches: Readonly<Record<string, KafkajsPatchState>> = (() => {
  const wanted = wantedKafkajsPatches();
  return Object.fromEntries(
    Object.entries(PATCHES).map(([name, apply]) => [name, !wanted.includes(name) ? 'switched off' : apply() ? 'active' : 'not applied'] as const),
  );
})();

/**
 * One log line at an app's start naming the kafkajs version and the patches in force, and the
 * `einvoice_kafkajs_patch_active{patch}` gauge (1 in force, 0 not): a kafkajs upgrade that turns
 * them off is seen, not silent (a warning); patches switched off by KAFKAJS_PATCHES are named.
 */
export function announceKafkajsPatches(log: Logger, patches: Readonly<Record<string, KafkajsPatchState>> = kafkajsPatches, version = kafkajsVersion()): void {
  const names = Object.keys(patches);
  const named = (state: KafkajsPatchState) => names.filter((name) => patches[name] === state);
  for (const patch of names) metrics.kafkajsPatchActive.set({ patch }, patches[patch] === 'active' ? 1 : 0);
  const active = named('active');
  const switchedOff = named('switched off');
  const notApplied = named('not applied');
  if (notApplied.length > 0) {
    log('warn', 'kafkajs runs without some or all of its patches', { kafkajs: version, patchedVersion: PATCHED_KAFKAJS_VERSION, active, inactive: notApplied, ...(switchedOff.length ? { switchedOff } : {}) });
  } else if (switchedOff.length > 0) {
    log('info', 'kafkajs patched, some patches switched off (KAFKAJS_PATCHES)', { kafkajs: version, patches: active, switchedOff });
  } else {
    log('info', 'kafkajs patched', { kafkajs: version, patches: active });
  }
}
