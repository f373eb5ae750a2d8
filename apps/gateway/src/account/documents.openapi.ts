/**
 * How the OpenAPI document shows `/v1/documents` (#47): its answers' schemas, with their examples (a
 * Belgian invoice delivered over Peppol, a Polish one reported to KSeF), kept beside the controller.
 */
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { dateTimeField, nullable, statusAnswer, statusField, uuidField } from '../http/openapi-answers';
import { AREA_CODES } from '@einvoice/areas';
import { AUTHORITY_STATUSES, DOCUMENT_STATUSES, EXCHANGE_STATUSES } from '@einvoice/domain';

const belgian = {
  id: '0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a',
  area: 'be',
  supplier_id: '5b0d2a3c-8f3e-4a57-9a51-1c1f2b8e7d10',
  direction: 'outgoing',
  number: 'INV-2026-0042',
  type: 'Invoice',
  issue_date: '2026-11-25',
  currency: 'EUR',
  total: '121.00',
  counterparty: { name: 'Antwerp Buyer BV', id: 'BE0202239951' },
  status: 'delivered',
  authority: { status: 'none' },
  exchange: { status: 'delivered' },
  created_at: '2026-11-25T10:30:00.000Z',
  updated_at: '2026-11-25T10:30:02.000Z',
};

const polish = {
  ...belgian,
  id: '7a1d9e40-2b6c-4f3a-8e5d-3c2b1a0f9e8d',
  area: 'pl',
  supplier_id: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
  number: 'FV/2026/11/7',
  currency: 'PLN',
  total: '288',
  counterparty: { name: 'Nabywca S.A.', id: '1234563218' },
  status: 'reported',
  authority: { status: 'reported', reference: '5260250274-20261125-0100A0B0C0D0-E1' },
  exchange: { status: 'none' },
  created_at: '2026-11-25T10:29:00.000Z',
};

export const documentListExample = { status: 'success', data: [belgian, polish], has_more: true };

export const documentDetailExample = {
  status: 'success',
  data: {
    ...belgian,
    timeline: [
      { type: 'accepted', at: '2026-11-25T10:30:00.000Z', detail: { track: 'exchange', receiver: '0208:0843766574' } },
      { type: 'delivered', at: '2026-11-25T10:30:02.000Z', detail: { track: 'exchange', message_id: 'b5c1e2d3-4f5a-4b6c-8d7e-9f0a1b2c3d4e@einvoice', channel: 'remote', mls: { responseCode: 'AP', receivedAt: '2026-11-25T10:30:02.000Z' } } },
    ],
    links: {
      document: '/be/einvoice/get-document/0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a',
      xml: '/be/einvoice/get-document/0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a/xml',
      supplier_header: 'supplier_uuid',
      pdf: '/v1/documents/0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a/pdf',
      html: '/v1/documents/0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a/html',
      cancel: null,
      request: '/v1/documents/0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a/request',
    },
  },
};

/** A JSON Schema (OpenAPI 3.1) that also admits null: a value some areas' documents do not carry. */
const orNull = (schema: SchemaObject): SchemaObject => {
  const { description, example, ...type } = schema;
  return nullable(type, { description, example });
};

