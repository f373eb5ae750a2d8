import { DEFAULT_RETRY_SCHEDULE, loadWebhookConfig, retryDelayMs, totalRetryWindowMs } from './retry-schedule';

describe('#3 webhook retry schedule', () => {
  it('doubles from the base, caps at the maximum and jitters by ±20 %', () => {
    const nominal = (n: number) => retryDelayMs(n, DEFAULT_RETRY_SCHEDULE, () => 0.5);
    expect([1, 2, 3, 4, 11, 12, 17].map(nominal)).toEqual([10_000, 20_000, 40_000, 80_000, 10_240_000, 10_800_000, 10_800_000]);
    expect(retryDelayMs(1, DEFAULT_RETRY_SCHEDULE, () => 0)).toBe(8_000);
    expect(retryDelayMs(1, DEFAULT_RETRY_SCHEDULE, () => 0.999999)).toBe(12_000);
    expect(retryDelayMs(30, DEFAULT_RETRY_SCHEDULE, () => 0.999999)).toBeLessThanOrEqual(12_960_000);
  });

  it('spans about a day by default: 18 attempts, 85,270 s from first to last', () => {
    expect(DEFAULT_RETRY_SCHEDULE.attempts).toBe(18);
    expect(totalRetryWindowMs(DEFAULT_RETRY_SCHEDULE)).toBe(85_270_000);
  });

  it('reads attempts and delays from the environment; loopback never in production', () => {
    const config = loadWebhookConfig({ WEBHOOK_ATTEMPTS: '4', WEBHOOK_BACKOFF_BASE_MS: '100', WEBHOOK_BACKOFF_MAX_MS: '1000', WEBHOOK_ALLOW_LOOPBACK: 'true' });
    expect(config.schedule).toMatchObject({ attempts: 4, baseDelayMs: 100, maxDelayMs: 1000 });
    expect(config.allowLoopback).toBe(true);
    expect(loadWebhookConfig({ WEBHOOK_ALLOW_LOOPBACK: 'true', NODE_ENV: 'production' }).allowLoopback).toBe(false);
    expect(loadWebhookConfig({ WEBHOOK_ATTEMPTS: 'lots' }).schedule.attempts).toBe(18);
    expect(loadWebhookConfig({})).toMatchObject({ concurrency: 20, firstAttemptsInFlight: 100 });
    expect(loadWebhookConfig({ WEBHOOK_FIRST_ATTEMPTS: '7' }).firstAttemptsInFlight).toBe(7);
  });
});
