/**
 * A typed client of the gateway's API: openapi-fetch over the types openapi-typescript generated from
 * the OpenAPI document (`npm run client` regenerates schema.d.ts and openapi.json from the code).
 *
 *   const api = gatewayClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: process.env.API_KEY! });
 *   const { data, error } = await api.POST('/be/einvoice/generate/invoice', { params: { header: { supplier_uuid, transport_mode: 'peppol' } }, body });
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema';

export type { components, operations, paths } from './schema';

export interface GatewayClientOptions {
  /** The gateway's address, e.g. http://127.0.0.1:3000 */
  readonly baseUrl: string;
  /** An API key (`sk_…`) or an OAuth access token (`at_…`), sent as x-svc-auth-key. */
  readonly apiKey: string;
  /** Another fetch (a test's, a proxy's); the global one by default. */
  readonly fetch?: typeof globalThis.fetch;
}

export function gatewayClient(options: GatewayClientOptions): Client<paths> {
  return createClient<paths>({ baseUrl: options.baseUrl, headers: { 'x-svc-auth-key': options.apiKey }, ...(options.fetch ? { fetch: options.fetch } : {}) });
}
