/**
 * How the OpenAPI document shows `/v1/webhooks` (#48, README "Webhooks (account-wide)"): the answers' schemas with
 * their examples, as account-webhooks.service.ts and the endpoint store (endpoints.ts) build them; kept beside the
 * controller so that it stays a list of routes.
 */
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ACCOUNT_EVENT_TYPES } from '@einvoice/domain';
import type { RequestExamples } from '@einvoice/areas';
import { dateTimeField, nullable, statusAnswer, uuidField } from '../http/openapi-answers';
import { accountSuccessStatus } from '../account/documents.openapi';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../account/page';

const ENDPOINT_ID = '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d';
const DELIVERY_ID = 'b3f1c2d4-8e5a-4f6b-9c7d-0a1b2c3d4e5f';
const EVENT_ID = '8c1f4a2e-3b5d-4e6f-9a7b-0c1d2e3f4a5b';
const SUPPLIER_ID = '0f8e8b1c-6a57-4d57-9d5e-2f0f3c1d9a11';
const CREATED_AT = '2026-12-01T09:15:02.118Z';
const SECRET = 'whsec_QW4gZXhhbXBsZSBzZWNyZXQ6IDMyIGJ5dGVzIGxvbmc=';
const URL = 'https://erp.example.com/einvoice/events';

/** Path parameters. */
export const endpointIdParam = { name: 'id', description: 'The webhook\'s id its registration answered (`data.id`).', example: ENDPOINT_ID };
export const deliveryIdParam = { name: 'delivery_id', description: 'A delivery\'s id, as the webhook\'s deliveries list it.', example: DELIVERY_ID };

/** Query parameters of the two lists. */
export const limitQuery = { name: 'limit', required: false, description: `1 to ${MAX_PAGE_LIMIT}; default ${DEFAULT_PAGE_LIMIT}.`, example: 20 };
export const endpointsAfterQuery = { name: 'starting_after', required: false, description: 'The id of the last webhook of the page before.', example: ENDPOINT_ID };
export const deliveriesAfterQuery = { name: 'starting_after', required: false, description: 'The id of the last delivery of the page before.', example: DELIVERY_ID };
export const deliveryStatusQuery = {
  name: 'status', required: false, enum: ['pending', 'delivered', 'failed'],
  description: 'Only deliveries in this state: `pending` (being tried), `delivered` (answered 2xx), `failed` (every attempt failed).', example: 'failed',
};
export const eventTypeQuery = { name: 'event_type', required: false, enum: [...ACCOUNT_EVENT_TYPES], description: 'Only deliveries of this event type.', example: 'document.reported' };

const filterField = (description: string, example: string[]): SchemaObject =>
  nullable({ type: 'array', items: { type: 'string' } }, { description, example });

const endpointProperties: Record<string, SchemaObject> = {
  id: uuidField('The webhook\'s id.', ENDPOINT_ID),
  url: { type: 'string', description: 'Where the events are POSTed.', example: URL },
  events: filterField('The event types sent to it; null: every type, types added later included.', ['document.reported', 'document.report_failed']),
  areas: filterField('Only documents of these areas; null: every area.', ['pl', 'es']),
  supplier_ids: filterField('Only documents of these suppliers; null: every supplier of the account, suppliers onboarded later included.', [SUPPLIER_ID]),
  description: nullable({ type: 'string' }, { description: 'Your label; null without one.', example: 'ERP: KSeF and VeriFactu outcomes' }),
  status: {
    type: 'string', enum: ['enabled', 'disabled'], example: 'enabled',
    description: '`disabled`: nothing is sent to it, by your PATCH or because it failed for a whole retry window with nothing delivered since (`disabled_reason`); PATCH `status: enabled` enables it again.',
  },
  disabled_reason: nullable({ type: 'string' }, { description: 'Why it is disabled (`disabled by the caller`, or the delivery that failed for its whole retry window); null while enabled.', example: null }),
  previous_secret_expires_at: nullable({ type: 'string', format: 'date-time' }, {
    description: 'After a rotation: until when the previous secret signs too (a second `v1,` signature in `webhook-signature`); null otherwise.', example: null,
  }),
  created_at: dateTimeField('When it was registered.', CREATED_AT),
  updated_at: dateTimeField('When it last changed (registration, PATCH, rotation).', CREATED_AT),
};

const endpointExample = {
  id: ENDPOINT_ID, url: URL, events: ['document.reported', 'document.report_failed'], areas: ['pl', 'es'], supplier_ids: null,
  description: 'ERP: KSeF and VeriFactu outcomes', status: 'enabled', disabled_reason: null, previous_secret_expires_at: null, created_at: CREATED_AT, updated_at: CREATED_AT,
};

