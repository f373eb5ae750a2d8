import { specification } from '../test/given-when-then';
import type { SupplierCommand } from './commands';
import { supplierDecider } from './decide';
import type { SupplierEvent, SupplierOnboardedData } from './events';

const onboarded: SupplierOnboardedData = {
  supplierId: 's-1',
  tenantId: 't-1',
  area: 'be',
  profile: { registeredName: 'Brussels Widgets NV', identifiers: [{ scheme: 'BE:VAT', id: 'BE0123456749' }], country: 'BE' },
  participantIds: ['iso6523-actorid-upis::9925:be0123456749'],
  onboardedAt: '2026-03-15T10:00:00.000Z',
};

const spec = specification<SupplierCommand, SupplierEvent, ReturnType<typeof supplierDecider.evolve>>(supplierDecider);

describe('supplier decider', () => {
  it('given nothing, when OnboardSupplier, then SupplierOnboarded', () => {
    spec.given([]).when({ type: 'OnboardSupplier', data: onboarded }).then([{ type: 'SupplierOnboarded', data: onboarded }]);
  });

  it('given an onboarded supplier, when OnboardSupplier again, then SUPPLIER.ALREADY_ONBOARDED', () => {
    spec.given([{ type: 'SupplierOnboarded', data: onboarded }]).when({ type: 'OnboardSupplier', data: onboarded }).thenThrows('SUPPLIER.ALREADY_ONBOARDED');
  });
});
