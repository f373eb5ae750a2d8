/**
 * Each area's first document (README "A first document per area") sent through the TypeScript client
 * generated from the OpenAPI document (clients/typescript): the same requests as the README's block,
 * with the request bodies the document gives as examples named `first` (a unit test holds those equal
 * to the README's bodies). Typed against the generated `paths`: a route, header or parameter the
 * document does not have fails the client's compilation (test/unit/openapi-document.unit.spec.ts).
 */
import type { Client } from 'openapi-fetch';
import type { paths } from '../../clients/typescript';

type Api = Client<paths>;
type Method = 'get' | 'post';
type JsonBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The OpenAPI document (as /docs-json serves it): where the `first` examples are read. */
export interface OpenApiDocumentJson {
  readonly paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { examples?: Record<string, { value: unknown }> }> } }>>;
}

/** One request of a first document and what it answered. */
export interface SentRequest {
  readonly operation: string;
  readonly status: number;
  readonly answer: unknown;
}

/** Runs an area's first document, request after request; each answer must be a 2xx for the next to be sent. */
export type FirstDocument = (api: Api, first: FirstExample) => Promise<SentRequest[]>;
export type FirstExample = <P extends keyof paths, M extends Method & keyof paths[P]>(path: P, method: M) => JsonBody<P, M>;

/** The example named `first` of an operation's JSON request body. */
export function firstExamples(document: OpenApiDocumentJson): FirstExample {
  return ((path: string, method: string) => {
    const value = document.paths[path]?.[method]?.requestBody?.content?.['application/json']?.examples?.first?.value;
    if (value === undefined) throw new Error(`${method.toUpperCase()} ${path} has no request-body example named "first"`);
    return structuredClone(value);
  }) as FirstExample;
}

/** The string (or number) a key holds anywhere in an answer, as the README's `sed` finds it. */
export function valueOf(answer: unknown, key: string): string {
  const found = (node: unknown): string | undefined => {
    if (Array.isArray(node)) return node.map(found).find((v) => v !== undefined);
    if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === key && (typeof v === 'string' || typeof v === 'number')) return String(v);
        const inner = found(v);
        if (inner !== undefined) return inner;
      }
    }
    return undefined;
  };
  const value = found(answer);
  if (value === undefined) throw new Error(`no "${key}" in ${JSON.stringify(answer).slice(0, 300)}`);
  return value;
}

