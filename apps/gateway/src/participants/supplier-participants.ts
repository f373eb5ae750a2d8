import { AppError, EventMetadata, SupplierOnboardedData, isAppError, issue, participantDecider, participantStreamId } from '@einvoice/domain';
import { UnitOfWork, handleCommand } from '@einvoice/domain/infrastructure';
import { isParticipantId, parseParticipantId } from '@einvoice/areas';

/**
 * A BE/DE/SG supplier's Peppol participants, registered with its onboarding (same transaction
 * as SupplierOnboarded): created without KYC (the tenant onboarded the supplier itself) and
 * sent to the SML at once, so that the supplier can receive. A participant id that another
 * tenant (or the participant API) registered first makes the onboarding a 409.
 */
export async function registerSupplierParticipants(uow: UnitOfWork, supplier: SupplierOnboardedData, metadata: EventMetadata): Promise<void> {
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
            countryCode: profile.country,
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
