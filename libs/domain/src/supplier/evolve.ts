import type { SupplierEvent } from './events';

export type SupplierState = { readonly status: 'none' } | { readonly status: 'onboarded' };

export const initialSupplierState: SupplierState = { status: 'none' };

export function evolveSupplier(_state: SupplierState, event: SupplierEvent): SupplierState {
  switch (event.type) {
    case 'SupplierOnboarded':
      return { status: 'onboarded' };
    default: {
      const unknown: never = event.type;
      return unknown;
    }
  }
}
