import type { ParticipantEvent } from './events';

/**
 * SML state of a created participant (seed "States and transitions"): `not_published` →
 * `activation_requested` → `activated` → `deactivation_requested` → `deactivated`, and from
 * `deactivated` it may be activated again.
 */
export type SmlState = 'not_published' | 'activation_requested' | 'activated' | 'deactivation_requested' | 'deactivated';

export type ParticipantState =
  | { readonly status: 'none' }
  | { readonly status: 'kyc_pending'; readonly tenantId: string }
  | { readonly status: 'created'; readonly tenantId: string; readonly sml: SmlState };

export const initialParticipantState: ParticipantState = { status: 'none' };

export function evolveParticipant(state: ParticipantState, event: ParticipantEvent): ParticipantState {
  switch (event.type) {
    case 'ParticipantRegistered':
      return { status: 'created', tenantId: event.data.tenantId, sml: 'not_published' };
    case 'ParticipantKycRequested':
      return { status: 'kyc_pending', tenantId: event.data.tenantId };
    case 'ParticipantKycCompleted':
      return state.status === 'kyc_pending' ? { status: 'created', tenantId: state.tenantId, sml: 'not_published' } : state;
    case 'SmlActivationRequested':
      return withSml(state, 'activation_requested');
    case 'SmlActivated':
      return withSml(state, 'activated');
    case 'SmlDeactivationRequested':
      return withSml(state, 'deactivation_requested');
    case 'SmlDeactivated':
      return withSml(state, 'deactivated');
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

function withSml(state: ParticipantState, sml: SmlState): ParticipantState {
  return state.status === 'created' ? { ...state, sml } : state;
}
