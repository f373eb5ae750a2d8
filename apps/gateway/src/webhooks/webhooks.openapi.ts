/**
 * How the OpenAPI document shows the webhook routes' answers (#47, README "Webhooks"), as the service
 * builds them (webhooks.service.ts, the views of @einvoice/domain's webhook store); kept beside the
 * controllers so that they stay a list of routes.
 */
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { RequestExamples } from '@einvoice/areas';
import { dateTimeField, nullable, successAnswer, uuidField } from '../http/openapi-answers';

const WEBHOOK_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const DELIVERY_ID = 'b3f1c2d4-8e5a-4f6b-9c7d-0a1b2c3d4e5f';
const CREATED_AT = '2026-12-01T09:15:02.118Z';


/** The header naming the supplier whose webhooks these are (the area's). */
export const supplierHeaderParam = (name: string) => ({
  name, required: true, description: 'The supplier whose webhooks these are: the id its onboarding answered.', example: '0f8e8b1c-6a57-4d57-9d5e-2f0f3c1d9a11',
});
/** Path parameters of the webhook routes. */
export const webhookIdParam = { name: 'id', description: 'The webhook\'s id its registration answered (`data.id`).', example: WEBHOOK_ID };
export const deliveryIdParam = { name: 'deliveryId', description: 'A delivery\'s id, as the webhook\'s deliveries list it.', example: DELIVERY_ID };

const subscriptionProperties: Record<string, SchemaObject> = {
  id: uuidField('The webhook\'s id.', WEBHOOK_ID),
  url: { type: 'string', description: 'Where the events are POSTed.', example: 'https://erp.example.com/einvoice/webhooks' },
  events: { type: 'array', items: { type: 'string' }, description: 'The events sent to it.', example: ['PeppolReceived'] },
  description: nullable({ type: 'string' }, { description: 'Your label; null without one.', example: 'ERP inbox' }),
  created_at: dateTimeField('When it was registered.', CREATED_AT),
  status: { type: 'string', enum: ['active', 'disabled'], description: '`disabled` once a delivery failed for its whole retry window with nothing delivered since; a ping answered 2xx enables it again.', example: 'active' },
  disabled_reason: nullable({ type: 'string' }, { description: 'Why it was disabled; null while active.', example: null }),
};

function subscription(events: readonly string[]) {
  return { id: WEBHOOK_ID, url: 'https://erp.example.com/einvoice/webhooks', events: [...events], description: 'ERP inbox', created_at: CREATED_AT, status: 'active', disabled_reason: null };
}

/** The register body's examples, with the area's own event names. */
export function createWebhookExamples(events: readonly string[]): RequestExamples {
  const first = events.includes('PeppolReceived') ? 'PeppolReceived' : events[0];
  return {
    received: {
      summary: 'Documents received over Peppol, to your ERP',
      value: { url: 'https://erp.example.com/einvoice/webhooks', events: [first], description: 'ERP inbox' },
    },
    everything: { summary: 'Every event the area offers', value: { url: 'https://hooks.example.com/einvoice', events: events.filter((e) => e !== 'DocumentReceived') } },
  };
}

/** `POST /{area}/einvoice/webhooks`'s 201. */
export function createdWebhookSchema(events: readonly string[]): SchemaObject {
  return successAnswer(
    {
      message: { type: 'string', example: 'Webhook registered. Store the secret now: it is not shown again.' },
      data: {
        type: 'object',
        properties: {
          ...subscriptionProperties,
          secret: nullable({ type: 'string' }, {
            description: 'The signing secret (`whsec_` + base64 key, Standard Webhooks 1.0.0): in this answer only; null in a replay with the same Idempotency-Key.',
            example: 'whsec_QW4gZXhhbXBsZSBzZWNyZXQ6IDMyIGJ5dGVzIGxvbmc=',
          }),
        },
      },
    },
    {
      message: 'Webhook registered. Store the secret now: it is not shown again.',
      data: { ...subscription(events.slice(-1)), secret: 'whsec_QW4gZXhhbXBsZSBzZWNyZXQ6IDMyIGJ5dGVzIGxvbmc=' },
    },
  );
}

