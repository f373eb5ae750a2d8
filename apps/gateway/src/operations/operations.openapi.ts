/**
 * How the OpenAPI document shows `/v1/operations/*` and `GET /v1/whoami` (#50): their answers' schemas with
 * examples, kept beside the controllers.
 */
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { dateTimeField, nullable, successAnswer, uuidField } from '../http/openapi-answers';

const text = (description: string, example: unknown): SchemaObject => ({ type: 'string', description, example });
const textOrNull = (description: string, example: unknown): SchemaObject => nullable({ type: 'string' }, { description, example });
const integer = (description: string, example: number): SchemaObject => ({ type: 'integer', description, example });
const hasMore: SchemaObject = { type: 'boolean', description: 'Whether a next page follows: ask for it with `starting_after` = the last `id` of this one.', example: false };

const list = (description: string, item: Record<string, SchemaObject>, example: Record<string, unknown>): SchemaObject =>
  successAnswer(
    { data: { type: 'array', description, items: { type: 'object', required: Object.keys(item), properties: item } }, has_more: hasMore },
    { data: [example], has_more: false },
  );

const deadLetter = {
  id: '0:17',
  event_id: '6f3b2a1c-9d8e-4f7a-8b6c-5d4e3f2a1b0c',
  type: 'AuthorityReportRequested',
  area: 'pl',
  original_topic: 'einvoice.reports',
  consumer_group: 'einvoice.reporting-worker',
  error_code: 'AUTHORITY.NO_CONNECTOR',
  error: 'Area pl has no authority connector in this worker.',
  attempts: 1,
  failed_at: '2026-12-02T10:15:03.120Z',
  replayed_at: null,
};

export const deadLetterListSchema = list('One page of the dead-letter topic\'s messages, in its order (partition, then offset).', {
  id: text('The message in the dead-letter topic, `partition:offset`: what `POST …/{id}/replay` takes.', deadLetter.id),
  event_id: nullable({ type: 'string', format: 'uuid' }, { description: 'The event it carries.', example: deadLetter.event_id }),
  type: textOrNull('The event type.', deadLetter.type),
  area: textOrNull('The area of the document it is about, when it names one.', deadLetter.area),
  original_topic: textOrNull('The topic it came from, and goes back to when replayed.', deadLetter.original_topic),
  consumer_group: textOrNull('The worker group whose handler gave up on it.', deadLetter.consumer_group),
  error_code: textOrNull('The code of the last error.', deadLetter.error_code),
  error: textOrNull('The last error\'s message.', deadLetter.error),
  attempts: nullable({ type: 'integer' }, { description: 'How many times the handler tried (1: a failure no retry can fix).', example: deadLetter.attempts }),
  failed_at: textOrNull('When it was dead-lettered (RFC 3339).', deadLetter.failed_at),
  replayed_at: textOrNull('When an operator replayed it; null until then (a message is replayed once).', deadLetter.replayed_at),
}, deadLetter);

export const replaySchema = successAnswer(
  {
    data: {
      type: 'object',
      required: ['id', 'replayed', 'replayed_at', 'to'],
      properties: {
        id: text('The dead letter.', deadLetter.id),
        replayed: { type: 'boolean', description: 'true: sent back now. false: it was replayed before (at `replayed_at`) and is not sent again.', example: true },
        replayed_at: dateTimeField('When it was replayed (now, or the first time).', '2026-12-02T10:20:00.000Z'),
        to: textOrNull('The topic it was sent back to; null when it was not sent again.', deadLetter.original_topic),
      },
    },
  },
  { data: { id: deadLetter.id, replayed: true, replayed_at: '2026-12-02T10:20:00.000Z', to: deadLetter.original_topic } },
);

const stuck = {
  id: '0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a',
  area: 'ar',
  tenant_id: '3c2b1a0f-9e8d-4c7b-8a69-5f4e3d2c1b0a',
  number: '00009-00000042',
  state: 'pending',
  report_state: 'pending',
  delivery_status: null,
  created_at: '2026-12-02T09:00:00.000Z',
  updated_at: '2026-12-02T09:00:00.000Z',
  last_event: { type: 'AuthorityReportRequested', recorded_at: '2026-12-02T09:00:00.000Z' },
  error: null,
};

export const stuckDocumentListSchema = list('One page of the documents not final for longer than `older_than`, oldest first (by `created_at`, then `id`).', {
  id: uuidField('The document id (`GET /v1/documents/{id}` with its account\'s key).', stuck.id),
  area: text('Its area.', stuck.area),
  tenant_id: uuidField('The account it belongs to.', stuck.tenant_id),
  number: text('The document number as its area keys it.', stuck.number),
  state: text('Its state: scheduled (waiting for delivery), pending, processing or cancelling (waiting for its authority), or a final one with a track still open.', stuck.state),
  report_state: textOrNull('Its report to the authority (pending, processing: not answered yet).', stuck.report_state),
  delivery_status: textOrNull('Its Peppol delivery (Scheduled, Sent: not delivered yet).', stuck.delivery_status),
  created_at: dateTimeField('When it was submitted: the list\'s order.', stuck.created_at),
  updated_at: dateTimeField('When it last changed: it is listed once this is longer ago than `older_than`.', stuck.updated_at),
  last_event: nullable(
    { type: 'object', required: ['type', 'recorded_at'], properties: { type: text('The event type.', stuck.last_event.type), recorded_at: dateTimeField('When it was recorded.', stuck.last_event.recorded_at) } },
    { description: 'The last event of its streams (the document\'s and its report\'s).', example: stuck.last_event },
  ),
  error: { description: 'The error its authority\'s answer carries, if any (any JSON; null when none).', example: stuck.error },
}, stuck);

