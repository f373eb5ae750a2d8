import type { SupplierEvent } from './events';

/** `active: false` once deactivated: it takes no new document, and no change. */
export type SupplierState = { readonly status: 'none' } | { readonly status: 'onboarded'; readonly active: boolean };

export const initialSupplierState: SupplierState = { status: 'none' };

export function evolveSupplier(state: SupplierState, event: SupplierEvent): SupplierState {
  switch (event.type) {
    case 'SupplierOnboarded':
      return { status: 'onboarded', active: true };
    case 'SupplierUpdated':
      return state;
    case 'SupplierDeactivated':
      return { status: 'onboarded', active: false };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
