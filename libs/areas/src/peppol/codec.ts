/**
 * How the pipeline reads, renders, delivers and shows Belgian, German and Singaporean documents
 * (seed 002 "Belgium, Germany, Singapore (same shapes)"): one implementation, three profiles
 * (profiles.ts). Pure functions; errors are AppError from @einvoice/domain.
 */
import { type SupplierProfile, validationError } from '@einvoice/domain';
import type { DocumentCodec, OnboardingCodec, PeppolExchange, ReportedDocumentView } from '../registry/area';
import { validateBody } from '../shared/validate';
import { COMMON_REVISABLE_FIELDS, commonOnboardingBody, reviseByOnboarding } from '../shared/revise';
import { checkSupplierIdentifiers, identifierSchemes, participantIdFor } from '../peppol-ubl/identifiers';
import type { AreaProfile } from '../peppol-ubl/profiles';
import { renderDocument } from '../peppol-ubl/render';
import { checkInvoice } from '../peppol-ubl/rules';
import { InvoiceBody, type InvoiceDto, OnboardingBody, type Supplier } from '../peppol-ubl/schema';

/** Validates an onboarding body into the supplier's profile (identifiers in their canonical form). @throws AppError validation */
export function parseOnboarding(p: AreaProfile, body: unknown): SupplierProfile {
  const dto = validateBody(OnboardingBody, body);
  const issues = checkSupplierIdentifiers(dto.identifiers, p.identifierSchemes, p.requiredSchemes);
  if (issues.length) throw validationError(issues);
  return {
    registeredName: dto.registered_name,
    identifiers: dto.identifiers.map((i) => ({ scheme: i.scheme, id: identifierSchemes[i.scheme].normalize(i.id) })),
    street: dto.street, city: dto.city, county: dto.county, postalCode: dto.postal_code, country: dto.country,
    contactNumber: dto.contact_number, contactName: dto.contact_name, contactEmail: dto.contact_email,
  };
}

/**
 * Validates an invoice body (schema, then every business rule) and applies defaults. Pass the
 * onboarded supplier to also run the rules that depend on it (BR-S-02, DE-R-003...).
 * @throws AppError validation listing all issues
 */
export function parseInvoice(p: AreaProfile, body: unknown, supplier?: Supplier): InvoiceDto {
  const dto = validateBody(InvoiceBody, body);
  dto.DocumentCurrencyCode ??= p.defaultCurrency;
  // PEPPOL-EN16931-R003: a buyer reference or order reference is mandatory; the document ID stands in.
  dto.BuyerReference ??= dto.ID;
  for (const line of dto.InvoiceLines) line.InvoicedQuantity ??= 1;
  const issues = checkInvoice(p, dto, supplier);
  if (issues.length) throw validationError(issues);
  return dto as InvoiceDto;
}

/** The onboarding codec: the seed's body; the default 201 answer `{status, message, data: {supplier_uuid}}`. */
export function peppolOnboarding(p: AreaProfile): OnboardingCodec {
  const parse = (body: unknown) => parseOnboarding(p, body);
  // Every field but the identifiers (the seller's tax and legal ids: BT-31, BT-30) may change.
  return { parse, revise: reviseByOnboarding({ fields: COMMON_REVISABLE_FIELDS, bodyOf: commonOnboardingBody, parse }) };
}

/** A document's parsed fields are its InvoiceDto (`documents.parse` below keeps the DTO itself). */
const invoiceOf = (fields: Record<string, unknown>): InvoiceDto => fields as unknown as InvoiceDto;

/**
 * The documents codec: the invoice body (`DocumentType` is the document's type), answered 202
 * `{status, data: {DocumentID, DeliveryStatus: 'Scheduled'}}`; read as get-document (`uuid` plus the
 * submitted fields) or delivery-status (`DocumentID`, `DeliveryStatus`), each with `DeliveryFailure`
 * when the delivery failed (#8, additive).
 */
export function peppolDocuments(p: AreaProfile): DocumentCodec {
  return {
    parse(body, supplier) {
      const dto = parseInvoice(p, body, supplier);
      // The DTO itself as the fields, not a plain copy of it: nothing reads them before they are written
      // as JSON, which is the same text (a JSON round trip was 65 µs of every submission; issue 11).
      return { number: dto.ID, type: String(dto.DocumentType), fields: dto as unknown as Record<string, unknown> };
    },
    respond: ({ documentId }) => ({ statusCode: 202, body: { status: 'success', data: { DocumentID: documentId, DeliveryStatus: 'Scheduled' } } }),
    present(view, variant) {
      if (variant === 'delivery-status') return { status: 'success', data: { DocumentID: view.documentId, DeliveryStatus: view.peppol?.deliveryStatus ?? null, ...failureOf(view) } };
      // A received document's `counterparty` (its sender, for the account-wide list, #50) is no field of seed 002's read.
      const { counterparty: _listed, ...fields } = view.fields ?? {};
      return { status: 'success', data: { uuid: view.documentId, ...fields, ...failureOf(view) } };
    },
  };
}

/**
 * Delivery over Peppol: a supplier's participants are its onboarded identifiers (one each, by the
 * ISO 6523 code of its scheme); a document is its UBL (BIS Billing 3.0 or PINT SG) to the participant
 * of the buyer's first identifier (its EndpointID, BT-49).
 */
export function peppolExchange(p: AreaProfile): PeppolExchange {
  return {
    participantIds: (profile) => profile.identifiers.map((i) => participantIdFor(i.scheme, i.id)),
    envelope(document, supplier, documentId) {
      const dto = invoiceOf(document.fields);
      const buyer = dto.CustomerParty.Identifiers[0];
      return { xml: renderDocument(p, dto, supplier, documentId), receiverParticipantId: buyer ? participantIdFor(buyer.Scheme, buyer.ID) : null };
    },
  };
}

/** A failed delivery's reason: `DeliveryFailure: {code, message}` (DocumentDeliveryFailed); nothing otherwise. */
function failureOf(view: ReportedDocumentView): { DeliveryFailure?: { code: string; message: string } } {
  const failure = view.peppol?.failure;
  return failure ? { DeliveryFailure: { code: failure.code, message: failure.message } } : {};
}
