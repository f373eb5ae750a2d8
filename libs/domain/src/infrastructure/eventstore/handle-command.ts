import { Decider, foldEvents } from '../../aggregate';
import type { Command, Event, EventMetadata, RecordedEvent } from '../../events';
import type { UnitOfWork } from './unit-of-work';

/**
 * Load, decide, append with the expected version: the one way a command changes a stream.
 * Run it inside `EventStore.transaction`, together with whatever else must commit with it.
 */
export async function handleCommand<C extends Command, E extends Event, S>(
  uow: UnitOfWork,
  decider: Decider<C, E, S>,
  streamId: string,
  command: C,
  metadata: EventMetadata,
): Promise<RecordedEvent[]> {
  const history = await uow.readStream(streamId);
  const state = foldEvents(decider, history as unknown as E[]);
  const events = decider.decide(command, state);
  return uow.append(streamId, history.length, events, metadata);
}
