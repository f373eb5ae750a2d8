/**
 * How the OpenAPI document shows `/v1/suppliers` (#47): its answers' schemas with their examples, kept
 * beside the controller so that the controller stays a list of routes.
 */
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { dateTimeField, nullable, statusAnswer, uuidField } from '../http/openapi-answers';
import { AREA_CODES } from '@einvoice/areas';
import { accountSuccessStatus } from './documents.openapi';

const identifier: SchemaObject = {
  type: 'object',
  required: ['scheme', 'id'],
  properties: {
    scheme: { type: 'string', description: 'The identifier scheme as onboarded (`BE:VAT`, `SG:UEN`, `MY:TIN`, `PL:NIP`).', example: 'SG:UEN' },
    id: { type: 'string', description: 'The identifier, normalized as onboarding stored it.', example: '201912345K' },
  },
};

const listItemProperties: Record<string, SchemaObject> = {
  id: uuidField('The supplier id its onboarding answered (`supplier_uuid` / `participant_id`), which its area\'s routes take.', '0f8e8b1c-6a57-4d57-9d5e-2f0f3c1d9a11'),
  area: { type: 'string', description: `The area it was onboarded in (${AREA_CODES.map((code) => `\`${code}\``).join(', ')}).`, example: 'sg' },
  name: { type: 'string', description: 'Its registered (legal) name.', example: 'Lion City Traders Pte Ltd' },
  identifiers: { type: 'array', description: 'Its identifiers; the tax identifier cannot change.', items: identifier },
  status: { type: 'string', enum: ['active', 'inactive'], description: '`inactive` once deactivated: its new documents are refused (409 `SUPPLIER.INACTIVE`), its documents stay readable.', example: 'active' },
  created_at: dateTimeField('When it was onboarded.', '2026-11-30T09:12:44.120Z'),
};

const listItemExample = {
  id: '0f8e8b1c-6a57-4d57-9d5e-2f0f3c1d9a11',
  area: 'sg',
  name: 'Lion City Traders Pte Ltd',
  identifiers: [{ scheme: 'SG:UEN', id: '201912345K' }],
  status: 'active',
  created_at: '2026-11-30T09:12:44.120Z',
};

const detailExample = {
  ...listItemExample,
  updated_at: '2026-12-01T08:00:00.000Z',
  address: { street: '1 Raffles Place', city: 'Singapore', postal_code: '048616', country: 'SG' },
  contact: { email: 'billing@lioncity.example' },
  details: {},
  participant_ids: ['iso6523-actorid-upis::0195:sguen201912345k'],
  editable_fields: ['registered_name', 'street', 'city', 'county', 'postal_code', 'country', 'contact_number', 'contact_name', 'contact_email'],
};

/** `GET /v1/suppliers`'s 200. */
export const supplierListSchema = statusAnswer(
  accountSuccessStatus,
  {
    data: { type: 'array', description: 'One page of suppliers, newest first.', items: { type: 'object', required: Object.keys(listItemProperties), properties: listItemProperties } },
    has_more: { type: 'boolean', description: 'Whether a next page follows: ask for it with `starting_after` = the last `id` of this one.', example: false },
  },
  { data: [listItemExample], has_more: false },
);

/** One supplier in detail: `GET` and `PATCH /v1/suppliers/{id}`'s 200. */
export const supplierDetailSchema = statusAnswer(
  accountSuccessStatus,
  {
    data: {
      type: 'object',
      required: [...Object.keys(listItemProperties), 'updated_at', 'address', 'contact', 'details', 'participant_ids', 'editable_fields'],
      description: 'The supplier as the list shows it, with its profile and what may change.',
      properties: {
        ...listItemProperties,
        updated_at: nullable({ type: 'string', format: 'date-time' }, {
          description: 'When it last changed (a PATCH, its deactivation); null: never.',
          example: '2026-12-01T08:00:00.000Z',
        }),
        address: {
          type: 'object',
          description: 'Its address as onboarded or changed.',
          properties: {
            street: { type: 'string', description: 'Street and number (MyInvois: the address line).', example: '1 Raffles Place' },
            city: { type: 'string', description: 'City.', example: 'Singapore' },
            county: { type: 'string', description: 'Region or subdivision where the area keeps one (UAE: the emirate code; Jordan: the ISO 3166-2:JO city code).', example: 'Central' },
            postal_code: { type: 'string', description: 'Postal code.', example: '048616' },
            country: { type: 'string', description: 'ISO 3166-1 country code.', example: 'SG' },
          },
        },
        contact: {
          type: 'object',
          description: 'Its contact as onboarded or changed.',
          properties: {
            name: { type: 'string', description: 'The contact person.', example: 'Tan Wei Ming' },
            email: { type: 'string', description: 'The contact e-mail address.', example: 'billing@lioncity.example' },
            phone: { type: 'string', description: 'The contact telephone number.', example: '+6561234567' },
          },
        },
        details: { type: 'object', additionalProperties: true, description: 'The area\'s own onboarding fields (MyInvois: MSIC code, industry, state; Argentina: points of sale). Never a secret.', example: {} },
        participant_ids: { type: 'array', items: { type: 'string' }, description: 'Its Peppol participant ids, where its area delivers over Peppol.', example: ['iso6523-actorid-upis::0195:sguen201912345k'] },
        editable_fields: { type: 'array', items: { type: 'string' }, description: 'The fields `PATCH /v1/suppliers/{id}` takes for its area (its onboarding body\'s names); empty: nothing may change.', example: ['street', 'postal_code'] },
      },
    },
  },
  { data: detailExample },
);

/** `PATCH /v1/suppliers/{id}`'s body. */
export const supplierChangeSchema: SchemaObject = {
  type: 'object',
  additionalProperties: true,
  minProperties: 1,
  description:
    'The fields to change, named as in the area\'s onboarding body (the detail\'s `editable_fields`), checked by the same rules as onboarding; `null` removes an optional field. Never the tax identifier.',
  example: { street: '1 Raffles Place', postal_code: '048616' },
};
