import type { Decider } from '../aggregate';
import { foldEvents } from '../aggregate';
import type { Command, Event } from '../events';

/**
 * emmett-style specification of a decider: `given(events).when(command).then(events)` or
 * `.thenThrows(code)`. Pure: no database, no clock.
 */
export function specification<C extends Command, E extends Event, S>(decider: Decider<C, E, S>) {
  return {
    given: (history: E[]) => ({
      when: (command: C) => {
        const run = () => decider.decide(command, foldEvents(decider, history));
        return {
          then: (expected: E[]) => expect(run()).toEqual(expected),
          thenThrows: (code: string) => expect(run).toThrow(expect.objectContaining({ code })),
        };
      },
    }),
  };
}
