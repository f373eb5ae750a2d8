import { conflict } from '../errors';
import { evolveSupplier, initialSupplierState } from './evolve';
import type { SupplierCommand } from './commands';
import type { SupplierEvent } from './events';
import type { SupplierState } from './evolve';

export function decideSupplier(command: SupplierCommand, state: SupplierState): SupplierEvent[] {
  switch (command.type) {
    case 'OnboardSupplier':
      if (state.status !== 'none') throw conflict('SUPPLIER.ALREADY_ONBOARDED', 'The supplier is already onboarded.');
      return [{ type: 'SupplierOnboarded', data: command.data }];
    default: {
      const unknown: never = command.type;
      return unknown;
    }
  }
}

export const supplierDecider = {
  decide: decideSupplier,
  evolve: evolveSupplier,
  initialState: initialSupplierState,
};
