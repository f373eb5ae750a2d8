/**
 * How the pipeline onboards UAE participants, reads their documents and sends them over Peppol (issue
 * 10 "Participants", "Documents"; seed 001): a document passes phase 1 (fields), is rendered with its
 * document id as its UUID, then passes phase 2 (the PINT AE rules on that UBL, rules-phase.ts), so the
 * two never mix in one answer. The same UBL is what the FTA's report carries and what Peppol delivers.
 */
import { randomUUID } from 'node:crypto';
import { AppError, type SupplierProfile } from '@einvoice/domain';
import type { DocumentCodec, OnboardingCodec, ParsedDocument, PeppolExchange, RenderedDocument } from '../registry/area';
import { detachEmbedded } from '../ubl/attachments';
import { parseUaeDocument, uaeSchemaMessage, unifiedCountryIssues } from './document';
import { financialYearOf, parseUaeParticipant, uaeDetailsOf, uaeIssuerOf, uaeParticipantBody } from './participant';
import { reviseByOnboarding } from '../shared/revise';
import { type RenderedUae, renderUae } from './render';
import { checkRulesPhase } from './rules-phase';
import { computeUaeTotals } from './totals';
import { formatAmount } from '../shared/money';
import { uaeDocumentKind } from './specification';

/** The SMP form of a UAE Peppol id (`0235:<TIN>`), as the participant directory stores it. */
export const uaeParticipantId = (peppolId: string): string => `iso6523-actorid-upis::${peppolId.toLowerCase()}`;

/** A participant is a Peppol receiver here by its Peppol id (ICD 0235): 201 `{participant_id, peppol_id}`. */
export const uaeOnboarding: OnboardingCodec = {
  parse: parseUaeParticipant,
  // Its names and address may change; not its Peppol id (its TIN) nor its TRN, the tax identifiers, nor
  // its financial year, which keys its document numbers (one number per participant and year).
  revise: reviseByOnboarding({ fields: ['legal_name', 'legal_id', 'street_address', 'city', 'emirates_code'], bodyOf: uaeParticipantBody, parse: parseUaeParticipant }),
  respond: (supplierId, profile) => ({ status: 'success', data: { participant_id: supplierId, peppol_id: uaeDetailsOf(profile).peppolId } }),
};

/**
 * A document's number as the platform keys it: unique per participant and financial year (the
 * documents index is per supplier), so the year is part of it.
 */
const documentNumber = (financialYear: number, identifier: string): string => `${financialYear}:${identifier}`;

/** The financial year and the caller's `document_identifier` back from a document's number. */
export function uaeNumberParts(number: string): { readonly financialYear: number; readonly identifier: string } {
  const colon = number.indexOf(':');
  return { financialYear: Number(number.slice(0, colon)), identifier: number.slice(colon + 1) };
}

/**
 * The documents codec. `variant` `unified` is the Unified API's body (its `country` checked first, then
 * read as the Regional API's). Without the pipeline's `documentId` (a body only checked), the UBL's UUID
 * is a fresh one: nothing rendered then is kept.
 */
export const uaeDocuments: DocumentCodec = {
  parse(body, supplier, variant, documentId = randomUUID()) {
    const countryIssues = variant === 'unified' ? unifiedCountryIssues(body) : [];
    if (countryIssues.length > 0) throw new AppError('validation', 'DOCUMENT.SCHEMA', uaeSchemaMessage, { issues: countryIssues });
    const parsed = parseUaeDocument(body);
    if ('issues' in parsed) throw new AppError('validation', 'DOCUMENT.SCHEMA', uaeSchemaMessage, { issues: parsed.issues });
    const { document } = parsed;
    const rendered = renderUae(document, uaeIssuerOf(supplier), { uuid: documentId });
    checkRulesPhase(document, rendered.xml);
    const details = uaeDetailsOf(supplier);
    return {
      number: documentNumber(financialYearOf(document.issue_date, details.financialYearStart), document.document_identifier),
      type: document.document_type,
      // As sent: `stored` is also the seed's GET body; the payable amount (IBT-115) the UBL states goes apart.
      fields: rendered.stored,
      total: formatAmount(computeUaeTotals(document).payable),
      // The sender's access point reports it (C2), for the participant that sends it.
      payload: { reporterRole: 'C2', participantId: uaeParticipantId(details.peppolId) },
      ruleSetId: uaeDocumentKind(document.document_type).specification.ruleSetId,
      rendered: compactDocument(rendered),
    };
  },
  respond: ({ documentId, number }) => ({
    statusCode: 202,
    body: {
      status: 'success',
      data: { document_id: documentId, document_identifier: uaeNumberParts(number).identifier, status: 'accepted', reporting: { status: 'queued' }, exchange: { status: 'processing' } },
    },
  }),
};

/** `…/documents/validate`'s 200 (seed 001). */
export function uaeValidAnswer(document: ParsedDocument): { readonly statusCode: 200; readonly body: unknown } {
  return { statusCode: 200, body: { status: 'success', message: 'Document is valid.', data: { document_identifier: uaeNumberParts(document.number).identifier } } };
}

/** A participant sends as its Peppol id; a document goes to its `receiving_party.peppol_id`, as rendered for the FTA. */
export const uaeExchange: PeppolExchange = {
  participantIds: (profile: SupplierProfile) => [uaeParticipantId(uaeDetailsOf(profile).peppolId)],
  envelope(document, _supplier, _documentId, rendered) {
    // `parse` rendered it (the pipeline passes that rendering on): the UBL delivered is the one reported.
    const xml = (rendered ?? document.rendered)?.bytes;
    if (xml === undefined) throw new AppError('internal', 'AREA.NO_CODEC', 'A UAE document travels as parse rendered it.', { retriable: false });
    const receiving = (document.fields.receiving_party ?? {}) as { peppol_id?: string };
    return { xml, receiverParticipantId: receiving.peppol_id ? uaeParticipantId(receiving.peppol_id) : null };
  },
  // The buyer's access point reports what it receives too (C3), as the seller's reports what it sends (C2).
  receivedReport: ({ receiverParticipantId }) => ({ reporterRole: 'C3', participantId: receiverParticipantId }),
};

/**
 * The rendered document without its attachments' bytes (the events carry it; the pipeline stores the
 * attachments once). Each detached object must be the attachment of the same number (both count
 * embedded objects in document order), or reattaching would swap files.
 */
function compactDocument(rendered: RenderedUae): RenderedDocument {
  const { xml, detached } = detachEmbedded(rendered.xml);
  for (const [index, bytes] of detached) {
    if (!rendered.attachments[index - 1]?.bytes.equals(bytes)) {
      throw new AppError('internal', 'DOCUMENT.ATTACHMENT_ORDER', `Embedded object ${index} is not attachment ${index}.`, { retriable: false });
    }
  }
  return { bytes: xml, mediaType: 'application/xml', sha256: rendered.sha256, attachments: rendered.attachments };
}
