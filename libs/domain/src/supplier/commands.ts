import type { Command } from '../events';
import type { SupplierDeactivatedData, SupplierOnboardedData, SupplierUpdatedData } from './events';

export type OnboardSupplier = Command<'OnboardSupplier', SupplierOnboardedData>;
export type UpdateSupplier = Command<'UpdateSupplier', SupplierUpdatedData>;
export type DeactivateSupplier = Command<'DeactivateSupplier', SupplierDeactivatedData>;
export type SupplierCommand = OnboardSupplier | UpdateSupplier | DeactivateSupplier;
