import type { Command, Event } from './events';

/** A pure aggregate: decide what happens, then fold what happened (emmett's Decider). */
export interface Decider<C extends Command, E extends Event, S> {
  readonly decide: (command: C, state: S) => E[];
  readonly evolve: (state: S, event: E) => S;
  readonly initialState: S;
}

/** Folds a stream's events into state. */
export function foldEvents<E extends Event, S>(decider: Pick<Decider<Command, E, S>, 'evolve' | 'initialState'>, events: readonly E[]): S {
  return events.reduce(decider.evolve, decider.initialState);
}
