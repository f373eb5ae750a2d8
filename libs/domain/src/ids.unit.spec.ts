import { deterministicUuid } from './ids';

describe('deterministicUuid', () => {
  it('gives the same RFC 9562 version-8 UUID for the same seed and another for another seed', () => {
    const a = deterministicUuid('received:d-1');
    expect(a).toBe(deterministicUuid('received:d-1'));
    expect(a).not.toBe(deterministicUuid('received:d-2'));
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
