import { conflict, notFound } from '../errors';
import { evolveSupplier, initialSupplierState } from './evolve';
import type { SupplierCommand } from './commands';
import type { SupplierEvent } from './events';
import type { SupplierState } from './evolve';

/** The refusal of anything new for a deactivated supplier (a change, a document): 409. */
export const supplierInactive = (supplierId: string) =>
  conflict('SUPPLIER.INACTIVE', `Supplier ${supplierId} is deactivated: it takes no new documents and no changes; its documents stay readable.`);

export function decideSupplier(command: SupplierCommand, state: SupplierState): SupplierEvent[] {
  switch (command.type) {
    case 'OnboardSupplier':
      if (state.status !== 'none') throw conflict('SUPPLIER.ALREADY_ONBOARDED', 'The supplier is already onboarded.');
      return [{ type: 'SupplierOnboarded', data: command.data }];
    case 'UpdateSupplier':
      if (state.status === 'none') throw notFound('SUPPLIER.NOT_FOUND', `No supplier ${command.data.supplierId}.`);
      if (!state.active) throw supplierInactive(command.data.supplierId);
      return [{ type: 'SupplierUpdated', data: command.data }];
    case 'DeactivateSupplier':
      if (state.status === 'none') throw notFound('SUPPLIER.NOT_FOUND', `No supplier ${command.data.supplierId}.`);
      // Deactivating twice is what was asked already: nothing new to record (DELETE is idempotent).
      return state.active ? [{ type: 'SupplierDeactivated', data: command.data }] : [];
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}

export const supplierDecider = {
  decide: decideSupplier,
  evolve: evolveSupplier,
  initialState: initialSupplierState,
};
