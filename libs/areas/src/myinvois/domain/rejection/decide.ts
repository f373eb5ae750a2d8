import { conflict, issue, validationError } from '@einvoice/domain';
import type { MyInvoisRejectionCommand } from './commands';
import type { MyInvoisRejectionEvent } from './events';
import { MyInvoisRejectionState, evolveMyInvoisRejection, initialMyInvoisRejectionState } from './evolve';

/** Reject Document's `reason` (SDK "04 reject document"): mandatory, at most 300 characters. */
export const REJECTION_REASON_MAX = 300;

/**
 * Pure decider of a buyer's rejection request. MyInvois decides whether this buyer may reject
 * (receiver, 72 h, once); here: a well-formed request, one in flight at a time, none after
 * MyInvois recorded one, and its answer recorded once (an at-least-once worker may repeat it).
 */
export function decideMyInvoisRejection(command: MyInvoisRejectionCommand, state: MyInvoisRejectionState): MyInvoisRejectionEvent[] {
  switch (command.type) {
    case 'RequestBuyerRejection': {
      const { reason, uuid } = command.data;
      const issues = [
        ...(uuid.trim() ? [] : [issue('uuid', 'FIELD.REQUIRED', 'The MyInvois uuid of the received document is required.')]),
        ...(reason.trim() ? [] : [issue('reason', 'FIELD.REQUIRED', 'Give the reason for the rejection (1 to 300 characters).')]),
        // Characters as the request DTO counts them (code points), not UTF-16 units.
        ...([...reason].length > REJECTION_REASON_MAX ? [issue('reason', 'FIELD.TOO_LONG', `The reason has at most ${REJECTION_REASON_MAX} characters.`)] : []),
      ];
      if (issues.length) throw validationError(issues);
      if (state.status === 'requested') {
        throw conflict('MYINVOIS.REJECTION_IN_PROGRESS', 'A rejection of this document is already with MyInvois.');
      }
      if (state.status === 'rejected') throw conflict('MYINVOIS.ALREADY_REJECTED', 'MyInvois recorded this rejection already; a document is rejected once.');
      return [{ type: 'MyInvoisBuyerRejectionRequested', data: command.data }];
    }
    case 'RecordBuyerRejectionAnswer': {
      if (state.status !== 'requested') return [];
      const { rejectionId, refused, at } = command.data;
      if (refused) return [{ type: 'MyInvoisBuyerRejectionRefused', data: { rejectionId, uuid: state.uuid, kind: refused.kind, error: refused.error, refusedAt: at } }];
      return [{ type: 'MyInvoisBuyerRejectionRecorded', data: { rejectionId, uuid: state.uuid, rejectedAt: at } }];
    }
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}

export const myInvoisRejectionDecider = {
  decide: decideMyInvoisRejection,
  evolve: evolveMyInvoisRejection,
  initialState: initialMyInvoisRejectionState,
};
