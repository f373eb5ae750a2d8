import type { RecordedEvent } from '../../events';
import { chunkRows, topicPattern, type OutboxRow } from './outbox-rows';

const row = (id: number, storedBytes: number): OutboxRow => ({
  id: String(id),
  topic: 't.documents',
  aggregate_id: `document-${id}`,
  payload: {} as RecordedEvent,
  stored_bytes: storedBytes,
});
const ids = (chunks: OutboxRow[][]) => chunks.map((c) => c.map((r) => Number(r.id)));

describe('chunkRows: publishes of bounded size, in order', () => {
  it('puts small rows together up to the budget', () => {
    expect(ids(chunkRows([row(1, 400), row(2, 400), row(3, 400), row(4, 100)], 1_000))).toEqual([[1, 2], [3, 4]]);
  });

  it('sends a row larger than the budget alone, never splitting or dropping it', () => {
    expect(ids(chunkRows([row(1, 10), row(2, 5_000), row(3, 10)], 1_000))).toEqual([[1], [2], [3]]);
  });

  it('has nothing to send for no rows', () => {
    expect(chunkRows([], 1_000)).toEqual([]);
  });
});

describe('topicPattern', () => {
  it('takes LIKE wildcards in the prefix literally', () => {
    expect(topicPattern('a_b%')).toBe('a\\_b\\%.%');
  });
});
