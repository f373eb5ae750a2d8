import { Decider, foldEvents } from '../../aggregate';
import type { Command, Event, EventMetadata, RecordedEvent } from '../../events';
import type { UnitOfWork } from './unit-of-work';

/**
 * Load, decide, append with the expected version: the one way a command changes a stream.
 * Run it inside `EventStore.transaction`, together with whatever else must commit with it.
 * `newStream`: the stream id was made for this command (a fresh UUID), so there is nothing to load:
 * the decider sees the initial state and the append expects no stream (a stream that exists after
 * all fails the append with WrongExpectedVersionError). Saves the read's round trip (issue 11).
 * `history`: the stream as the caller already has it (a consumer holding the event it handles,
 * when that is normally the stream's last): decided from it without a read; if the stream has
 * more, the append fails with WrongExpectedVersionError and the caller's retry reads it.
 */
export async function handleCommand<C extends Command, E extends Event, S>(
  uow: UnitOfWork,
  decider: Decider<C, E, S>,
  streamId: string,
  command: C,
  metadata: EventMetadata,
  options: { readonly newStream?: boolean; readonly history?: readonly RecordedEvent[] } = {},
): Promise<RecordedEvent[]> {
  const history = options.newStream ? [] : (options.history ?? (await uow.readStream(streamId)));
  const state = foldEvents(decider, history as unknown as E[]);
  const events = decider.decide(command, state);
  return uow.appendAfter(streamId, history.length, events, metadata);
}
