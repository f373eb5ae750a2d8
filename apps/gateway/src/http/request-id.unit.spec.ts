import { correlationIdOf, requestIdFrom } from './request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('#47 request ids: the client\'s when well formed, else a new UUID', () => {
  it.each(['a', 'order-42', 'trace:abc.DEF_1-2', 'x'.repeat(200), '3f1c9a0e-5b2d-4e7a-9c41-0d8e2f6b7a15'])('keeps %s', (sent) => {
    expect(requestIdFrom(sent)).toBe(sent);
  });

  it.each([
    ['none', undefined],
    ['an empty one', ''],
    ['201 characters', 'x'.repeat(201)],
    ['a space', 'order 42'],
    ['a slash', 'a/b'],
    ['a newline', 'a\nb'],
    ['non-ASCII', 'commande-é'],
    ['a header sent twice (Node joins them)', 'a, b'],
    ['a header array', ['a', 'b']],
  ] as const)('replaces %s with a UUID', (_, sent) => {
    expect(requestIdFrom(sent as string | string[] | undefined)).toMatch(UUID);
  });

  it('decides once per request, however often it is asked', () => {
    const request = { raw: {}, headers: {} };
    const first = correlationIdOf(request);
    expect(correlationIdOf(request)).toBe(first);
    expect(correlationIdOf({ raw: {}, headers: {} })).not.toBe(first);
  });
});
