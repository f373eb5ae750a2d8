import { KnownEventTexts } from './event-texts';

const texts = (...ids: string[]) => ids.map((eventId) => ({ eventId, text: `{"id":"${eventId}"}` }));

describe('#11 the data texts a relay keeps for its next reads', () => {
  it('gives the text of an event handed over, and forgets what was read', () => {
    const known = new KnownEventTexts();
    known.add(texts('a', 'b', 'c'));
    expect(known.get('c')).toBe('{"id":"c"}');
    expect(known.get('never-there')).toBeUndefined();
    known.forget(['a', 'c', 'never-there']);
    expect([known.get('a'), known.get('b'), known.get('c')]).toEqual([undefined, '{"id":"b"}', undefined]);
    expect(known.size).toBe(1);
  });

  it('stays within its bounds however many texts come and none is read: entries, characters and age', () => {
    let now = 0;
    const known = new KnownEventTexts({ maxEntries: 3, maxChars: 40, maxAgeMs: 1_000 }, () => now);
    const kept = () => ['a', 'b', 'c', 'd', 'e', 'f'].filter((id) => known.get(id) !== undefined);
    known.add(texts('a', 'b', 'c', 'd'));
    expect(kept()).toEqual(['b', 'c', 'd']);
    // Each text above is 10 characters: with one of 25, the oldest go until 40 or fewer are left.
    known.add([{ eventId: 'e', text: 'x'.repeat(25) }]);
    expect(kept()).toEqual(['d', 'e']);
    now = 500;
    known.add(texts('f'));
    now = 1_200;
    // 'd' and 'e' were added at 0: too old now; 'f' at 500 is not.
    expect(kept()).toEqual(['f']);
    expect(known.size).toBe(1);
  });
});
