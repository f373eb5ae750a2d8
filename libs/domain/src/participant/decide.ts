import { AppError, conflict, notFound } from '../errors';
import type { ParticipantCommand } from './commands';
import type { ParticipantEvent } from './events';
import { ParticipantState, evolveParticipant, initialParticipantState } from './evolve';

const notFoundError = (participantId: string) => notFound('PARTICIPANT.NOT_FOUND', `No participant ${participantId} is registered for your account.`);

/** The participant of this tenant, created (KYC done); anything else is an error naming why. */
function ownCreated(state: ParticipantState, tenantId: string, participantId: string) {
  if (state.status === 'none' || state.tenantId !== tenantId) throw notFoundError(participantId);
  if (state.status === 'kyc_pending') {
    throw conflict('PARTICIPANT.KYC_PENDING', `Participant ${participantId} waits for its KYC document; complete it first.`);
  }
  return state;
}

/**
 * Pure decisions of the participant aggregate. SML requests that are already satisfied or
 * under way decide nothing (a repeated activate is idempotent); a deactivate of a participant
 * that is not published is `SML.NOT_PUBLISHED` (seed: deactivate only "participant already published").
 */
export function decideParticipant(command: ParticipantCommand, state: ParticipantState): ParticipantEvent[] {
  switch (command.type) {
    case 'RegisterParticipant': {
      if (state.status !== 'none') {
        throw conflict(
          'PARTICIPANT.ALREADY_REGISTERED',
          `The Peppol participant ${command.data.participantId} is already registered with this access point; a receiver is registered in exactly one SMP.`,
        );
      }
      const { kycRequired, kycMethods, ...data } = command.data;
      return kycRequired ? [{ type: 'ParticipantKycRequested', data: { ...data, methods: kycMethods } }] : [{ type: 'ParticipantRegistered', data }];
    }
    case 'CompleteParticipantKyc': {
      const { tenantId, ...data } = command.data;
      if (state.status === 'none' || state.tenantId !== tenantId) throw notFoundError(data.participantId);
      if (state.status !== 'kyc_pending') throw conflict('PARTICIPANT.KYC_NOT_PENDING', `Participant ${data.participantId} needs no KYC document: it is already created.`);
      return [{ type: 'ParticipantKycCompleted', data }];
    }
    case 'RequestSmlActivation': {
      const { participantId, at } = command.data;
      const created = ownCreated(state, command.data.tenantId, participantId);
      if (created.sml === 'activated' || created.sml === 'activation_requested') return [];
      if (created.sml === 'deactivation_requested') {
        throw conflict('SML.DEACTIVATION_IN_PROGRESS', `Participant ${participantId} is being deactivated in the SML; activate it once that is done.`);
      }
      return [{ type: 'SmlActivationRequested', data: { participantId, at } }];
    }
    case 'RequestSmlDeactivation': {
      const { participantId, at } = command.data;
      const created = ownCreated(state, command.data.tenantId, participantId);
      if (created.sml === 'deactivation_requested') return [];
      if (created.sml !== 'activated') {
        throw conflict('SML.NOT_PUBLISHED', `Participant ${participantId} is not published in the SML (state ${created.sml}); only a published participant can be deactivated.`);
      }
      return [{ type: 'SmlDeactivationRequested', data: { participantId, at } }];
    }
    case 'RecordSmlActivation':
      // A stale request (deactivated meanwhile) or a redelivery records nothing.
      return state.status === 'created' && state.sml === 'activation_requested' ? [{ type: 'SmlActivated', data: command.data }] : [];
    case 'RecordSmlDeactivation':
      return state.status === 'created' && state.sml === 'deactivation_requested' ? [{ type: 'SmlDeactivated', data: command.data }] : [];
    default: {
      const unknown: never = command;
      throw new AppError('internal', 'PARTICIPANT.UNKNOWN_COMMAND', `Unknown command ${(unknown as { type: string }).type}`);
    }
  }
}

export const participantDecider = {
  decide: decideParticipant,
  evolve: evolveParticipant,
  initialState: initialParticipantState,
};
