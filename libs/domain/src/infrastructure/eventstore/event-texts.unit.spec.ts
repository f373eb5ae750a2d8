import { KnownEventTexts } from './event-texts';

const texts = (...ids: string[]) => ids.map((eventId) => ({ eventId, text: `{"id":"${eventId}"}` }));

describe('#11 the data texts a relay keeps for its next reads', () => {
  it('gives the oldest first, at most as many as asked, and forgets what was read', () => {
    const known = new KnownEventTexts();
    known.add(texts('a', 'b', 'c'));
    expect([...known.oldest(2).keys()]).toEqual(['a', 'b']);
    expect(known.oldest(5).get('c')).toBe('{"id":"c"}');
    known.forget(['a', 'c', 'never-there']);
    expect([...known.oldest(5).keys()]).toEqual(['b']);
  });

  it('stays within its bounds however many texts come and none is read: entries, characters and age', () => {
    let now = 0;
    const known = new KnownEventTexts({ maxEntries: 3, maxChars: 40, maxAgeMs: 1_000 }, () => now);
    known.add(texts('a', 'b', 'c', 'd'));
    expect([...known.oldest(10).keys()]).toEqual(['b', 'c', 'd']);
    // Each text above is 10 characters: with one of 25, the oldest go until 40 or fewer are left.
    known.add([{ eventId: 'e', text: 'x'.repeat(25) }]);
    expect([...known.oldest(10).keys()]).toEqual(['d', 'e']);
    now = 500;
    known.add(texts('f'));
    now = 1_200;
    // 'd' and 'e' were added at 0: too old now; 'f' at 500 is not.
    expect([...known.oldest(10).keys()]).toEqual(['f']);
    expect(known.size).toBe(1);
  });
});
