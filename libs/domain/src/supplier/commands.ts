import type { Command } from '../events';
import type { SupplierOnboardedData } from './events';

export type OnboardSupplier = Command<'OnboardSupplier', SupplierOnboardedData>;
export type SupplierCommand = OnboardSupplier;