/** A document's fields, as the list and the detail show them (documents.service.ts `DocumentSummary`). */
const summaryProperties: Record<string, SchemaObject> = {
  id: uuidField('The document id: the id its area\'s own routes read it by (`links.document`).', belgian.id),
  area: { type: 'string', description: `The area it belongs to (${AREA_CODES.map((code) => `\`${code}\``).join(', ')}).`, example: belgian.area },
  supplier_id: uuidField('The supplier that sent it (outgoing) or received it (incoming): the id its onboarding answered.', belgian.supplier_id),
  direction: { type: 'string', enum: ['outgoing', 'incoming'], description: 'Sent by your supplier, or received by it over Peppol.', example: belgian.direction },
  number: {
    type: 'string',
    description: 'The document number as its area keys it: the caller\'s number (UAE: prefixed with the financial year, `2026:INV-1`; Argentina: point of sale, type and number).',
    example: belgian.number,
  },
  type: { type: 'string', description: 'The document type in its area\'s own code (`Invoice`, `380`, MyInvois `01`, AFIP `CbteTipo`).', example: belgian.type },
  issue_date: orNull({ type: 'string', format: 'date', description: 'The issue date (YYYY-MM-DD) the document gives.', example: belgian.issue_date }),
  currency: orNull({ type: 'string', description: 'The document currency (ISO 4217; Argentina: AFIP\'s code, `PES`), or the area\'s default when the body left it out.', example: belgian.currency }),
  total: orNull({ type: 'string', description: 'The total payable as the body gave it, in decimal text; null where the area\'s body carries none.', example: belgian.total }),
  counterparty: {
    type: 'object',
    required: ['name', 'id'],
    description:
      'The other party (#50): the buyer of an outgoing document, the sender of an incoming one, as the document names it. `id` is its identifier as the area has it: ' +
      'the first buyer identifier of a Peppol body (BE, DE, SG, PL: the Peppol id\'s value, e.g. a VAT number), the TIN (MyInvois, Jordan, Nigeria), the TRN or else the Peppol id (UAE), ' +
      'the NIF (Spain), the buyer\'s document number (Argentina, which states no buyer name); a received document\'s sender by its name and VAT identifier, else electronic address (BT-27; BT-31, else BT-34). ' +
      'Each null where the document does not say: a Spanish F2 or a cancellation record, an Argentinian consumidor final, a MyInvois document or received document recorded before #50.',
    properties: {
      name: orNull({ type: 'string', description: 'Its name (BT-44 Buyer name; BT-27 Seller name when received).', example: belgian.counterparty.name }),
      id: orNull({ type: 'string', description: 'Its identifier as the area has it (VAT number, TIN, NIF, TRN, Peppol id, AFIP document number).', example: belgian.counterparty.id }),
    },
    example: belgian.counterparty,
  },
  status: { type: 'string', enum: [...DOCUMENT_STATUSES], description: 'Both tracks folded into one state (docs/account-api.md): the list\'s `status` filter.', example: belgian.status },
  authority: {
    type: 'object',
    required: ['status'],
    description: 'The report to the area\'s tax authority.',
    properties: {
      status: { type: 'string', enum: [...AUTHORITY_STATUSES], description: '`none` where the area reports to no authority.', example: polish.authority.status },
      reference: { type: 'string', description: 'The number the authority gave it, once it gave one (KSeF number, AEAT CSV, IRN, CAE, MyInvois long id, FTA reference, JoFotara number).', example: polish.authority.reference },
    },
    example: polish.authority,
  },
  exchange: {
    type: 'object',
    required: ['status'],
    description: 'The exchange over Peppol.',
    properties: {
      status: { type: 'string', enum: [...EXCHANGE_STATUSES], description: '`none` where it travels over no Peppol; `pending` while a copy waits for the authority\'s acceptance.', example: belgian.exchange.status },
    },
    example: belgian.exchange,
  },
  created_at: dateTimeField('When it was submitted or received here: the list\'s order and the `created_*` filters.', belgian.created_at),
  updated_at: dateTimeField('When either track last changed.', belgian.updated_at),
};

const [accepted] = documentDetailExample.data.timeline;
const timelineEntry: SchemaObject = {
  type: 'object',
  required: ['type', 'at', 'detail'],
  properties: {
    type: {
      type: 'string',
      description:
        'What happened: accepted, scheduled, sent, delivered, failed, submitted, reported, refused, cancellation_requested, cancelled, ' +
        'cancellation_refused, amendment_requested, amended, amendment_refused, buyer_rejected, peppol_copy_withheld, received.',
      example: accepted.type,
    },
    at: dateTimeField('When it happened.', accepted.at),
    detail: {
      type: 'object',
      additionalProperties: true,
      description: 'Its `track` (authority or exchange) and what the step carries: the Message Level Status, the authority\'s reference, or its codes and message.',
      example: accepted.detail,
    },
  },
};

const linksExample = documentDetailExample.data.links;

/** A Malaysian document's `links.cancel` (Belgium's, the detail's example, is null: Peppol has no cancellation). */
const malaysianCancel = { method: 'POST', href: '/api/einvoice/documents/3c5e7a90-1b2d-4e6f-8a9b-0c1d2e3f4a5b/cancel', body: {}, fields: ['reason'] };

/**
 * `links.cancel` (#50): a form, as hypermedia APIs write their actions (Siren's `actions`: method, href, fields), so a
 * client cancels without knowing the area's route: the area's own cancel route with what the link already knows of
 * the request (Spain's RegistroAnulacion names the invoice by its number and date) and what the caller writes.
 */
const cancelLink: SchemaObject = {
  type: 'object',
  required: ['method', 'href', 'body', 'fields'],
  description:
    'How to cancel it at its authority, with the supplier header `supplier_header` names: send `method` to `href` with the JSON `body`, plus each of ' +
    '`fields` as text you write. The answer is the area\'s cancel route\'s: 200 cancelled (Spain: the cancellation record, a document of its own), 202 while the ' +
    'authority has not answered, 409 when its state does not allow it (not accepted for good yet, already cancelled) or the authority refuses (MyInvois: ' +
    'past 72 h). Null where the area has no cancellation (Peppol-only areas, the UAE, Poland, Jordan, Nigeria, Argentina: a credit note corrects a ' +
    'document there), for a document your supplier received, and for a Spanish cancellation record.',
  properties: {
    method: { type: 'string', enum: ['POST'], description: 'The HTTP method.', example: 'POST' },
    href: { type: 'string', description: 'The area\'s cancel route for this document (MyInvois: `/api/einvoice/documents/{id}/cancel`; Spain: `/es/verifactu/cancel`).', example: malaysianCancel.href },
    body: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'What the body must hold that the link knows already (Spain: `document_identifier` and `issue_date`); empty where the caller writes all of it.',
      example: { document_identifier: 'F-2026-0001', issue_date: '2026-11-25' },
    },
    fields: {
      type: 'array',
      items: { type: 'string', enum: ['reason'] },
      description: 'What the caller writes into the body: `reason`, why (1–300 characters), sent to the authority (MyInvois\'s mandatory reason).',
      example: malaysianCancel.fields,
    },
  },
  example: malaysianCancel,
};
/** The `status` of the account routes' 200s. */
export const accountSuccessStatus = statusField('success', 'Always `success` on a 200.');

/** `GET /v1/documents`'s 200. */
export const documentListSchema = statusAnswer(
  accountSuccessStatus,
  {
    data: { type: 'array', description: 'One page of documents, newest first.', items: { type: 'object', required: Object.keys(summaryProperties), properties: summaryProperties } },
    has_more: { type: 'boolean', description: 'Whether a next page follows: ask for it with `starting_after` = the last `id` of this one.', example: true },
  },
  documentListExample,
);

/** `GET /v1/documents/{id}`'s 200. */
export const documentDetailSchema = statusAnswer(
  accountSuccessStatus,
  {
    data: {
      type: 'object',
      required: [...Object.keys(summaryProperties), 'timeline', 'links'],
      description: 'The document as the list shows it, with its timeline and links.',
      properties: {
        ...summaryProperties,
        timeline: { type: 'array', description: 'Every event of its tracks, in order.', items: timelineEntry, example: documentDetailExample.data.timeline },
        links: orNull({
          type: 'object',
          description: 'Its area\'s own routes (null for an area this gateway does not serve).',
          // Every key is always there (document-links.ts `linksOf`), null where the area has no such route.
          required: ['document', 'xml', 'supplier_header', 'pdf', 'html', 'cancel', 'request'],
          properties: {
            document: { type: 'string', description: 'Where its area\'s routes read it.', example: linksExample.document },
            xml: orNull({ type: 'string', description: 'Its file as sent (the XML; Malaysia: as submitted); null where the area has no such route.', example: linksExample.xml }),
            supplier_header: orNull({
              type: 'string',
              description: 'The header those routes name the supplier by (its value: the supplier id, or Argentina\'s CUIT); null where the path names it (UAE).',
              example: linksExample.supplier_header,
            }),
            pdf: orNull({ type: 'string', description: 'The document as a person reads it, a PDF (`GET /v1/documents/{id}/pdf`); null where its area prints none yet.', example: linksExample.pdf }),
            html: orNull({ type: 'string', description: 'The same as an HTML page (`GET /v1/documents/{id}/html`); null where its area prints none yet.', example: linksExample.html }),
            cancel: orNull(cancelLink),
            request: orNull({
              type: 'string',
              description: 'The request as the service accepted it (`GET /v1/documents/{id}/request`); null for a document your supplier received.',
              example: linksExample.request,
            }),
          },
          example: linksExample,
        }),
      },
    },
  },
  documentDetailExample,
);

/** `GET /v1/documents/{id}/pdf` and `/html`'s 200 bodies: files of their media type, each with an example. */
export const documentViewContent = {
  pdf: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf', description: 'A4 PDF; PDF/A-3 with the UBL attached for Peppol documents.' } as SchemaObject, example: '%PDF-1.7 …' } },
  html: { 'text/html': { schema: { type: 'string', contentMediaType: 'text/html', description: 'One self-contained page.' } as SchemaObject, example: '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Invoice INV-2026-0042</title>…' } },
};

/** `GET /v1/documents/{id}/request`'s example: the Belgian invoice's body as accepted. */
export const acceptedRequestExample = {
  status: 'success',
  data: {
    document_id: belgian.id,
    accepted_at: belgian.created_at,
    body: {
      ID: belgian.number,
      DocumentType: '380',
      IssueDate: belgian.issue_date,
      DocumentCurrencyCode: belgian.currency,
      CustomerParty: { RegisteredName: belgian.counterparty.name, Identifiers: [{ Scheme: 'BE:VAT', ID: belgian.counterparty.id }] },
      InvoiceLines: [{ Description: 'Consulting', PriceAmount: 100, InvoicedQuantity: 1, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } }],
      TotalIncludingVat: 121,
    },
  },
};

/** `GET /v1/documents/{id}/request`'s 200 (#50). */
export const acceptedRequestSchema = statusAnswer(
  accountSuccessStatus,
  {
    data: {
      type: 'object',
      required: ['document_id', 'accepted_at', 'body'],
      description: 'The request that sent the document, as recorded when the service accepted it.',
      properties: {
        document_id: uuidField('The document id.', acceptedRequestExample.data.document_id),
        accepted_at: dateTimeField('When the service accepted the document and recorded its request: the time of the timeline\'s `accepted`.', acceptedRequestExample.data.accepted_at),
        body: {
          type: 'object',
          additionalProperties: true,
          description:
            'The JSON body as the area\'s route took it: its fields after the area\'s defaults, with what the service added on accepting it (Spain: the chain\'s ' +
            '`hash`, `previous_hash`, `generated_at`, `qr_link`, `tax_total`). Malaysia, without a Peppol copy: only the fields the list shows.',
          example: acceptedRequestExample.data.body,
        },
      },
    },
  },
  acceptedRequestExample,
);