/** `GET /{area}/einvoice/webhooks`'s 200. */
export function webhookListSchema(events: readonly string[]): SchemaObject {
  return successAnswer(
    { data: { type: 'array', description: 'The supplier\'s webhooks, oldest first; never their secrets.', items: { type: 'object', properties: subscriptionProperties } } },
    { data: [subscription(events.slice(-1))] },
  );
}

/** `DELETE /{area}/einvoice/webhooks/{id}`'s 200. */
export const deletedWebhookSchema = successAnswer(
  { data: { type: 'object', properties: { id: subscriptionProperties.id, deleted: { type: 'boolean', enum: [true], example: true } } } },
  { data: { id: WEBHOOK_ID, deleted: true } },
);

const attemptProperties: Record<string, SchemaObject> = {
  attempt: { type: 'integer', description: '1 for the first attempt, then each retry.', example: 1 },
  status_code: nullable({ type: 'integer' }, { description: 'Your endpoint\'s HTTP status; null when it did not answer (timeout, refused connection).', example: 200 }),
  duration_ms: { type: 'integer', description: 'How long the attempt took.', example: 142 },
  error: nullable({ type: 'string' }, { description: 'Why the attempt failed; null when it succeeded.', example: null }),
  attempted_at: dateTimeField('When it was made.', '2026-12-01T10:02:11.52+00:00'),
};

/** `GET /{area}/einvoice/webhooks/{id}/deliveries`'s 200. */
export const deliveriesSchema = successAnswer(
  {
    data: {
      type: 'array',
      description: 'The webhook\'s last 100 deliveries, newest first, each with its attempts in order.',
      items: {
        type: 'object',
        properties: {
          id: uuidField('The delivery\'s id (re-send it by this id).', DELIVERY_ID),
          event_id: { type: 'string', description: 'The event\'s id, sent as `webhook-id`: the same on every retry and re-send, de-duplicate on it.', example: '4f1d2c3b-9a8e-4d7c-b6a5-0e1f2a3b4c5d' },
          event_type: { type: 'string', description: 'The event\'s name.', example: 'PeppolReceived' },
          status: { type: 'string', enum: ['pending', 'delivered', 'failed'], description: '`failed`: every retry failed; re-send it once your endpoint is fixed.', example: 'delivered' },
          created_at: dateTimeField('When the event was queued for this webhook.', '2026-12-01T10:02:11.371Z'),
          delivered_at: nullable({ type: 'string', format: 'date-time' }, { description: 'When your endpoint answered 2xx; null until then.', example: '2026-12-01T10:02:11.662Z' }),
          attempts: { type: 'array', description: 'Its attempts, in order.', items: { type: 'object', properties: attemptProperties } },
        },
      },
    },
  },
  {
    data: [{
      id: DELIVERY_ID, event_id: '4f1d2c3b-9a8e-4d7c-b6a5-0e1f2a3b4c5d', event_type: 'PeppolReceived', status: 'delivered',
      created_at: '2026-12-01T10:02:11.371Z', delivered_at: '2026-12-01T10:02:11.662Z',
      attempts: [{ attempt: 1, status_code: 200, duration_ms: 142, error: null, attempted_at: '2026-12-01T10:02:11.52+00:00' }],
    }],
  },
);

/** `POST …/deliveries/{deliveryId}/resend`'s 202. */
export const resentSchema = successAnswer(
  { data: { type: 'object', properties: { id: uuidField('The delivery.', DELIVERY_ID), status: { type: 'string', enum: ['pending'], example: 'pending' } } } },
  { data: { id: DELIVERY_ID, status: 'pending' } },
);

/** `POST …/{id}/ping`'s 200. */
export const pingSchema = successAnswer(
  {
    data: {
      type: 'object',
      properties: {
        acknowledged: { type: 'boolean', description: 'Whether your endpoint answered 2xx (a disabled webhook is then enabled again).', example: true },
        status_code: attemptProperties.status_code,
        duration_ms: attemptProperties.duration_ms,
        error: attemptProperties.error,
      },
    },
  },
  { data: { acknowledged: true, status_code: 200, duration_ms: 87, error: null } },
);
