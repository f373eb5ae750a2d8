// #45: every app says at its start which kafkajs patches are in force, in its log and as a metric, so
// that a kafkajs upgrade that turns them off is seen, not silent; KAFKAJS_PATCHES switches patches off.
import type { LogLevel } from '../../../log';
import { metricsRegistry } from '../../metrics/metrics';
import { KAFKAJS_PATCH_NAMES, announceKafkajsPatches, kafkajsPatches, wantedKafkajsPatches, type KafkajsPatchState } from '.';
import { PATCHED_KAFKAJS_VERSION, kafkajsVersion } from './kafkajs-internals';

type Line = { level: LogLevel; message: string; fields?: Record<string, unknown> };
function announced(...args: Parameters<typeof announceKafkajsPatches> extends [unknown, ...infer Rest] ? Rest : never): Line[] {
  const lines: Line[] = [];
  announceKafkajsPatches((level, message, fields) => lines.push({ level, message, fields }), ...args);
  return lines;
}
async function gauge(): Promise<Record<string, number>> {
  const metric = (await metricsRegistry.getMetricsAsJSON()).find((m) => m.name === 'einvoice_kafkajs_patch_active');
  return Object.fromEntries((metric?.values ?? []).map((v) => [String(v.labels.patch), v.value]));
}
const every = (state: KafkajsPatchState) => Object.fromEntries(KAFKAJS_PATCH_NAMES.map((name) => [name, state]));
const each = (value: number) => Object.fromEntries(KAFKAJS_PATCH_NAMES.map((name) => [name, value]));

describe('#45 the kafkajs patches, announced', () => {
  it('are all in force on the kafkajs they were written for, and said so in one line and the gauge', async () => {
    expect(kafkajsVersion()).toBe(PATCHED_KAFKAJS_VERSION);
    expect(kafkajsPatches).toEqual(every('active'));
    expect(announced()).toEqual([{ level: 'info', message: 'kafkajs patched', fields: { kafkajs: PATCHED_KAFKAJS_VERSION, patches: KAFKAJS_PATCH_NAMES } }]);
    expect(await gauge()).toEqual(each(1));
  });

  it('on another kafkajs (none in force), one warning names what is off and the version the patches are for', async () => {
    expect(announced(every('not applied'), '2.3.0')).toEqual([
      {
        level: 'warn',
        message: 'kafkajs runs without some or all of its patches',
        fields: { kafkajs: '2.3.0', patchedVersion: PATCHED_KAFKAJS_VERSION, active: [], inactive: KAFKAJS_PATCH_NAMES },
      },
    ]);
    expect(await gauge()).toEqual(each(0));
  });

  it('switched off by KAFKAJS_PATCHES: named in the line, 0 in the gauge', async () => {
    const [first, ...rest] = KAFKAJS_PATCH_NAMES;
    const patches = { ...every('active'), [first]: 'switched off' as const };
    expect(announced(patches)).toEqual([
      { level: 'info', message: 'kafkajs patched, some patches switched off (KAFKAJS_PATCHES)', fields: { kafkajs: PATCHED_KAFKAJS_VERSION, patches: rest, switchedOff: [first] } },
    ]);
    expect(await gauge()).toEqual({ ...each(1), [first]: 0 });
  });
});

describe('#45 KAFKAJS_PATCHES', () => {
  it('unset or all: every patch; none: none; a list: those', () => {
    expect(wantedKafkajsPatches(undefined)).toEqual(KAFKAJS_PATCH_NAMES);
    expect(wantedKafkajsPatches(' all ')).toEqual(KAFKAJS_PATCH_NAMES);
    expect(wantedKafkajsPatches('none')).toEqual([]);
    expect(wantedKafkajsPatches(` ${KAFKAJS_PATCH_NAMES[0]} ,`)).toEqual([KAFKAJS_PATCH_NAMES[0]]);
  });

  it('refuses a name it does not know, naming the known ones', () => {
    expect(() => wantedKafkajsPatches('request-queu')).toThrow(`KAFKAJS_PATCHES: unknown patch(es) request-queu; known: ${KAFKAJS_PATCH_NAMES.join(', ')} (or all, none)`);
  });
});