const endpointObject: SchemaObject = { type: 'object', required: Object.keys(endpointProperties), properties: endpointProperties };

const secretField = (what: string): SchemaObject =>
  nullable({ type: 'string' }, { description: `${what} (\`whsec_\` + base64 key, Standard Webhooks 1.0.0): in this answer only; null in a replay with the same Idempotency-Key.`, example: SECRET });

/** `POST /v1/webhooks`'s request-body examples; `first` is the README's. */
export const createEndpointExamples: RequestExamples = {
  first: {
    summary: 'Every event of every area and supplier',
    value: { url: URL, description: 'ERP: every event' },
  },
  authorities: {
    summary: 'The tax authorities\' verdicts of Poland and Spain',
    value: { url: URL, events: ['document.reported', 'document.report_failed'], areas: ['pl', 'es'], description: 'ERP: KSeF and VeriFactu outcomes' },
  },
  supplier: { summary: 'One supplier\'s received documents', value: { url: 'https://ap.example.com/inbox', events: ['document.received'], supplier_ids: [SUPPLIER_ID] } },
};

/** `PATCH /v1/webhooks/{id}`'s examples. */
export const updateEndpointExamples: RequestExamples = {
  first: { summary: 'Pause it', value: { status: 'disabled' } },
  filters: { summary: 'Every type again, Poland only', value: { events: null, areas: ['pl'] } },
  url: { summary: 'A new URL, enabled again', value: { url: 'https://erp.example.com/einvoice/events/v2', status: 'enabled' } },
};

/** `POST /v1/webhooks/{id}/test`'s examples. */
export const testEndpointExamples: RequestExamples = {
  first: { summary: 'A KSeF acceptance', value: { type: 'document.reported' } },
  refused: { summary: 'An authority\'s refusal', value: { type: 'document.report_failed' } },
};

/** `POST /v1/webhooks`'s 201. */
export const createdEndpointSchema = statusAnswer(
  accountSuccessStatus,
  {
    message: { type: 'string', description: 'Store the secret now.', example: 'Webhook registered. Store the secret now: it is not shown again.' },
    data: { type: 'object', required: [...Object.keys(endpointProperties), 'secret'], properties: { ...endpointProperties, secret: secretField('The signing secret') } },
  },
  { message: 'Webhook registered. Store the secret now: it is not shown again.', data: { ...endpointExample, secret: SECRET } },
);

/** `GET /v1/webhooks`'s 200. */
export const endpointListSchema = statusAnswer(
  accountSuccessStatus,
  {
    data: { type: 'array', description: 'One page of webhooks, newest first; never their secrets.', items: endpointObject },
    has_more: { type: 'boolean', description: 'Whether a next page follows: ask for it with `starting_after` = the last `id` of this one.', example: false },
  },
  { data: [endpointExample], has_more: false },
);

/** `GET` and `PATCH /v1/webhooks/{id}`'s 200. */
export const endpointSchema = statusAnswer(accountSuccessStatus, { data: { ...endpointObject, description: 'The webhook; never its secret.' } }, { data: endpointExample });

/** `POST /v1/webhooks/{id}/rotate-secret`'s 200. */
export const rotatedSchema = statusAnswer(
  accountSuccessStatus,
  {
    message: { type: 'string', description: 'Store the new secret now.', example: 'Secret rotated. Store the new secret now: it is not shown again.' },
    data: {
      type: 'object',
      required: ['id', 'secret', 'previous_secret_expires_at'],
      properties: {
        id: endpointProperties.id,
        secret: secretField('The new signing secret'),
        previous_secret_expires_at: dateTimeField('Until when the previous secret signs too: until then each attempt carries two `v1,` signatures, one per secret.', '2026-12-02T09:15:02.118Z'),
      },
    },
  },
  { message: 'Secret rotated. Store the new secret now: it is not shown again.', data: { id: ENDPOINT_ID, secret: SECRET, previous_secret_expires_at: '2026-12-02T09:15:02.118Z' } },
);

const attemptProperties: Record<string, SchemaObject> = {
  attempt: { type: 'integer', description: '1 for the first attempt, then each retry and re-send.', example: 1 },
  at: dateTimeField('When it was made.', '2026-12-01T10:02:11.520Z'),
  status_code: nullable({ type: 'integer' }, { description: 'Your endpoint\'s HTTP status; null when it did not answer (timeout, refused connection).', example: 200 }),
  duration_ms: { type: 'integer', description: 'How long the attempt took.', example: 142 },
  response_body: nullable({ type: 'string' }, { description: 'The first 4 KiB of your endpoint\'s answer; null when it did not answer or was not read.', example: '{"received":true}' }),
  error: nullable({ type: 'string' }, { description: 'Why the attempt failed (`HTTP 500`, a timeout...); null when it succeeded.', example: null }),
};

