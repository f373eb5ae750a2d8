import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { accountEventComponentSchemas } from '@einvoice/domain';
import { PUBLIC_EXTENSION } from '../auth/api-key.guard';
import { documentCommonErrors } from './openapi-errors';
import { requestSchemas } from './openapi-schemas';
import { REQUEST_ID_HEADER } from './request-id';
import { headerForms } from './seed-headers';

/**
 * OpenAPI at /docs (UI) and /docs-json. Request schemas are generated from the class-validator
 * DTOs of libs/areas, the same classes that validate requests, so the document cannot drift.
 */
export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, buildOpenApiDocument(app), { jsonDocumentUrl: 'docs-json' });
}

/** The document of the app's routes: served at /docs-json, and written by `cli openapi` without a running stack. */
export function buildOpenApiDocument(app: INestApplication): Document {
  const config = new DocumentBuilder()
    .setTitle('E-invoicing gateway')
    .setDescription(
      'One API for legal e-invoices. Authenticate with `x-svc-auth-key` or `Authorization: Bearer` (an API key `sk_…` or an OAuth access token `at_…`; an operator key `op_…` for `/v1/operations/*`). Every POST accepts an `Idempotency-Key` header; every error has the shape `{status, message, errors:[{path, code, message, severity}], request_id}` (the OAuth token endpoint: RFC 6749 `{error, error_description, request_id}`). Every answer carries `x-request-id`: the one the request sent when it is 1–200 characters of `[A-Za-z0-9._:-]`, else a new UUID.',
    )
    .setOpenAPIVersion('3.1.0')
    .setVersion('0.1.0')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-svc-auth-key' }, 'x-svc-auth-key')
    // The same credentials as Authorization: Bearer: an API key (`sk_…`) or an OAuth access token (`at_…`, POST /v1/oauth/token).
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key (sk_…) or an access token (at_…) from POST /v1/oauth/token' }, 'bearer')
    // #50: an operator's key (`op_…`, `cli operators create <name>`) in the same header, for /v1/operations/* (also as Authorization: Bearer).
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-svc-auth-key', description: 'An operator key (op_…, `npm run --silent cli -- operators create <name>`): /v1/operations/* and GET /v1/whoami only; also accepted as Authorization: Bearer.' }, 'operator')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  const schemas = requestSchemas('#/components/schemas/');
  document.components = {
    ...document.components,
    schemas: {
      ...(document.components?.schemas ?? {}),
      ...(schemas as Record<string, object>),
      // The account's event catalogue (#48): GET /v1/events and the account webhooks' bodies refer to `AccountEvent`.
      ...accountEventComponentSchemas('#/components/schemas/'),
      ErrorBody: {
        type: 'object',
        required: ['status', 'message', 'errors', 'request_id'],
        properties: {
          status: { type: 'string', example: 'bad_request' },
          message: { type: 'string' },
          request_id: { type: 'string', description: 'The request id, as in the x-request-id header of the answer: quote it to support.', example: REQUEST_ID_EXAMPLE },
          errors: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                path: { type: 'string', example: 'InvoiceLines[0].Description' },
                code: { type: 'string', example: 'FIELD.TOO_LONG' },
                message: { type: 'string' },
                severity: { type: 'string', enum: ['error', 'warning'] },
              },
            },
          },
          data: {
            type: 'object',
            additionalProperties: true,
            description: 'What the error names besides fields, when it names something: SUPPLIER.EXISTS (409 to an onboarding) names the supplier the account onboarded with that identifier (`supplier_id`); WEBHOOK.DUPLICATE (409 to POST or PATCH /v1/webhooks) the endpoint with that url and those filters (`webhook_id`).',
            example: { supplier_id: '0f8e8b1c-6a57-4d57-9d5e-2f0f3c1d9a11' },
          },
        },
      },
    },
    headers: { ...(document.components?.headers ?? {}), RequestId: requestIdHeader },
  };
  // The shared answers first, so that tidyOperations gives them the request id header like every other.
  documentCommonErrors(document.paths as Record<string, Record<string, unknown>>, schemaRef('ErrorBody').schema);
  tidyOperations(document);
  withoutUnusedSchemas(document);
  return document;
}

/**
 * Only the schemas an operation refers to: class-validator-jsonschema gives every decorated class one,
 * also the base classes and the classes no route takes (which a generated client would turn into types
 * nobody can send).
 */
function withoutUnusedSchemas(document: Document): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        const name = key === '$ref' && typeof value === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(value)?.[1] : undefined;
        if (name !== undefined) {
          if (!used.has(name)) {
            used.add(name);
            visit(schemas[name]);
          }
        } else visit(value);
      }
    }
  };
  visit(document.paths);
  visit(document.components?.headers);
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}

type Document = ReturnType<typeof SwaggerModule.createDocument>;

const REQUEST_ID_EXAMPLE = '3f1c9a0e-5b2d-4e7a-9c41-0d8e2f6b7a15';

/** The answer header every operation's every answer carries (http/request-id.ts). */
const requestIdHeader = {
  description: 'The request id: the x-request-id the request sent when 1–200 characters of [A-Za-z0-9._:-], else a new UUID. Error bodies repeat it as request_id.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,200}$', example: REQUEST_ID_EXAMPLE },
};

/**
 * Four corrections of what @nestjs/swagger generates: every answer has the x-request-id header; a
 * header declared on the controller and repeated per operation is listed once; an underscored header
 * says it also answers to its hyphenated form (http/seed-headers.ts); and a `@Public()` operation needs
 * no key (`security: []`, whatever the controller's `@ApiSecurity` says).
 */
function tidyOperations(document: Document): void {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as Array<Record<string, unknown>>) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      const parameters = operation.parameters as Array<{ in: string; name: string; description?: string }> | undefined;
      if (parameters) {
        const seen = new Set<string>();
        operation.parameters = parameters
          .filter((p) => {
            const key = `${p.in}:${p.name.toLowerCase()}`;
            return seen.has(key) ? false : (seen.add(key), true);
          })
          .map((p) => (p.in === 'header' ? withHyphenAlias(p) : p));
      }
      for (const response of Object.values((operation.responses ?? {}) as Record<string, { headers?: Record<string, unknown> }>)) {
        response.headers = { ...response.headers, [REQUEST_ID_HEADER]: { $ref: '#/components/headers/RequestId' } };
      }
      if (operation[PUBLIC_EXTENSION]) {
        operation.security = [];
        delete operation[PUBLIC_EXTENSION];
      }
    }
  }
}

/** A header the seeds spell with an underscore, described with the hyphenated form it also answers to. */
function withHyphenAlias<P extends { name: string; description?: string }>(parameter: P): P {
  const [, hyphenated] = headerForms(parameter.name);
  if (!hyphenated) return parameter;
  const alias = `Also accepted as \`${hyphenated}\` (proxies such as nginx drop underscored headers); both with different values: 400.`;
  return { ...parameter, description: parameter.description ? `${parameter.description.replace(/\.?$/, '.')} ${alias}` : alias };
}

/** `@ApiBody`/`@ApiResponse` content that points at a schema of the document. */
export const schemaRef = (schema: string) => ({ schema: { $ref: `#/components/schemas/${schema}` } });

/** The one error shape, for `@ApiResponse({ status, ...errorResponse })`. */
export const errorResponse = { description: 'The one error shape: {status, message, errors:[{path, code, message, severity}], request_id}', ...schemaRef('ErrorBody') };
