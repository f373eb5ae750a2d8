import { specification } from '../test/given-when-then';
import type { SupplierCommand } from './commands';
import { supplierDecider } from './decide';
import type { SupplierDeactivatedData, SupplierEvent, SupplierOnboardedData, SupplierUpdatedData } from './events';

const onboarded: SupplierOnboardedData = {
  supplierId: 's-1',
  tenantId: 't-1',
  area: 'be',
  profile: { registeredName: 'Brussels Widgets NV', identifiers: [{ scheme: 'BE:VAT', id: 'BE0123456749' }], country: 'BE' },
  participantIds: ['iso6523-actorid-upis::9925:be0123456749'],
  onboardedAt: '2026-03-15T10:00:00.000Z',
};

const updated: SupplierUpdatedData = {
  supplierId: 's-1', tenantId: 't-1', area: 'be', profile: { ...onboarded.profile, street: 'Rue de la Loi 16' }, changed: ['street'], updatedAt: '2026-03-16T10:00:00.000Z',
};
const deactivated: SupplierDeactivatedData = { supplierId: 's-1', tenantId: 't-1', area: 'be', deactivatedAt: '2026-03-17T10:00:00.000Z' };

const spec = specification<SupplierCommand, SupplierEvent, ReturnType<typeof supplierDecider.evolve>>(supplierDecider);

describe('supplier decider', () => {
  it('given nothing, when OnboardSupplier, then SupplierOnboarded', () => {
    spec.given([]).when({ type: 'OnboardSupplier', data: onboarded }).then([{ type: 'SupplierOnboarded', data: onboarded }]);
  });

  it('given an onboarded supplier, when OnboardSupplier again, then SUPPLIER.ALREADY_ONBOARDED', () => {
    spec.given([{ type: 'SupplierOnboarded', data: onboarded }]).when({ type: 'OnboardSupplier', data: onboarded }).thenThrows('SUPPLIER.ALREADY_ONBOARDED');
  });

  it('given an onboarded supplier, when UpdateSupplier, then SupplierUpdated', () => {
    spec.given([{ type: 'SupplierOnboarded', data: onboarded }]).when({ type: 'UpdateSupplier', data: updated }).then([{ type: 'SupplierUpdated', data: updated }]);
  });

  it('given nothing, when UpdateSupplier or DeactivateSupplier, then SUPPLIER.NOT_FOUND', () => {
    spec.given([]).when({ type: 'UpdateSupplier', data: updated }).thenThrows('SUPPLIER.NOT_FOUND');
    spec.given([]).when({ type: 'DeactivateSupplier', data: deactivated }).thenThrows('SUPPLIER.NOT_FOUND');
  });

  it('given an onboarded supplier, when DeactivateSupplier, then SupplierDeactivated; again, then nothing more', () => {
    spec.given([{ type: 'SupplierOnboarded', data: onboarded }]).when({ type: 'DeactivateSupplier', data: deactivated }).then([{ type: 'SupplierDeactivated', data: deactivated }]);
    spec.given([{ type: 'SupplierOnboarded', data: onboarded }, { type: 'SupplierDeactivated', data: deactivated }]).when({ type: 'DeactivateSupplier', data: deactivated }).then([]);
  });

  it('given a deactivated supplier, when UpdateSupplier, then SUPPLIER.INACTIVE', () => {
    spec.given([{ type: 'SupplierOnboarded', data: onboarded }, { type: 'SupplierDeactivated', data: deactivated }]).when({ type: 'UpdateSupplier', data: updated }).thenThrows('SUPPLIER.INACTIVE');
  });
});
