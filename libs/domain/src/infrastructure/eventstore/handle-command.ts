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
 * `from`: the state and version the caller already knows (a stream whose state is its last event,
 * read alone with EventStore.readLast): decided from it, appended after that version.
 */
export async function handleCommand<C extends Command, E extends Event, S>(
  uow: UnitOfWork,
  decider: Decider<C, E, S>,
  streamId: string,
  command: C,
  metadata: EventMetadata,
  options: { readonly newStream?: boolean; readonly history?: readonly RecordedEvent[]; readonly from?: { readonly state: S; readonly version: number } } = {},
): Promise<RecordedEvent[]> {
  if (options.from) return uow.appendAfter(streamId, options.from.version, decider.decide(command, options.from.state), metadata);
  const history = options.newStream ? [] : (options.history ?? (await uow.readStream(streamId)));
  const state = foldEvents(decider, history as unknown as E[]);
  const events = decider.decide(command, state);
  return uow.appendAfter(streamId, history.length, events, metadata);
}
