import { errorRates } from './authority-error-rates';
import { authorityErrorsQuery, compareDeadLetterIds, deadLetterPageRows, deadLettersQuery, noQuery, parkedRowsQuery, stuckDocumentsQuery } from './operations-query';
import { consumerLagView } from './operations-views';

/** The issues of the 400 a query is refused with. */
function refused(read: () => unknown): Array<{ path: string; code: string }> {
  try {
    read();
  } catch (error) {
    return (error as { issues: Array<{ path: string; code: string }> }).issues.map(({ path, code }) => ({ path, code }));
  }
  throw new Error('not refused');
}

describe('#50 the operations routes\' queries', () => {
  it('stuck documents: 10m and 20 a page by default; a duration, an area and a document cursor', () => {
    expect(stuckDocumentsQuery({})).toEqual({ page: { limit: 20 }, area: undefined, olderThanMs: 600_000, olderThan: '10m' });
    expect(stuckDocumentsQuery({ older_than: '0s', area: 'AR', limit: '5', starting_after: '0F9C1E52-7D4B-4C1E-9B0A-6A3E2D1C4B5A' })).toEqual({
      page: { limit: 5, startingAfter: '0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a' }, area: 'ar', olderThanMs: 0, olderThan: '0s',
    });
    expect(refused(() => stuckDocumentsQuery({ older_than: 'soon', area: 'xx', limit: '0', starting_after: '0:1', nope: '1' }))).toEqual(expect.arrayContaining([
      { path: 'older_than', code: 'FIELD.INVALID_VALUE' }, { path: 'area', code: 'FIELD.INVALID_VALUE' }, { path: 'limit', code: 'FIELD.INVALID_VALUE' },
      { path: 'starting_after', code: 'FIELD.INVALID_FORMAT' }, { path: 'nope', code: 'FIELD.INVALID_VALUE' },
    ]));
    expect(refused(() => stuckDocumentsQuery({ older_than: '400d' }))).toEqual([{ path: 'older_than', code: 'FIELD.INVALID_VALUE' }]);
  });

  it('dead letters: a partition:offset cursor and the replayed filter', () => {
    expect(deadLettersQuery({ replayed: 'false', starting_after: '0:17' })).toEqual({ page: { limit: 20, startingAfter: '0:17' }, replayed: false });
    expect(deadLettersQuery({})).toEqual({ page: { limit: 20 }, replayed: undefined });
    expect(refused(() => deadLettersQuery({ replayed: 'maybe', starting_after: '0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a' }))).toEqual([
      { path: 'starting_after', code: 'FIELD.INVALID_FORMAT' }, { path: 'replayed', code: 'FIELD.INVALID_VALUE' },
    ]);
  });

  it('parked rows: a digits cursor', () => {
    expect(parkedRowsQuery({ starting_after: '4711', limit: '100' })).toEqual({ page: { limit: 100, startingAfter: '4711' } });
    expect(refused(() => parkedRowsQuery({ starting_after: '-1' }))).toEqual([{ path: 'starting_after', code: 'FIELD.INVALID_FORMAT' }]);
  });

  it('authority errors: a window from 1m to 30d, 1h by default, no paging', () => {
    expect(authorityErrorsQuery({})).toEqual({ windowMs: 3_600_000, window: '1h' });
    expect(authorityErrorsQuery({ window: '30d' })).toEqual({ windowMs: 30 * 86_400_000, window: '30d' });
    expect(refused(() => authorityErrorsQuery({ window: '31d' }))).toEqual([{ path: 'window', code: 'FIELD.INVALID_VALUE' }]);
    expect(refused(() => authorityErrorsQuery({ window: '10s', limit: '5' }))).toEqual([{ path: 'limit', code: 'FIELD.INVALID_VALUE' }, { path: 'window', code: 'FIELD.INVALID_VALUE' }]);
    expect(refused(() => authorityErrorsQuery({ window: ['1h', '2h'] }))).toEqual([{ path: 'window', code: 'FIELD.INVALID_TYPE' }]);
  });

  it('consumer lag and whoami take no parameter', () => {
    expect(() => noQuery({})).not.toThrow();
    expect(refused(() => noQuery({ group: 'x' }))).toEqual([{ path: 'group', code: 'FIELD.INVALID_VALUE' }]);
  });
});

describe('#50 a page of dead letters', () => {
  const letter = (id: string, replayedAt: string | null = null) => ({ id, replayedAt });
  const letters = [letter('1:0'), letter('0:10', '2026-12-02T10:00:00.000Z'), letter('0:9'), letter('0:2')];

  it('orders ids by partition then offset, as numbers', () => {
    expect(['1:0', '0:10', '0:9', '0:2'].sort(compareDeadLetterIds)).toEqual(['0:2', '0:9', '0:10', '1:0']);
  });

  it('pages after the cursor (present or not), filters by replayed, and reads one more to tell has_more', () => {
    expect(deadLetterPageRows(letters, { page: { limit: 2 } }).map((l) => l.id)).toEqual(['0:2', '0:9', '0:10']);
    expect(deadLetterPageRows(letters, { page: { limit: 2, startingAfter: '0:9' } }).map((l) => l.id)).toEqual(['0:10', '1:0']);
    expect(deadLetterPageRows(letters, { page: { limit: 2, startingAfter: '0:5' } }).map((l) => l.id)).toEqual(['0:9', '0:10', '1:0']);
    expect(deadLetterPageRows(letters, { page: { limit: 20 }, replayed: false }).map((l) => l.id)).toEqual(['0:2', '0:9', '1:0']);
    expect(deadLetterPageRows(letters, { page: { limit: 20 }, replayed: true }).map((l) => l.id)).toEqual(['0:10']);
  });
});

describe('#50 authority error rates', () => {
  it('shows every reporting area, zeros where its authority answered nothing, and the share refused to 4 places', () => {
    expect(errorRates([{ area: 'pl', reported: 2, refused: 1 }, { area: 'toy', reported: 0, refused: 4 }], ['ng', 'pl'])).toEqual([
      { area: 'ng', reported: 0, refused: 0, refusedRate: null },
      { area: 'pl', reported: 2, refused: 1, refusedRate: 0.3333 },
      { area: 'toy', reported: 0, refused: 4, refusedRate: 1 },
    ]);
  });
});

describe('#50 consumer lag per group', () => {
  it('sums each group\'s partitions, keeps the probe\'s lag when Kafka gave none per partition', () => {
    const groups = [
      { group: 'e.reporting-worker', ready: true, state: 'Stable', members: 1, lag: 5 },
      { group: 'e.webhook-dispatcher', ready: false, state: 'Empty', members: 0, lag: null },
    ];
    const partitions = [
      { group: 'e.reporting-worker', topic: 'e.documents', partition: 1, lag: 2 },
      { group: 'e.reporting-worker', topic: 'e.documents', partition: 0, lag: 3 },
    ];
    expect(consumerLagView(groups, partitions)).toEqual([
      { group: 'e.reporting-worker', state: 'Stable', members: 1, ready: true, lag: 5, partitions: [{ topic: 'e.documents', partition: 0, lag: 3 }, { topic: 'e.documents', partition: 1, lag: 2 }] },
      { group: 'e.webhook-dispatcher', state: 'Empty', members: 0, ready: false, lag: null, partitions: [] },
    ]);
  });
});
