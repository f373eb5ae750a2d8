import { foldEvents } from '../aggregate';
import { type DocumentChainEvent, decideDocumentChain, documentChainDecider, documentChainStateOf, initialDocumentChainState } from './chain';

describe('document chain', () => {
  const append = (documentId: string, hash: string) => ({ type: 'AppendToChain' as const, data: { documentId, reportId: `r-${documentId}`, link: { hash }, chainedAt: '2026-11-25T00:00:00Z' } });

  it('numbers each link after the last, and its state is its last event alone', () => {
    const events: DocumentChainEvent[] = [];
    let state = initialDocumentChainState;
    for (const [id, hash] of [['a', 'H1'], ['b', 'H2'], ['c', 'H3']]) {
      const [event] = decideDocumentChain(append(id, hash), state);
      events.push(event);
      state = documentChainDecider.evolve(state, event);
    }
    expect(events.map((e) => e.data.position)).toEqual([1, 2, 3]);
    expect(foldEvents(documentChainDecider, events)).toEqual({ length: 3, last: { hash: 'H3' } });
    expect(documentChainStateOf(events.at(-1))).toEqual(foldEvents(documentChainDecider, events));
    expect(documentChainStateOf(undefined)).toEqual(initialDocumentChainState);
  });
});
