import { MYINVOIS_RATE_LIMITS, RateLimiter, TokenBucket } from './rate-limits';

describe('TokenBucket', () => {
  it('allows `capacity` calls at once, then one more per window/capacity', () => {
    const bucket = new TokenBucket(12, 0);
    for (let i = 0; i < 12; i++) expect(bucket.take(0)).toBe(0);
    expect(bucket.take(0)).toBe(5_000);
    expect(bucket.take(4_999)).toBe(1);
    expect(bucket.take(5_000)).toBe(0);
  });
});

describe('RateLimiter', () => {
  it('uses the documented per-minute limits', () => {
    expect(MYINVOIS_RATE_LIMITS).toMatchObject({ login: 12, submitDocuments: 100, getSubmission: 300, cancelDocument: 12, rejectDocument: 12, searchTin: 60 });
  });

  it('keeps separate buckets per client id and endpoint', () => {
    const limiter = new RateLimiter({ limits: { login: 1 }, now: () => 0 });
    expect(limiter.tryAcquire('a', 'login')).toBe(0);
    expect(limiter.tryAcquire('a', 'login')).toBeGreaterThan(0);
    expect(limiter.tryAcquire('b', 'login')).toBe(0);
    expect(limiter.tryAcquire('a', 'submitDocuments')).toBe(0);
  });

  it('makes callers wait for a slot instead of failing', async () => {
    let now = 0;
    const sleeps: number[] = [];
    const limiter = new RateLimiter({
      limits: { submitDocuments: 2 },
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    });
    await limiter.acquire('c', 'submitDocuments');
    await limiter.acquire('c', 'submitDocuments');
    await limiter.acquire('c', 'submitDocuments');
    expect(sleeps).toEqual([30_000]);
    expect(now).toBe(30_000);
  });

  it('beyond maxWaitMs, answers the 429 MyInvois would have, without waiting', async () => {
    let now = 0;
    const slept: number[] = [];
    const limiter = new RateLimiter({ limits: { submitDocuments: 2 }, now: () => now, sleep: async (ms) => { slept.push(ms); now += ms; }, maxWaitMs: 1_000 });
    await limiter.acquire('c', 'submitDocuments');
    await limiter.acquire('c', 'submitDocuments');
    await expect(limiter.acquire('c', 'submitDocuments')).rejects.toMatchObject({ kind: 'rate_limited', code: 'MYINVOIS.RATE_LIMITED', details: { retryAfterMs: 30_000 } });
    expect(slept).toEqual([]);
    now = 29_500; // half a second from the next slot: waited for
    await limiter.acquire('c', 'submitDocuments');
    expect(slept).toEqual([500]);
  });
});
