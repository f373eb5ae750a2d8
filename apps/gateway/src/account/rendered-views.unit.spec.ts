import { RenderedViews } from './rendered-views';

describe('#49 the printed views last made', () => {
  it('makes a view once per key: the same inputs read again are not rendered again', async () => {
    const views = new RenderedViews();
    let made = 0;
    const make = async () => Buffer.from(`page ${++made}`);
    const key = RenderedViews.keyOf('html', { id: 'a', document: '710', supplier: '12' });
    expect((await views.get(key, make)).toString()).toBe('page 1');
    expect((await views.get(key, make)).toString()).toBe('page 1');
    expect(made).toBe(1);
  });

  it('renders afresh when the document row or its supplier row changed, and keeps PDF, HTML and documents apart', () => {
    const pending = RenderedViews.keyOf('pdf', { id: 'a', document: '710', supplier: '12' });
    expect(RenderedViews.keyOf('pdf', { id: 'a', document: '733', supplier: '12' })).not.toBe(pending);
    expect(RenderedViews.keyOf('pdf', { id: 'a', document: '710', supplier: '740' })).not.toBe(pending);
    expect(RenderedViews.keyOf('pdf', { id: 'b', document: '710', supplier: '12' })).not.toBe(pending);
    expect(RenderedViews.keyOf('html', { id: 'a', document: '710', supplier: '12' })).not.toBe(pending);
    expect(RenderedViews.keyOf('pdf', { id: 'a', document: '710', supplier: '12' })).toBe(pending);
  });

  it('holds at most its bytes, the least recently used out first', async () => {
    const views = new RenderedViews(100);
    const made: string[] = [];
    const make = (name: string) => async () => (made.push(name), Buffer.alloc(20, name));
    for (const name of ['a', 'b', 'c', 'd']) await views.get(name, make(name));
    await views.get('a', make('a'));
    // 100 bytes hold five of 20: a fifth and a sixth push out the least recently used, b then c.
    await views.get('e', make('e'));
    await views.get('f', make('f'));
    made.length = 0;
    for (const name of ['a', 'd', 'e', 'f']) await views.get(name, make(name));
    expect(made).toEqual([]);
    await views.get('b', make('b'));
    expect(made).toEqual(['b']);
  });
});
