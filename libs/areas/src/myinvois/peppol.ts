/**
 * The Peppol leg of a MyInvois submission (`transport_mode: peppol`, ISSUE 4 item 5): who sends
 * the PINT MY form to whom (the form itself: codec.ts `pintMyCopy`). PINT MY addresses Malaysian participants by
 * their TIN under ICD 0230 (EndpointID schemeID="0230" in the official PINT MY 1.3.1 examples and
 * in render-pint-my.ts). Pure.
 */
import { PINT_MY_ENDPOINT_SCHEME } from '../peppol-participants/participant-schemes';
import type { MyInvoisDocument } from './schema-document';
import type { MyInvoisSupplier } from './schema-onboarding';

export { PINT_MY_ENDPOINT_SCHEME };

/**
 * LHDN's generic TINs name no one, so no Peppol participant: general public (…010), foreign buyer
 * (…020), foreign seller (…030), government and statutory bodies (…040).
 */
export const genericTins: ReadonlySet<string> = new Set(['EI00000000010', 'EI00000000020', 'EI00000000030', 'EI00000000040', 'NA']);

/** `iso6523-actorid-upis::0230:<tin>` (lower case, as every participant id here). */
export function pintMyParticipantId(tin: string): string {
  return `iso6523-actorid-upis::${PINT_MY_ENDPOINT_SCHEME}:${tin.trim().toLowerCase()}`;
}

/**
 * The Peppol participant an onboarded Malaysian supplier is registered as here, so that PINT MY
 * documents sent to its TIN reach it as a hosted receiver; none for a generic TIN (names no one).
 */
export function supplierParticipantId(tin: string): string | undefined {
  return genericTins.has(tin.trim().toUpperCase()) ? undefined : pintMyParticipantId(tin);
}

/** Where the PINT MY form goes, or why it does not go over Peppol at all. */
export type PintMyRoute =
  | { readonly sender: string; readonly receiver: string }
  | { readonly skipped: 'CONSOLIDATED' | 'NO_PEPPOL_ADDRESS' };

/**
 * Sender and receiver of the Peppol leg. Invoice: the onboarded supplier sends to the buyer
 * (CustomerTIN). Self-billed: the onboarded supplier is the buyer and issues the document, so it
 * sends to the seller (SupplierTIN). Consolidated documents (general public) and parties with a
 * generic TIN have no Peppol address: skipped.
 */
export function pintMyRoute(doc: MyInvoisDocument, supplier: MyInvoisSupplier): PintMyRoute {
  if (doc.kind === 'consolidated') return { skipped: 'CONSOLIDATED' };
  const counterpartTin = doc.kind === 'self-billed' ? doc.body.SupplierParty.SupplierTIN : doc.body.CustomerParty.CustomerTIN;
  if (!counterpartTin || genericTins.has(counterpartTin) || !supplier.tin || genericTins.has(supplier.tin)) return { skipped: 'NO_PEPPOL_ADDRESS' };
  return { sender: pintMyParticipantId(supplier.tin), receiver: pintMyParticipantId(counterpartTin) };
}
