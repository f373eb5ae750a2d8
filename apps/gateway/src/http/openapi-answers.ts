/**
 * The pieces every area's OpenAPI answers are built of (#47): the `{status, …}` envelope the gateway
 * answers with, and the field shapes they all repeat (ids, times, nullable values, files), so that each
 * area's `*-openapi.ts` says only what is its own.
 */
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** A `status` that takes one value, e.g. `success`, `pending`, `submitted`. */
export const statusField = (status: string, description?: string): SchemaObject =>
  ({ type: 'string', enum: [status], ...(description === undefined ? {} : { description }), example: status });

/** The `status` of a success answer. */
export const successStatus = statusField('success');

/**
 * An answer `{status, …fields}`: `status` and every field required, in the order given; `example` is the
 * answer's without its `status`, which is `status`'s own example.
 */
export function statusAnswer(status: SchemaObject, fields: Record<string, SchemaObject>, example: Record<string, unknown>): SchemaObject {
  return {
    type: 'object',
    required: ['status', ...Object.keys(fields)],
    properties: { status, ...fields },
    example: { status: status.example, ...example },
  };
}

/** The answer `{status: "success", …fields}` (usually `data`, and a `message` before it). */
export const successAnswer = (fields: Record<string, SchemaObject>, example: Record<string, unknown>): SchemaObject =>
  statusAnswer(successStatus, fields, example);

/** OpenAPI 3.1 (JSON Schema): `schema`, or null; `about` its description and example. */
export const nullable = (schema: SchemaObject, about: SchemaObject = {}): SchemaObject => ({ anyOf: [schema, { type: 'null' }], ...about });

/** An id this gateway made (a UUID). */
export const uuidField = (description: string, example: string): SchemaObject => ({ type: 'string', format: 'uuid', description, example });

/** An instant, RFC 3339 (`date-time`). */
export const dateTimeField = (description: string, example: string): SchemaObject => ({ type: 'string', format: 'date-time', description, example });

/** File content: a typed string of its media type (OpenAPI 3.1's `contentMediaType`, which @nestjs/swagger's types predate). */
export const fileContent = (...mediaTypes: string[]) =>
  Object.fromEntries(mediaTypes.map((mediaType) => [mediaType, { schema: { type: 'string', contentMediaType: mediaType } as SchemaObject }]));

/** The XML as rendered or sent to the authority. */
export const xmlContent = fileContent('application/xml');

/**
 * An onboarding's 201 `{status: "success", message, data}`: `data` the supplier's fields as stored, all
 * required, the example made of theirs.
 */
export function onboardedAnswer(message: string, data: Record<string, SchemaObject>): SchemaObject {
  return successAnswer(
    { message: { type: 'string', example: message }, data: { type: 'object', required: Object.keys(data), properties: data } },
    { message, data: Object.fromEntries(Object.entries(data).map(([name, field]) => [name, field.example])) },
  );
}
