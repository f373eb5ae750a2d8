// When a report without a verdict is polled next (PollPolicy, slowIntervalMs: MyInvois's 5-minute polls).
import { nextPollOf } from './poll-report';

const now = Date.parse('2026-03-20T12:00:00Z');
const at = (ms: number) => new Date(now + ms).toISOString();

describe('nextPollOf', () => {
  it('without slowIntervalMs: every intervalMs, and the decider stops at maxPolls', () => {
    expect(nextPollOf({ intervalMs: 3_000, maxPolls: 10 }, 10, now)).toEqual({ maxPolls: 10, nextPollAt: at(3_000) });
  });

  it('with slowIntervalMs: every intervalMs up to maxPolls, then every slowIntervalMs, with no last poll', () => {
    const policy = { intervalMs: 3_000, maxPolls: 10, slowIntervalMs: 300_000 };
    expect(nextPollOf(policy, 9, now)).toEqual({ maxPolls: Number.MAX_SAFE_INTEGER, nextPollAt: at(3_000) });
    expect(nextPollOf(policy, 10, now)).toEqual({ maxPolls: Number.MAX_SAFE_INTEGER, nextPollAt: at(300_000) });
    expect(nextPollOf(policy, 5_000, now).nextPollAt).toBe(at(300_000));
  });
});
