// #45: every app says at its start which kafkajs patches are in force, in its log and as a metric, so
// that a kafkajs upgrade that turns them off is seen, not silent.
import type { LogLevel } from '../../log';
import { metricsRegistry } from '../metrics/metrics';
import { announceKafkajsPatches, kafkajsPatches } from './client';
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

describe('#45 the kafkajs patches, announced', () => {
  it('are all in force on the kafkajs they were written for, and said so in one line and the gauge', async () => {
    expect(kafkajsVersion()).toBe(PATCHED_KAFKAJS_VERSION);
    expect(kafkajsPatches).toEqual({ 'request-queue': true, 'record-batch-crc': true, 'produce-request': true });
    expect(announced()).toEqual([{ level: 'info', message: 'kafkajs patched', fields: { kafkajs: PATCHED_KAFKAJS_VERSION, patches: ['request-queue', 'record-batch-crc', 'produce-request'] } }]);
    expect(await gauge()).toEqual({ 'request-queue': 1, 'record-batch-crc': 1, 'produce-request': 1 });
  });

  it('on another kafkajs (none in force), one warning names what is off and the version the patches are for', async () => {
    const off = { 'request-queue': false, 'record-batch-crc': false, 'produce-request': false };
    expect(announced(off, '2.3.0')).toEqual([
      {
        level: 'warn',
        message: 'kafkajs runs without some or all of its patches',
        fields: { kafkajs: '2.3.0', patchedVersion: PATCHED_KAFKAJS_VERSION, active: [], inactive: ['request-queue', 'record-batch-crc', 'produce-request'] },
      },
    ]);
    expect(await gauge()).toEqual({ 'request-queue': 0, 'record-batch-crc': 0, 'produce-request': 0 });
  });
});
