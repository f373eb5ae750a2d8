/**
 * The JSON Schema (2020-12) of every type of the account's event catalogue (#48): the envelope
 * `{id, type, created_at, area, supplier_id, document_id, document_number, data}` and that type's `data`.
 * Hand-written beside `accountEventOf` (events.ts), the one function that makes the events, and checked
 * against its output by event-schemas.unit.spec.ts. The OpenAPI document lists them under
 * `components.schemas` (`AccountEvent`, a oneOf of the per-type schemas keyed by `type`), the AsyncAPI
 * document and a subscriber's own validation can take `accountEventJsonSchema(type)` as a standalone
 * document. Every field carries a description and an example (the type's sample event, event-samples.ts).
 */
import { AUTHORITY_STATUSES, DOCUMENT_STATUSES, EXCHANGE_STATUSES } from './document-states';
import { ACCOUNT_EVENT_DESCRIPTIONS, ACCOUNT_EVENT_TYPES, type AccountEventType } from './events';
import { sampleAccountEvent } from './event-samples';

/** A JSON Schema, as a plain object (the OpenAPI document's schema objects are the same JSON). */
export type JsonSchema = Record<string, unknown>;

/** The version of the events' shape: a field added keeps it; a field removed or changed in meaning makes a new one. */
export const ACCOUNT_EVENT_SCHEMA_VERSION = '1.0.0';

const JSON_SCHEMA_2020 = 'https://json-schema.org/draft/2020-12/schema';

/** `document.delivery_failed` → `DocumentDeliveryFailedEvent`: the per-type schema's name under `components.schemas`. */
export const accountEventSchemaName = (type: AccountEventType): string =>
  `${type.split(/[._]/).map((word) => word[0].toUpperCase() + word.slice(1)).join('')}Event`;

/** The type's own requirements on `data` beyond the common shape. */
interface TypeRules {
  /** The `data.status` values this type can show (the list's status just after the step). */
  readonly statuses?: readonly string[];
  readonly authority?: { readonly status?: string; readonly requires?: readonly string[] };
  readonly exchange?: { readonly status?: string; readonly requires?: readonly string[] };
}

const OUTGOING_STATUSES = DOCUMENT_STATUSES.filter((s) => s !== 'received');

const RULES: Readonly<Record<AccountEventType, TypeRules>> = {
  'document.accepted': { statuses: OUTGOING_STATUSES },
  'document.delivered': { statuses: OUTGOING_STATUSES, exchange: { status: 'delivered' } },
  'document.delivery_failed': { statuses: OUTGOING_STATUSES, exchange: { status: 'failed', requires: ['reason'] } },
  'document.reported': { statuses: OUTGOING_STATUSES, authority: { status: 'reported' } },
  'document.report_failed': { statuses: ['refused'], authority: { status: 'refused', requires: ['codes'] } },
  'document.cancelled': { statuses: ['cancelled'], authority: { status: 'cancelled' } },
  'document.rejected': { authority: { requires: ['buyer_rejection'] } },
  'document.received': { statuses: ['received'], exchange: { status: 'received' } },
};

const described = (schema: JsonSchema, description: string, example: unknown): JsonSchema =>
  example === undefined ? { ...schema, description } : { ...schema, description, example };

