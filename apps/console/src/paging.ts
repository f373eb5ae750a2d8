/** Cursor paging of the API's lists (`starting_after` = the last id of the page before), with a way back. */
import { useState } from 'preact/hooks';

export interface Cursor {
  readonly after: string | undefined;
  readonly next: (lastId: string) => void;
  readonly previous: (() => void) | undefined;
  readonly reset: () => void;
}

/** The cursors walked so far, in the page's state: Previous goes back along them (the API pages forward only). */
export function useCursor(): Cursor {
  const [trail, setTrail] = useState<string[]>([]);
  return {
    after: trail[trail.length - 1],
    next: (lastId) => setTrail([...trail, lastId]),
    previous: trail.length ? () => setTrail(trail.slice(0, -1)) : undefined,
    reset: () => setTrail([]),
  };
}
