/**
 * The Peppol leg of a MyInvois submission (`transport_mode: peppol`, ISSUE 4 item 5): who sends
 * the PINT MY form to whom, and the form itself. PINT MY addresses Malaysian participants by
 * their TIN under ICD 0230 (EndpointID schemeID="0230" in the official PINT MY 1.3.1 examples and
 * in render-pint-my.ts). Pure.
 */
import { PINT_MY_ENDPOINT_SCHEME } from '../peppol-participants/participant-schemes';
import { pintMyType, PintMyUnsupported } from './pint-my-codes';
import { renderPintMy } from './render-pint-my';
import { typeCodeOf } from './document-tree';
import type { MyInvoisDocument } from './schema-document';
import type { MyInvoisSupplier } from './schema-onboarding';
import type { PreparedSubmission, RejectedDocument } from './submission';

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

/** What the gateway appends as the document's `DocumentSubmitted` (transportMode `peppol`). */
export interface PintMyLeg {
  readonly sender: string;
  readonly receiver: string;
  /** UNTDID 1001 code of the PINT MY form (380, 381, 383, 389, 261). */
  readonly documentType: string;
  readonly xml: string;
}

/** The prepared submission with the Peppol leg of each document (undefined when skipped). */
export interface PreparedPeppolSubmission {
  readonly documents: readonly (PreparedSubmission['documents'][number] & { readonly peppol?: PintMyLeg; readonly peppolSkipped?: string })[];
  readonly rejected: readonly RejectedDocument[];
}

/**
 * Adds the PINT MY form to each document that has a Peppol address. A document PINT MY cannot
 * carry (README "PINT MY", the refused table: a PintMyUnsupported naming field and rule) is rejected alone with
 * `MYINVOIS.PINT_MY_UNSUPPORTED`: the caller asked for Peppol, so it goes nowhere.
 */
export function preparePeppolLeg(prepared: PreparedSubmission, supplier: MyInvoisSupplier): PreparedPeppolSubmission {
  const documents: PreparedPeppolSubmission['documents'][number][] = [];
  const rejected: RejectedDocument[] = [...prepared.rejected];
  for (const d of prepared.documents) {
    const route = pintMyRoute(d.document, supplier);
    if ('skipped' in route) {
      documents.push({ ...d, peppolSkipped: route.skipped });
      continue;
    }
    try {
      const xml = renderPintMy(d.document, supplier);
      const documentType = pintMyType(typeCodeOf(d.document.kind, d.document.body.InvoiceTypeCode)).typeCode;
      documents.push({ ...d, peppol: { ...route, documentType, xml } });
    } catch (error) {
      if (!(error instanceof PintMyUnsupported)) throw error;
      const id = d.document.body.ID;
      const message = `${error.path}: ${error.reason} (PINT MY rule ${error.rule}); send it without transport_mode: peppol.`;
      rejected.push({
        invoiceCodeNumber: id,
        error: { code: 'MYINVOIS.PINT_MY_UNSUPPORTED', message: `PINT MY cannot carry this document: ${message}`, target: id, propertyPath: null,
          details: [{ code: 'MYINVOIS.PINT_MY_UNSUPPORTED', message, target: error.path.split(/[.[]/)[0], propertyPath: error.path }] },
      });
    }
  }
  return { documents, rejected };
}