const attemptExample = { attempt: 1, at: '2026-12-01T10:02:11.520Z', status_code: 200, duration_ms: 142, response_body: '{"received":true}', error: null };

const sampleEvent = {
  id: EVENT_ID, type: 'document.reported', created_at: '2026-12-01T10:02:11.371Z', area: 'pl', supplier_id: SUPPLIER_ID,
  document_id: '3d0c9a4e-5b1f-4f7e-8a2d-6c9b0e1f2a3b', document_number: 'FV/2026/12/0042',
  data: { status: 'reported', authority: { status: 'reported', reference: '5265877635-20261201-0100A0B1C2D3-4E' }, exchange: { status: 'pending' } },
};

/** `GET /v1/webhooks/{id}/deliveries`'s 200. */
export const endpointDeliveriesSchema = statusAnswer(
  accountSuccessStatus,
  {
    data: {
      type: 'array',
      description: 'One page of the webhook\'s deliveries, newest first, each with every attempt in order.',
      items: {
        type: 'object',
        required: ['id', 'event_id', 'event_type', 'status', 'request_body', 'attempts', 'next_attempt_at', 'created_at', 'delivered_at'],
        properties: {
          id: uuidField('The delivery\'s id (re-send it by this id).', DELIVERY_ID),
          event_id: { type: 'string', description: 'The event\'s id, sent as `webhook-id`: the same on every retry and re-send; de-duplicate on it.', example: EVENT_ID },
          event_type: { type: 'string', enum: [...ACCOUNT_EVENT_TYPES], description: 'The event\'s type.', example: 'document.reported' },
          status: { type: 'string', enum: ['pending', 'delivered', 'failed'], description: '`pending` while being tried, `delivered` once answered 2xx, `failed` when every attempt failed (re-send it).', example: 'delivered' },
          request_body: { $ref: '#/components/schemas/AccountEvent', description: 'The body POSTed: the event (README "Events").', example: sampleEvent },
          attempts: { type: 'array', description: 'Its attempts, in order.', items: { type: 'object', required: Object.keys(attemptProperties), properties: attemptProperties }, example: [attemptExample] },
          next_attempt_at: nullable({ type: 'string', format: 'date-time' }, { description: 'When the next attempt is due while `pending`; null otherwise.', example: null }),
          created_at: dateTimeField('When the event was queued for this webhook.', '2026-12-01T10:02:11.371Z'),
          delivered_at: nullable({ type: 'string', format: 'date-time' }, { description: 'When your endpoint last answered 2xx; null until then.', example: '2026-12-01T10:02:11.662Z' }),
        },
      },
    },
    has_more: { type: 'boolean', description: 'Whether a next page follows: ask for it with `starting_after` = the last `id` of this one.', example: false },
  },
  {
    data: [{
      id: DELIVERY_ID, event_id: EVENT_ID, event_type: 'document.reported', status: 'delivered', request_body: sampleEvent, attempts: [attemptExample],
      next_attempt_at: null, created_at: '2026-12-01T10:02:11.371Z', delivered_at: '2026-12-01T10:02:11.662Z',
    }],
    has_more: false,
  },
);

/** `POST …/deliveries/{delivery_id}/resend`'s 202. */
export const endpointResentSchema = statusAnswer(
  accountSuccessStatus,
  {
    data: {
      type: 'object', required: ['id', 'status'],
      properties: { id: uuidField('The delivery.', DELIVERY_ID), status: { type: 'string', enum: ['pending'], description: 'Queued: sent now, retried on the schedule until answered 2xx.', example: 'pending' } },
    },
  },
  { data: { id: DELIVERY_ID, status: 'pending' } },
);

/** `POST /v1/webhooks/{id}/test`'s 200. */
export const testSentSchema = statusAnswer(
  accountSuccessStatus,
  {
    data: {
      type: 'object',
      required: ['delivery_id', 'event_id', 'event_type', 'acknowledged', ...Object.keys(attemptProperties)],
      properties: {
        delivery_id: uuidField('The delivery it was recorded as (in the deliveries list; re-send it by this id).', DELIVERY_ID),
        event_id: { type: 'string', description: 'The sample event\'s id, sent as `webhook-id`.', example: EVENT_ID },
        event_type: { type: 'string', enum: [...ACCOUNT_EVENT_TYPES], description: 'The sample event\'s type.', example: 'document.reported' },
        acknowledged: { type: 'boolean', description: 'Whether your endpoint answered 2xx.', example: true },
        ...attemptProperties,
      },
    },
  },
  { data: { delivery_id: DELIVERY_ID, event_id: EVENT_ID, event_type: 'document.reported', acknowledged: true, ...attemptExample } },
);
