import { AppError } from '../../errors';
import { decodeEvent, encodeEvent } from './codec';
import { backoffMs, isRetriable, worstCaseBackoffMs } from './retry';
import { topicNames } from './topics';

describe('topicNames', () => {
  it('names the dead-letter topic under the same prefix', () => {
    expect(topicNames('t1').deadLetter).toBe('t1.dead-letter');
  });
});

describe('retry policy', () => {
  const policy = { attempts: 5, initialBackoffMs: 200, maxBackoffMs: 1_000 };

  it('doubles the wait, caps it, and keeps at least half of it under jitter', () => {
    expect([1, 2, 3, 4].map((a) => backoffMs(policy, a, () => 1))).toEqual([200, 400, 800, 1_000]);
    expect([1, 2, 3, 4].map((a) => backoffMs(policy, a, () => 0))).toEqual([100, 200, 400, 500]);
    expect(worstCaseBackoffMs(policy)).toBe(2_400);
  });

  it('retries unknown errors and retriable AppErrors only', () => {
    expect(isRetriable(new Error('ECONNRESET'))).toBe(true);
    expect(isRetriable(new AppError('unavailable', 'X.DOWN', 'down'))).toBe(true);
    expect(isRetriable(new AppError('validation', 'X.BAD', 'bad'))).toBe(false);
  });
});

describe('event codec', () => {
  const event = {
    eventId: 'e1',
    streamId: 'document-1',
    streamPosition: 1,
    globalPosition: '7',
    type: 'DocumentSubmitted',
    schemaVersion: 1,
    data: { number: 'INV-1' },
    metadata: { tenantId: 't' },
    recordedAt: '2026-01-01T00:00:00.000Z',
  };

  it('round-trips a RecordedEvent', () => {
    expect(decodeEvent(Buffer.from(encodeEvent(event)))).toEqual(event);
  });

  it.each([
    ['a tombstone', null],
    ['broken JSON', Buffer.from('{"eventId"')],
    ['JSON of another shape', Buffer.from('[1,2]')],
    ['an event without a stream position', Buffer.from(JSON.stringify({ ...event, streamPosition: '1' }))],
  ])('rejects %s as a non-retriable malformed message', (_, value) => {
    expect(() => decodeEvent(value)).toThrow(expect.objectContaining({ code: 'KAFKA.MALFORMED_MESSAGE', retriable: false }));
  });
});