function authoritySchema(type: AccountEventType, example: unknown, rules: TypeRules['authority']): JsonSchema {
  return described(
    {
      type: 'object',
      required: ['status', ...(rules?.requires ?? [])],
      additionalProperties: false,
      properties: {
        status: rules?.status
          ? { type: 'string', enum: [rules.status], description: 'The report\'s state after this event.', example: rules.status }
          : { type: 'string', enum: AUTHORITY_STATUSES.filter((s) => s !== 'none'), description: 'The report\'s state after this event.', example: 'reported' },
        reference: {
          type: 'string',
          description: 'The number the authority gave the document, once it gave one: KSeF number, AEAT CSV, FIRS IRN, AFIP CAE, MyInvois long id, FTA reference, JoFotara number.',
          example: '5260250274-20261125-0100A0B0C0D0-E1',
        },
        codes: {
          type: 'array',
          description: 'On `document.report_failed`: each code the authority stated (its rule ids, or the gateway\'s `AUTHORITY.*`), empty when it stated none.',
          items: {
            type: 'object',
            required: ['code', 'message'],
            additionalProperties: false,
            properties: {
              code: { type: 'string', description: 'The authority\'s code.', example: 'E0023' },
              message: { type: 'string', description: 'What the authority said.', example: 'The seller tax number is not registered.' },
              path: { type: 'string', description: 'The field it is about, when the authority named one.', example: 'AccountingSupplierParty.PartyTaxScheme.CompanyID' },
            },
          },
          example: [{ code: 'E0023', message: 'The seller tax number is not registered.' }],
        },
        buyer_rejection: {
          type: 'object',
          required: ['reason', 'requested_at'],
          additionalProperties: false,
          description: 'On `document.rejected` (and on the document\'s later events): the buyer\'s rejection, as the authority recorded it.',
          properties: {
            reason: { type: 'string', description: 'The buyer\'s reason.', example: 'Goods returned: order cancelled' },
            requested_at: { type: 'string', format: 'date-time', description: 'When the buyer asked it.', example: '2026-11-25T10:30:02.000Z' },
          },
          example: { reason: 'Goods returned: order cancelled', requested_at: '2026-11-25T10:30:02.000Z' },
        },
      },
    },
    type === 'document.report_failed' || type === 'document.reported' || type === 'document.cancelled' || type === 'document.rejected'
      ? 'The report to the area\'s tax authority (absent when the document has none).'
      : 'The report to the area\'s tax authority, when the document has one.',
    example,
  );
}

function exchangeSchema(example: unknown, rules: TypeRules['exchange']): JsonSchema {
  return described(
    {
      type: 'object',
      required: ['status', ...(rules?.requires ?? [])],
      additionalProperties: false,
      properties: {
        status: rules?.status
          ? { type: 'string', enum: [rules.status], description: 'The exchange\'s state after this event.', example: rules.status }
          : { type: 'string', enum: EXCHANGE_STATUSES.filter((s) => s !== 'none'), description: 'The exchange\'s state after this event.', example: 'scheduled' },
        mls: {
          type: 'object',
          required: ['responseCode', 'receivedAt'],
          description: 'The receiving access point\'s Message Level Status, when it answered one (AP or AB delivered, RE refused).',
          properties: {
            responseCode: { type: 'string', enum: ['AP', 'AB', 'RE'], description: 'AP accepted, AB acknowledged, RE rejected.', example: 'AP' },
            receivedAt: { type: 'string', format: 'date-time', description: 'When the MLS arrived.', example: '2026-11-25T10:30:02.000Z' },
            description: { type: 'string', description: 'The access point\'s words, on RE.', example: 'BR-DE-15: The element "Buyer reference" (BT-10) must be provided.' },
            reasonCode: { type: 'string', enum: ['BV', 'FD', 'SV'], description: 'On RE: BV business rule violation, FD failure of delivery, SV syntax violation.', example: 'BV' },
          },
          example: { responseCode: 'AP', receivedAt: '2026-11-25T10:30:02.000Z' },
        },
        reason: {
          type: 'object',
          required: ['code', 'message'],
          additionalProperties: false,
          description: 'On `document.delivery_failed`: why: `PEPPOL.REJECTED_BY_RECEIVER` (MLS RE), `PEPPOL.RECEIVER_NOT_FOUND`, or the last error\'s code when dead-lettered.',
          properties: {
            code: { type: 'string', description: 'The failure\'s code.', example: 'PEPPOL.REJECTED_BY_RECEIVER' },
            message: { type: 'string', description: 'What went wrong.', example: 'BR-DE-15: The element "Buyer reference" (BT-10) must be provided.' },
          },
          example: { code: 'PEPPOL.RECEIVER_NOT_FOUND', message: 'The receiver is not registered in the Peppol network.' },
        },
      },
    },
    'The Peppol exchange, when the document has one.',
    example,
  );
}

