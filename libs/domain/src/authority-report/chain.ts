import type { Command, Event } from '../events';

/**
 * Documents whose legal record chains on the issuer's previous record (area registry
 * `documents.chain`; Spain: each VeriFactu record carries the previous one's huella). One stream
 * per area and issuer holds the chain: appending with the expected version means two requests can
 * never chain on the same record (the chain never forks, skips or repeats); the one that loses the
 * race reads the chain again and links on the winner.
 */
export interface DocumentChainedData {
  readonly documentId: string;
  readonly reportId: string;
  /** 1 for the first record of the chain. */
  readonly position: number;
  /** What the next record needs of this one (the area's: VeriFactu's identity and huella). */
  readonly link: Record<string, unknown>;
  readonly chainedAt: string;
}
export type DocumentChained = Event<'DocumentChained', DocumentChainedData>;
export type DocumentChainEvent = DocumentChained;

export type AppendToChain = Command<'AppendToChain', Omit<DocumentChainedData, 'position'>>;

export interface DocumentChainState {
  readonly length: number;
  /** The last record's link; undefined for an empty chain. */
  readonly last?: Record<string, unknown>;
}

export const initialDocumentChainState: DocumentChainState = { length: 0 };

export function evolveDocumentChain(state: DocumentChainState, event: DocumentChainEvent): DocumentChainState {
  return { length: state.length + 1, last: event.data.link };
}

export function decideDocumentChain(command: AppendToChain, state: DocumentChainState): DocumentChainEvent[] {
  return [{ type: 'DocumentChained', data: { ...command.data, position: state.length + 1 } }];
}

/** The chain's state from its last event alone (its position is the chain's length). */
export function documentChainStateOf(last: { readonly data: unknown } | undefined): DocumentChainState {
  if (!last) return initialDocumentChainState;
  const data = last.data as DocumentChainedData;
  return { length: data.position, last: data.link };
}

export const documentChainDecider = { decide: decideDocumentChain, evolve: evolveDocumentChain, initialState: initialDocumentChainState };

/** Stream kind `chain` (topic: documents): one stream per area and issuer. */
export const documentChainStreamId = (area: string, supplierId: string): string => `chain-${area}.${supplierId}`;
