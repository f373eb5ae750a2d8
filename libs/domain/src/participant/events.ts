import type { Event } from '../events';
import { deterministicUuid } from '../ids';

/** A name of a business entity (seed "Peppol participant": `names.name[]`). */
export interface ParticipantName {
  readonly name: string;
  /** Language of the name; absent for participants registered by supplier onboarding. */
  readonly language?: string;
}

/** `additionalIdentifiers.additionalIdentifier[]` element. */
export interface ParticipantAdditionalIdentifier {
  readonly identifierCode: string;
  readonly identifierValue: string;
  readonly scheme?: string;
}

/** `contacts.contact[]` element. */
export interface ParticipantContact {
  readonly email?: string;
  readonly name?: string;
  readonly phoneNumber?: string;
  readonly type?: string;
}

/** One `businessEntity[]` element of the create-participant body (the business card). */
export interface ParticipantBusinessEntity {
  readonly names: readonly ParticipantName[];
  readonly countryCode: string;
  readonly geographicalInformation?: string;
  readonly additionalInformation?: string;
  readonly additionalIdentifiers: readonly ParticipantAdditionalIdentifier[];
  readonly contacts: readonly ParticipantContact[];
}

/** What registering a participant records, with or without KYC. */
export interface ParticipantRegistrationData {
  /** Canonical participant id `iso6523-actorid-upis::<icd>:<value>` (value lower case). */
  readonly participantId: string;
  readonly tenantId: string;
  /** Set when the participant was registered by onboarding a supplier. */
  readonly supplierId?: string;
  /** `api` (POST /1.0/participant) or `onboarding` (BE/DE/SG supplier onboarding). */
  readonly source: 'api' | 'onboarding';
  readonly businessEntities: readonly ParticipantBusinessEntity[];
  readonly registeredAt: string;
}

export type ParticipantRegistered = Event<'ParticipantRegistered', ParticipantRegistrationData>;

/** The tenant must sign a KYC authorization first (seed: HTTP 202 with `method`). */
export type ParticipantKycRequested = Event<
  'ParticipantKycRequested',
  ParticipantRegistrationData & { readonly methods: readonly string[] }
>;

export interface ParticipantKycCompletedData {
  readonly participantId: string;
  readonly method: string;
  /** Shown as `Meta.PdfFile` in lookups. */
  readonly pdfFile: string;
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly completedAt: string;
}
/** KYC done: the participant is created from here on (its RegistrationDate is `completedAt`). */
export type ParticipantKycCompleted = Event<'ParticipantKycCompleted', ParticipantKycCompletedData>;

export interface SmlChangeData {
  readonly participantId: string;
  readonly at: string;
}
/** Recorded by the gateway; the delivery-worker registers the participant in the SML. */
export type SmlActivationRequested = Event<'SmlActivationRequested', SmlChangeData>;
/** Recorded by the delivery-worker once the SML accepted the registration. */
export type SmlActivated = Event<'SmlActivated', SmlChangeData>;
export type SmlDeactivationRequested = Event<'SmlDeactivationRequested', SmlChangeData>;
export type SmlDeactivated = Event<'SmlDeactivated', SmlChangeData>;

export type ParticipantEvent =
  | ParticipantRegistered
  | ParticipantKycRequested
  | ParticipantKycCompleted
  | SmlActivationRequested
  | SmlActivated
  | SmlDeactivationRequested
  | SmlDeactivated;

/**
 * One stream per participant id, named from the id itself: a second registration of the same
 * id (by any tenant, by the API or by onboarding) finds the stream taken.
 */
export const participantStreamId = (participantId: string): string => `participant-${deterministicUuid(participantId.toLowerCase())}`;