/** Records one answer; a non-2xx stops the area's run with what the service said. */
async function sent(log: SentRequest[], operation: string, call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<unknown> {
  const { data, error, response } = await call;
  log.push({ operation, status: response.status, answer: data ?? error });
  if (!response.ok) throw new Error(`${operation}: ${response.status} ${JSON.stringify(error ?? data)}`);
  return data;
}

/** Belgium, Germany and Singapore: the same seed routes under their prefix. */
const peppolArea = (prefix: '/be' | '/de' | '/sg'): FirstDocument => async (api, first) => {
  const log: SentRequest[] = [];
  const onboarded = await sent(log, `POST ${prefix}/einvoice/onboard`, api.POST(`${prefix}/einvoice/onboard`, { body: first(`${prefix}/einvoice/onboard`, 'post') }));
  const supplier = valueOf(onboarded, 'supplier_uuid');
  const submitted = await sent(log, `POST ${prefix}/einvoice/generate/invoice`, api.POST(`${prefix}/einvoice/generate/invoice`, {
    params: { header: { supplier_uuid: supplier, transport_mode: 'peppol' } },
    body: first(`${prefix}/einvoice/generate/invoice`, 'post'),
  }));
  const uuid = valueOf(submitted, 'DocumentID');
  await sent(log, `GET ${prefix}/einvoice/delivery-status/{uuid}`, api.GET(`${prefix}/einvoice/delivery-status/{uuid}`, { params: { path: { uuid }, header: { supplier_uuid: supplier } } }));
  return log;
};

export const FIRST_DOCUMENTS: Readonly<Record<string, FirstDocument>> = {
  be: peppolArea('/be'),
  de: peppolArea('/de'),
  sg: peppolArea('/sg'),
  peppol: async (api, first) => {
    const log: SentRequest[] = [];
    await sent(log, 'POST /1.0/participant', api.POST('/1.0/participant', { body: first('/1.0/participant', 'post') }));
    return log;
  },
  my: async (api, first) => {
    const log: SentRequest[] = [];
    const onboarded = await sent(log, 'POST /api/einvoice/onboard', api.POST('/api/einvoice/onboard', { body: first('/api/einvoice/onboard', 'post') }));
    const supplier = valueOf(onboarded, 'supplier_uuid');
    const invoice = first('/api/einvoice/generate/invoice', 'post');
    await sent(log, 'POST /api/einvoice/generate/invoice', api.POST('/api/einvoice/generate/invoice', {
      params: { header: { supplier_uuid: supplier, transport_mode: 'peppol' } },
      body: invoice,
    }));
    await sent(log, 'GET /api/einvoice/documents/{id}', api.GET('/api/einvoice/documents/{id}', { params: { path: { id: valueOf(invoice, 'ID') }, header: { supplier_uuid: supplier } } }));
    return log;
  },
  ae: async (api, first) => {
    const log: SentRequest[] = [];
    const registered = await sent(log, 'POST /v1/participants', api.POST('/v1/participants', { body: first('/v1/participants', 'post') }));
    const participant_id = valueOf(registered, 'participant_id');
    const submitted = await sent(log, 'POST /v1/participants/{participant_id}/documents', api.POST('/v1/participants/{participant_id}/documents', {
      params: { path: { participant_id } },
      body: first('/v1/participants/{participant_id}/documents', 'post'),
    }));
    const document_id = valueOf(submitted, 'document_id');
    await sent(log, 'GET /v1/participants/{participant_id}/documents/{document_id}', api.GET('/v1/participants/{participant_id}/documents/{document_id}', { params: { path: { participant_id, document_id } } }));
    return log;
  },
  es: async (api, first) => {
    const log: SentRequest[] = [];
    const onboarded = await sent(log, 'POST /es/verifactu/onboard', api.POST('/es/verifactu/onboard', { body: first('/es/verifactu/onboard', 'post') }));
    const participant = valueOf(onboarded, 'participant_id');
    const generated = await sent(log, 'POST /es/verifactu/generate', api.POST('/es/verifactu/generate', {
      params: { header: { 'participant-id': participant } },
      body: first('/es/verifactu/generate', 'post'),
    }));
    await sent(log, 'GET /es/verifactu/records/{uuid}', api.GET('/es/verifactu/records/{uuid}', { params: { path: { uuid: valueOf(generated, 'uuid') }, header: { 'participant-id': participant } } }));
    return log;
  },
  ng: async (api, first) => {
    const log: SentRequest[] = [];
    const onboarded = await sent(log, 'POST /api/auth/taxpayer/login', api.POST('/api/auth/taxpayer/login', { body: first('/api/auth/taxpayer/login', 'post') }));
    const participant = valueOf(onboarded, 'participant_id');
    const generated = await sent(log, 'POST /api/invoice/generate', api.POST('/api/invoice/generate', {
      params: { header: { 'participant-id': participant } },
      body: first('/api/invoice/generate', 'post'),
    }));
    await sent(log, 'GET /api/invoice/{irn}', api.GET('/api/invoice/{irn}', { params: { path: { irn: valueOf(generated, 'irn') }, header: { 'participant-id': participant } } }));
    return log;
  },
  jo: async (api, first) => {
    const log: SentRequest[] = [];
    const onboarded = await sent(log, 'POST /jo/supplier/onboard', api.POST('/jo/supplier/onboard', { body: first('/jo/supplier/onboard', 'post') }));
    const participant = valueOf(onboarded, 'participant_id');
    const generated = await sent(log, 'POST /jo/einvoice/generate', api.POST('/jo/einvoice/generate', {
      params: { header: { 'participant-id': participant } },
      body: first('/jo/einvoice/generate', 'post'),
    }));
    await sent(log, 'GET /jo/einvoice/invoices/{uuid}', api.GET('/jo/einvoice/invoices/{uuid}', { params: { path: { uuid: valueOf(generated, 'uuid') }, header: { 'participant-id': participant } } }));
    return log;
  },
  pl: async (api, first) => {
    const log: SentRequest[] = [];
    const onboarded = await sent(log, 'POST /pl/einvoice/onboard', api.POST('/pl/einvoice/onboard', { body: first('/pl/einvoice/onboard', 'post') }));
    const supplier = valueOf(onboarded, 'supplier_uuid');
    const submitted = await sent(log, 'POST /pl/einvoice/generate/invoice', api.POST('/pl/einvoice/generate/invoice', {
      params: { header: { supplier_uuid: supplier, transport_mode: 'peppol' } },
      body: first('/pl/einvoice/generate/invoice', 'post'),
    }));
    await sent(log, 'GET /pl/einvoice/status/{document_id}', api.GET('/pl/einvoice/status/{document_id}', { params: { path: { document_id: valueOf(submitted, 'DocumentID') } } }));
    return log;
  },
  ar: async (api, first) => {
    const log: SentRequest[] = [];
    const onboarding = first('/ar/einvoice/onboard', 'post');
    await sent(log, 'POST /ar/einvoice/onboard', api.POST('/ar/einvoice/onboard', { body: onboarding }));
    const cuit = valueOf(onboarding, 'cuit');
    const voucher = first('/ar/einvoice/create-voucher', 'post');
    // The README's GETs carry their fields in a JSON body, as the seed does; fetch sends no GET body, so the query form.
    const last = await sent(log, 'GET /ar/einvoice/last-voucher', api.GET('/ar/einvoice/last-voucher', { params: { header: { cuit }, query: { PtoVta: Number(valueOf(voucher, 'PtoVta')), CbteTipo: Number(valueOf(voucher, 'CbteTipo')) } } }));
    if (Number(valueOf(last, 'CbteNro')) + 1 !== Number(valueOf(voucher, 'CbteDesde'))) throw new Error(`the example's CbteDesde is not the next number after ${valueOf(last, 'CbteNro')}`);
    await sent(log, 'POST /ar/einvoice/create-voucher', api.POST('/ar/einvoice/create-voucher', { params: { header: { cuit } }, body: voucher }));
    await sent(log, 'GET /ar/einvoice/get-voucher', api.GET('/ar/einvoice/get-voucher', { params: { header: { cuit }, query: { PtoVta: Number(valueOf(voucher, 'PtoVta')), CbteTipo: Number(valueOf(voucher, 'CbteTipo')), CbteNro: Number(valueOf(voucher, 'CbteDesde')) } } }));
    return log;
  },
};
