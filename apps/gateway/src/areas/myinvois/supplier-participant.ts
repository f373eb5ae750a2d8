import { myinvois } from '@einvoice/areas';
import type { UnitOfWork } from '@einvoice/domain/infrastructure';
import { registeredParticipantIds } from '../../participants/supplier-participants';

/** The participant a Malaysian onboarding registers, or why it registers none. */
export type SupplierParticipantClaim =
  | { readonly outcome: 'registered'; readonly participantIds: readonly [string] }
  /** A generic TIN names no one: no Peppol address. */
  | { readonly outcome: 'none'; readonly participantIds: readonly [] }
  /** Registered here already (another tenant, another supplier, or the participant API). */
  | { readonly outcome: 'held_elsewhere'; readonly participantIds: readonly []; readonly participantId: string };

/**
 * The MyInvois onboarding is what the supplier came for, and MyInvois lets several intermediaries
 * act for one taxpayer (two tenants here, e.g. its ERP and its POS vendor, may onboard the same
 * TIN). Peppol does not: a receiver is in exactly one SMP. So a TIN whose participant is already
 * registered here onboards without it instead of being refused, and documents to that TIN keep
 * going to whoever registered it first. Call inside the onboarding transaction: the id stays
 * locked until commit, so two concurrent onboardings of one TIN cannot both claim it.
 */
export async function claimSupplierParticipant(uow: UnitOfWork, tin: string): Promise<SupplierParticipantClaim> {
  const participantId = myinvois.supplierParticipantId(tin);
  if (!participantId) return { outcome: 'none', participantIds: [] };
  if ((await registeredParticipantIds(uow, [participantId])).length > 0) return { outcome: 'held_elsewhere', participantIds: [], participantId };
  return { outcome: 'registered', participantIds: [participantId] };
}

/**
 * The seed's answer `{status, message, data:{supplier_uuid}}`, unchanged in shape; the message
 * says when the participant was not registered (the lookup of the pid then answers 404 for a
 * caller of another tenant, and the public capabilities say who receives).
 */
export function onboardingAnswer(supplierId: string, claim: SupplierParticipantClaim) {
  const message = claim.outcome === 'held_elsewhere'
    ? `Supplier onboarded. Its Peppol participant ${claim.participantId} is already registered with this access point `
      + '(a receiver is in exactly one SMP), so it was not registered for this supplier: Peppol documents to its TIN go to that registration.'
    : 'Supplier onboarded.';
  return { status: 'success', message, data: { supplier_uuid: supplierId } };
}