const parked = {
  id: '4711',
  event_id: '8d7c6b5a-4f3e-4d2c-9b1a-0f9e8d7c6b5a',
  type: 'DocumentSubmitted',
  stream_id: 'document-0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a',
  topic: 'einvoice.documents',
  stored_bytes: 61234,
  error: 'The request included a message larger than the max message size the server will accept',
  parked_at: '2026-12-02T10:00:00.000Z',
};

export const parkedRowListSchema = list('One page of the outbox rows the broker refused (parked), in id order: not published, and the rows of their streams behind them wait too.', {
  id: text('The outbox row (digits): what `POST …/{id}/release` takes.', parked.id),
  event_id: uuidField('The event it carries.', parked.event_id),
  type: text('The event type.', parked.type),
  stream_id: text('The stream (aggregate) it belongs to.', parked.stream_id),
  topic: text('The topic it is for.', parked.topic),
  stored_bytes: integer('Its stored size in bytes (after PostgreSQL\'s compression).', parked.stored_bytes),
  error: textOrNull('What the broker answered.', parked.error),
  parked_at: dateTimeField('When it was parked.', parked.parked_at),
}, parked);

export const releaseSchema = successAnswer(
  { data: { type: 'object', required: ['released'], properties: { released: { type: 'array', items: { type: 'string' }, description: 'The ids of the rows put back in line, in id order (empty: none was parked).', example: ['4711'] } } } },
  { data: { released: ['4711'] } },
);

const group = {
  group: 'einvoice.reporting-worker',
  state: 'Stable',
  members: 1,
  ready: true,
  lag: 3,
  partitions: [{ topic: 'einvoice.reports', partition: 0, lag: 3 }],
};

export const consumerLagSchema = successAnswer(
  {
    data: {
      type: 'object',
      required: ['groups'],
      properties: {
        groups: {
          type: 'array',
          description: 'Each worker\'s consumer group (delivery-worker, reporting-worker, webhook-dispatcher).',
          items: {
            type: 'object',
            required: Object.keys(group),
            properties: {
              group: text('The consumer group.', group.group),
              state: text('Kafka\'s state of the group (Stable, PreparingRebalance, Empty, Dead...).', group.state),
              members: integer('Its consumers.', group.members),
              ready: { type: 'boolean', description: 'Stable with at least one member: its partitions are held.', example: group.ready },
              lag: nullable({ type: 'integer' }, { description: 'Messages of its topics not yet committed, all partitions (null: unknown).', example: group.lag }),
              partitions: {
                type: 'array',
                description: 'Its lag per topic and partition, as /metrics\' `einvoice_kafka_consumer_lag`.',
                items: {
                  type: 'object',
                  required: ['topic', 'partition', 'lag'],
                  properties: { topic: text('The topic.', 'einvoice.reports'), partition: integer('The partition.', 0), lag: integer('Messages not yet committed.', 3) },
                },
                example: group.partitions,
              },
            },
          },
        },
      },
    },
  },
  { data: { groups: [group] } },
);

const rates = {
  window: '1h',
  since: '2026-12-02T09:20:00.000Z',
  until: '2026-12-02T10:20:00.000Z',
  areas: [
    { area: 'pl', reported: 120, refused: 3, refused_rate: 0.0244 },
    { area: 'ng', reported: 0, refused: 0, refused_rate: null },
  ],
};

export const authorityErrorsSchema = successAnswer(
  {
    data: {
      type: 'object',
      required: ['window', 'since', 'until', 'areas'],
      properties: {
        window: text('The window counted, as asked (`window`).', rates.window),
        since: dateTimeField('Its start (excluded).', rates.since),
        until: dateTimeField('Its end (now).', rates.until),
        areas: {
          type: 'array',
          description: 'Every area that reports to an authority, by code.',
          items: {
            type: 'object',
            required: ['area', 'reported', 'refused', 'refused_rate'],
            properties: {
              area: text('The area.', 'pl'),
              reported: integer('Documents its authority accepted in the window.', 120),
              refused: integer('Documents its authority refused in the window (the report rejected or invalid).', 3),
              refused_rate: nullable({ type: 'number' }, { description: 'refused / (reported + refused), to 4 places; null when the authority answered nothing in the window.', example: 0.0244 }),
            },
          },
          example: rates.areas,
        },
      },
    },
  },
  { data: rates },
);

export const whoamiSchema = successAnswer(
  {
    data: {
      type: 'object',
      required: ['kind', 'id', 'name'],
      properties: {
        kind: { type: 'string', enum: ['tenant', 'operator'], description: '`tenant`: an account\'s API key or access token (the account routes). `operator`: an operator key (`/v1/operations/*`).', example: 'operator' },
        id: uuidField('The account\'s id, or the operator\'s.', '2b1a0f9e-8d7c-4b6a-9f4e-3d2c1b0a9f8e'),
        name: text('The account\'s name, or the operator\'s.', 'on-call'),
      },
    },
  },
  { data: { kind: 'operator', id: '2b1a0f9e-8d7c-4b6a-9f4e-3d2c1b0a9f8e', name: 'on-call' } },
);
