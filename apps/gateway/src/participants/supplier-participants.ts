import { AppError, EventMetadata, SupplierOnboardedData, isAppError, issue, participantDecider, participantStreamId } from '@einvoice/domain';
import { UnitOfWork, handleCommand } from '@einvoice/domain/infrastructure';
import { isParticipantId, parseParticipantId } from '@einvoice/areas';

/**
 * Advisory lock namespace of participant registrations. Namespaces in use: 7312001 outbox relay,
 * 7312002 participants, 7312003 MyInvois stale sweep, 7312004 MyInvois rejection watch, 7312005 a
 * MyInvois submission being submitted, 7312008 an authority report being sent, polled or cancelled,
 * 7312009 retention, 7312010 MyInvois poll sweep, 7312011 authority report poll sweep, 7312012
 * authority report batch sweep and a supplier's webhook subscriptions, 7312013 MyInvois submit sweep,
 * 7312014 buyer-rejection watch, 7312015 authority report resend sweep, 7312016 a gateway's outbox
 * relay runs (shared: relay-lease.ts), 7312017 a tenant's supplier identifiers in an area (suppliers/supplier-identity.ts).
 */
const PARTICIPANT_LOCK = 7312002;

/**
 * Serialises the registrations of one participant id until the transaction ends, so a check
 * for "already registered" made after it holds until commit: two concurrent registrations of
 * one id (onboarding or the participant API) see each other instead of racing to the stream.
 */
export async function lockParticipantId(uow: UnitOfWork, participantId: string): Promise<void> {
  await uow.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [PARTICIPANT_LOCK, participantId]);
}

/**
 * The ids among `participantIds` that are registered with this access point already (by any
 * tenant, supplier onboarding or the participant API; a receiver is in exactly one SMP). Each id
 * is locked first (`lockParticipantId`), so the answer holds for the rest of the transaction.
 */
export async function registeredParticipantIds(uow: UnitOfWork, participantIds: readonly string[]): Promise<string[]> {
  const registered: string[] = [];
  for (const participantId of participantIds) {
    await lockParticipantId(uow, participantId);
    const [row] = await uow.query(`SELECT 1 FROM events WHERE stream_id = $1 LIMIT 1`, [participantStreamId(participantId)]);
    if (row) registered.push(participantId);
  }
  return registered;
}

/** What the business entity shows where the supplier profile's form is not the seed's. */
export interface SupplierParticipantOptions {
  /** ISO 3166-1 alpha-2 (the lookup's `CountryCode`), when the profile's country is another form (MyInvois: alpha-3). */
  readonly countryCode?: string;
}

/**
 * A supplier's Peppol participants, registered with its onboarding (same transaction as
 * SupplierOnboarded): created without KYC (the tenant onboarded the supplier itself) and sent to
 * the SML at once, so that the supplier can receive. BE/DE/SG: a participant id that another
 * tenant (or the participant API) registered first makes the onboarding a 409. Malaysia leaves a
 * registered id out of `participantIds` beforehand (`registeredParticipantIds`; docs/areas.md "Malaysia (MyInvois)").
 */
export async function registerSupplierParticipants(
  uow: UnitOfWork,
  supplier: SupplierOnboardedData,
  metadata: EventMetadata,
  options: SupplierParticipantOptions = {},
): Promise<void> {
  const profile = supplier.profile;
  const address = [profile.street, profile.postalCode, profile.city].filter((part) => part && part !== 'NA').join(', ');
  for (const participantId of supplier.participantIds) {
    const parsed = parseParticipantId(participantId, 'identifiers');
    const streamId = participantStreamId(participantId);
    try {
      await handleCommand(uow, participantDecider, streamId, {
        type: 'RegisterParticipant',
        data: {
          participantId,
          tenantId: supplier.tenantId,
          supplierId: supplier.supplierId,
          source: 'onboarding',
          businessEntities: [{
            names: [{ name: profile.registeredName }],
            countryCode: options.countryCode ?? profile.country,
            geographicalInformation: address || undefined,
            additionalIdentifiers: isParticipantId(parsed)
              ? [{ identifierCode: parsed.code, identifierValue: parsed.value, scheme: parsed.scheme }]
              : [],
            contacts: profile.contactEmail || profile.contactName || profile.contactNumber
              ? [{ email: profile.contactEmail, name: profile.contactName, phoneNumber: profile.contactNumber, type: 'administrative' }]
              : [],
          }],
          registeredAt: supplier.onboardedAt,
          kycRequired: false,
          kycMethods: [],
        },
      }, metadata);
    } catch (error) {
      if (isAppError(error) && error.code === 'PARTICIPANT.ALREADY_REGISTERED') {
        throw new AppError('conflict', error.code, error.message, {
          issues: [issue('identifiers', error.code, `${participantId} is already registered with this access point.`)],
        });
      }
      throw error;
    }
    await handleCommand(uow, participantDecider, streamId, {
      type: 'RequestSmlActivation',
      data: { participantId, tenantId: supplier.tenantId, at: supplier.onboardedAt },
    }, metadata);
  }
}
