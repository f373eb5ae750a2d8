/**
 * What the console reads of the API's answers, and the vocabularies it offers in its filters. The answers' types are
 * the generated client's (clients/typescript/schema.d.ts, which `npm run client` makes from the OpenAPI document the
 * gateway serves at /docs-json): a field the API adds or changes reaches the pages with the next regeneration, and a
 * page that reads a field the API does not answer fails to compile. The states, event types and areas are the
 * server's own lists (imported, not copied: a new state or area shows up here with the next build).
 */
// The generated client's types (no Nx project of its own: a folder the OpenAPI document is generated into).
// eslint-disable-next-line @nx/enforce-module-boundaries
import type { paths } from '../../../clients/typescript/schema';
// The files themselves, not the @einvoice/domain and @einvoice/areas indexes: those bring the server's modules, a
// browser bundle takes these lists only (each file imports nothing).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { AREA_NAMES } from '../../../libs/areas/src/area-list/area-names';

// eslint-disable-next-line @nx/enforce-module-boundaries
export { AUTHORITY_STATUSES, DOCUMENT_STATUSES, EXCHANGE_STATUSES } from '../../../libs/domain/src/account/document-states';
// eslint-disable-next-line @nx/enforce-module-boundaries
export { ACCOUNT_EVENT_TYPES } from '../../../libs/domain/src/account/events';

/** The areas, as `GET /v1/documents?area=` takes their codes, with their names: the registry's list (checked against it at every start). */
export const AREAS: ReadonlyArray<readonly [code: string, name: string]> = Object.entries(AREA_NAMES);

export const areaName = (code: string): string => AREAS.find(([c]) => c === code)?.[1] ?? code;

/** The JSON body of an operation's answer of `status` (200 unless said). */
type Answer<Operation, Status extends number = 200> = Operation extends { responses: Record<Status, { content: { 'application/json': infer Body } }> } ? Body : never;

/** `GET /v1/documents`: one document of the list. */
export type DocumentSummary = Answer<paths['/v1/documents']['get']>['data'][number];

/** `GET /v1/documents/{id}`: the document with its timeline and links. */
export type DocumentDetail = Answer<paths['/v1/documents/{id}']['get']>['data'];

export type TimelineEntry = DocumentDetail['timeline'][number];

export type DocumentLinks = NonNullable<DocumentDetail['links']>;

/** `GET /v1/suppliers`: one supplier of the list. */
export type SupplierSummary = Answer<paths['/v1/suppliers']['get']>['data'][number];

type SupplierAnswer = Answer<paths['/v1/suppliers/{id}']['get']>['data'];

/**
 * `GET /v1/suppliers/{id}`: the profile. Its address is also read by an onboarding field's name (`editable_fields`
 * names `street`, `city`...), hence indexable by any name: a name it does not hold reads as undefined.
 */
export type SupplierDetail = SupplierAnswer & { readonly address: SupplierAnswer['address'] & Readonly<Record<string, string | undefined>> };

/** `GET /v1/webhooks/{id}`: an endpoint (without its secret, which only its creation and rotation answer). */
export type Webhook = Answer<paths['/v1/webhooks/{id}']['get']>['data'];

/** `GET /v1/webhooks/{id}/deliveries`: one delivery with its attempts. */
export type Delivery = Answer<paths['/v1/webhooks/{id}/deliveries']['get']>['data'][number];

export type DeliveryAttempt = Delivery['attempts'][number];

/** `POST /v1/oauth/token`: an access token and its lifetime in seconds. */
export type AccessToken = Answer<paths['/v1/oauth/token']['post']>;

/** `GET /v1/whoami`: whose the credential is. */
export type Caller = Answer<paths['/v1/whoami']['get']>['data'];

/** `GET /v1/operations/dead-letters` (an operator's key): one dead letter. */
export type DeadLetter = Answer<paths['/v1/operations/dead-letters']['get']>['data'][number];

/** `GET /v1/operations/stuck-documents`: one document not final. */
export type StuckDocument = Answer<paths['/v1/operations/stuck-documents']['get']>['data'][number];

/** `GET /v1/operations/outbox/parked`: one parked outbox row. */
export type ParkedRow = Answer<paths['/v1/operations/outbox/parked']['get']>['data'][number];

/** `GET /v1/operations/consumer-lag`: one worker group. */
export type ConsumerGroup = Answer<paths['/v1/operations/consumer-lag']['get']>['data']['groups'][number];

/** `GET /v1/operations/authority-errors`: the window and each area's counts. */
export type ErrorRates = Answer<paths['/v1/operations/authority-errors']['get']>['data'];

/**
 * #50 A document's actions among its `links` (documents.openapi.ts): its cancellation as a form (`cancel`: POST
 * `href` with `body` and each of `fields` written by the person), and where its request as accepted is read.
 */
export type CancelLink = NonNullable<DocumentLinks['cancel']>;

export interface DocumentActions {
  readonly cancel: CancelLink | null;
  readonly request: string | null;
}

/** A detail's `links.cancel` and `links.request` (null when the detail has no links). */
export const actionsOf = (d: DocumentDetail): DocumentActions => ({ cancel: d.links?.cancel ?? null, request: d.links?.request ?? null });

/** `GET /v1/documents/{id}/request`'s `data`. */
export type AcceptedRequest = Answer<paths['/v1/documents/{id}/request']['get']>['data'];