/** The schema of one type, without `$schema` (as the OpenAPI document holds it). */
function eventSchema(type: AccountEventType): JsonSchema {
  const sample = sampleAccountEvent(type);
  const rules = RULES[type];
  const statuses = rules.statuses ?? DOCUMENT_STATUSES;
  const dataRequired = ['status', ...(rules.authority ? ['authority'] : []), ...(rules.exchange ? ['exchange'] : [])];
  return {
    title: type,
    type: 'object',
    description: ACCOUNT_EVENT_DESCRIPTIONS[type],
    required: ['id', 'type', 'created_at', 'area', 'supplier_id', 'document_id', 'document_number', 'data'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', format: 'uuid', description: 'The event\'s id: its de-duplication key, the same on every delivery of it (`webhook-id`).', example: sample.id },
      type: { type: 'string', enum: [type], description: 'The event type (the catalogue: README "Events").', example: type },
      created_at: { type: 'string', format: 'date-time', description: 'When the step happened (the transaction that recorded it).', example: sample.created_at },
      area: { type: 'string', description: 'The document\'s area: be, de, sg, my, ae, es, pl, jo, ng, ar.', example: sample.area },
      supplier_id: { type: 'string', format: 'uuid', description: 'The supplier that sent the document (received it, on `document.received`).', example: sample.supplier_id },
      document_id: { type: 'string', format: 'uuid', description: 'The document: `GET /v1/documents/{id}` reads it.', example: sample.document_id },
      document_number: { type: 'string', description: 'The document number as its area keys it (as `number` in `GET /v1/documents`).', example: sample.document_number },
      data: {
        type: 'object',
        description: 'The document\'s state just after this event.',
        required: dataRequired,
        additionalProperties: false,
        properties: {
          status: { type: 'string', enum: [...statuses], description: 'The document\'s `status` in `GET /v1/documents` just after this event.', example: sample.data.status },
          authority: authoritySchema(type, sample.data.authority, rules.authority),
          exchange: exchangeSchema(sample.data.exchange, rules.exchange),
        },
        example: sample.data,
      },
    },
    example: sample,
  };
}

/** Every type's schema, by type, without `$schema`. */
export const accountEventSchemas: Readonly<Record<AccountEventType, JsonSchema>> = Object.fromEntries(
  ACCOUNT_EVENT_TYPES.map((type) => [type, eventSchema(type)]),
) as Record<AccountEventType, JsonSchema>;

/** One type's schema as a standalone JSON Schema 2020-12 document (AsyncAPI, a subscriber's validator). */
export function accountEventJsonSchema(type: AccountEventType): JsonSchema {
  return { $schema: JSON_SCHEMA_2020, $id: `urn:einvoice:account-event:${type}:${ACCOUNT_EVENT_SCHEMA_VERSION}`, ...accountEventSchemas[type] };
}

/**
 * The OpenAPI document's component schemas: one per type (`DocumentAcceptedEvent`...) and `AccountEvent`,
 * any of them told apart by `type` (a discriminator). `ref` is where the components live
 * (`#/components/schemas/`).
 */
export function accountEventComponentSchemas(ref = '#/components/schemas/'): Record<string, JsonSchema> {
  const perType = Object.fromEntries(ACCOUNT_EVENT_TYPES.map((type) => [accountEventSchemaName(type), accountEventSchemas[type]]));
  return {
    ...perType,
    AccountEvent: {
      description: 'An event of the account\'s catalogue (README "Events"): one schema per `type`.',
      oneOf: ACCOUNT_EVENT_TYPES.map((type) => ({ $ref: `${ref}${accountEventSchemaName(type)}` })),
      discriminator: {
        propertyName: 'type',
        mapping: Object.fromEntries(ACCOUNT_EVENT_TYPES.map((type) => [type, `${ref}${accountEventSchemaName(type)}`])),
      },
      example: sampleAccountEvent('document.delivered'),
    },
  };
}
