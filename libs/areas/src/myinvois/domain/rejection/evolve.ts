import type { MyInvoisRejectionEvent } from './events';

/**
 * What deciding needs to know of a buyer's rejection: `requested` while MyInvois has not
 * answered, `rejected` once it recorded it, `refused` when it did not (a new request may follow).
 */
export type MyInvoisRejectionState =
  | { readonly status: 'none' }
  | { readonly status: 'requested' | 'rejected' | 'refused'; readonly uuid: string };

export const initialMyInvoisRejectionState: MyInvoisRejectionState = { status: 'none' };

export function evolveMyInvoisRejection(state: MyInvoisRejectionState, event: MyInvoisRejectionEvent): MyInvoisRejectionState {
  switch (event.type) {
    case 'MyInvoisBuyerRejectionRequested':
      return { status: 'requested', uuid: event.data.uuid };
    case 'MyInvoisBuyerRejectionRecorded':
      return { status: 'rejected', uuid: event.data.uuid };
    case 'MyInvoisBuyerRejectionRefused':
      return { status: 'refused', uuid: event.data.uuid };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
