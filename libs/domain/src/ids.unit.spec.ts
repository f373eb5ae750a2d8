import { deterministicUuid, timeOrderedUuid } from './ids';

describe('deterministicUuid', () => {
  it('gives the same RFC 9562 version-8 UUID for the same seed and another for another seed', () => {
    const a = deterministicUuid('received:d-1');
    expect(a).toBe(deterministicUuid('received:d-1'));
    expect(a).not.toBe(deterministicUuid('received:d-2'));
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('timeOrderedUuid', () => {
  it('is an RFC 9562 version-7 UUID whose text sorts by the millisecond it was made in', () => {
    const earlier = timeOrderedUuid(1_795_000_000_000);
    const later = timeOrderedUuid(1_795_000_000_001);
    expect(earlier).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(earlier < later).toBe(true);
    expect(earlier.replace(/-/g, '').slice(0, 12)).toBe((1_795_000_000_000).toString(16).padStart(12, '0'));
    expect(timeOrderedUuid()).not.toBe(timeOrderedUuid());
  });

  it('draws fresh random bits for every id, past the end of its random pool too (1,000 ids in one millisecond, all different)', () => {
    const ids = Array.from({ length: 1_000 }, () => timeOrderedUuid(1_795_000_000_000));
    expect(new Set(ids).size).toBe(1_000);
  });
});
