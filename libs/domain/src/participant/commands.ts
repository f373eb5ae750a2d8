import type { Command } from '../events';
import type { ParticipantKycCompletedData, ParticipantRegistrationData, SmlChangeData } from './events';

export type RegisterParticipant = Command<
  'RegisterParticipant',
  ParticipantRegistrationData & {
    /** Tenant configuration (`tenants.kyc_required`): KYC signing before the participant exists. */
    readonly kycRequired: boolean;
    readonly kycMethods: readonly string[];
  }
>;
export type CompleteParticipantKyc = Command<'CompleteParticipantKyc', ParticipantKycCompletedData & { readonly tenantId: string }>;
/** Commands of a tenant carry its id: another tenant's participant is not found. */
export type RequestSmlActivation = Command<'RequestSmlActivation', SmlChangeData & { readonly tenantId: string }>;
export type RequestSmlDeactivation = Command<'RequestSmlDeactivation', SmlChangeData & { readonly tenantId: string }>;
/** From the delivery-worker, after the SML answered. */
export type RecordSmlActivation = Command<'RecordSmlActivation', SmlChangeData>;
export type RecordSmlDeactivation = Command<'RecordSmlDeactivation', SmlChangeData>;

export type ParticipantCommand =
  | RegisterParticipant
  | CompleteParticipantKyc
  | RequestSmlActivation
  | RequestSmlDeactivation
  | RecordSmlActivation
  | RecordSmlDeactivation;
