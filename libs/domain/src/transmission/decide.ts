import type { Command } from '../events';
import type { PeppolTransmissionEvent, PeppolTransmissionFailedData, PeppolTransmissionRequestedData, PeppolTransmissionSentData } from './events';

export type RequestPeppolTransmission = Command<'RequestPeppolTransmission', PeppolTransmissionRequestedData>;
export type RecordPeppolTransmissionSent = Command<'RecordPeppolTransmissionSent', PeppolTransmissionSentData>;
export type RecordPeppolTransmissionFailure = Command<'RecordPeppolTransmissionFailure', PeppolTransmissionFailedData>;
export type PeppolTransmissionCommand = RequestPeppolTransmission | RecordPeppolTransmissionSent | RecordPeppolTransmissionFailure;

export type PeppolTransmissionState = { readonly status: 'none' | 'requested' | 'sent' | 'failed' };

export const initialPeppolTransmissionState: PeppolTransmissionState = { status: 'none' };

export function evolvePeppolTransmission(state: PeppolTransmissionState, event: PeppolTransmissionEvent): PeppolTransmissionState {
  switch (event.type) {
    case 'PeppolTransmissionRequested':
      return { status: 'requested' };
    case 'PeppolTransmissionSent':
      return { status: 'sent' };
    case 'PeppolTransmissionFailed':
      return state.status === 'sent' ? state : { status: 'failed' };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

/**
 * Pure decider of a Peppol transmission: requested once, then sent or failed once. Each command
 * repeated by an at-least-once consumer decides nothing new; a failed one (dead-lettered) may still be
 * sent by a replay, as a document's delivery may.
 */
export function decidePeppolTransmission(command: PeppolTransmissionCommand, state: PeppolTransmissionState): PeppolTransmissionEvent[] {
  switch (command.type) {
    case 'RequestPeppolTransmission':
      return state.status === 'none' ? [{ type: 'PeppolTransmissionRequested', data: command.data }] : [];
    case 'RecordPeppolTransmissionSent':
      return state.status === 'requested' || state.status === 'failed' ? [{ type: 'PeppolTransmissionSent', data: command.data }] : [];
    case 'RecordPeppolTransmissionFailure':
      return state.status === 'requested' ? [{ type: 'PeppolTransmissionFailed', data: command.data }] : [];
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}

export const peppolTransmissionDecider = {
  decide: decidePeppolTransmission,
  evolve: evolvePeppolTransmission,
  initialState: initialPeppolTransmissionState,
};
