/**
 * The console's only way to the API (same origin): the tab's credential in `x-svc-auth-key` on every request,
 * and every refusal as an ApiError with the API's message and request id (docs/account-api.md, the one error
 * shape). The console shows nothing the API does not answer, and does nothing it does not allow.
 */
import { storedCredential } from './session';

/** The header the gateway reads an API key (or an OAuth access token) from: apps/gateway/src/auth/api-key.guard.ts. */
export const KEY_HEADER = 'x-svc-auth-key';

export interface FieldIssue {
  readonly path: string;
  readonly code: string;
  readonly message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly requestId: string | null,
    readonly issues: readonly FieldIssue[] = [],
  ) {
    super(message);
  }
}

/** A list's page: `{status, data, has_more}` (cursor paging with `starting_after`). */
export interface Page<T> {
  readonly data: T[];
  readonly has_more: boolean;
}

type Query = Readonly<Record<string, string | number | undefined>>;

export function withQuery(path: string, query: Query = {}): string {
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') parameters.set(name, String(value));
  const text = parameters.toString();
  return text ? `${path}?${text}` : path;
}

/** Sends a request with the credential (`credential` given: signing in with it, before it is stored). */
export async function request(method: string, path: string, options: { body?: unknown; credential?: string; accept?: string; headers?: Readonly<Record<string, string>> } = {}): Promise<Response> {
  const credential = options.credential ?? storedCredential();
  const headers: Record<string, string> = { ...options.headers, accept: options.accept ?? 'application/json' };
  if (credential) headers[KEY_HEADER] = credential;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), credentials: 'omit', cache: 'no-store' });
  } catch (error) {
    throw new ApiError(0, `The gateway did not answer (${String((error as Error).message ?? error)}).`, null);
  }
  if (!response.ok) throw await errorOf(response);
  return response;
}

/** The API's error body as an ApiError; an answer that is not one (a proxy's page) says its status. */
async function errorOf(response: Response): Promise<ApiError> {
  const requestId = response.headers.get('x-request-id');
  try {
    const body = (await response.json()) as { message?: string; request_id?: string; errors?: FieldIssue[] };
    return new ApiError(response.status, body.message ?? `HTTP ${response.status}`, body.request_id ?? requestId, body.errors ?? []);
  } catch {
    return new ApiError(response.status, `HTTP ${response.status} ${response.statusText}`, requestId);
  }
}

export async function getJson<T>(path: string, query?: Query): Promise<T> {
  return (await request('GET', withQuery(path, query))).json() as Promise<T>;
}

/** A GET with a credential not stored yet (signing in with it). */
export async function getJsonWith<T>(path: string, credential: string): Promise<T> {
  return (await request('GET', path, { credential })).json() as Promise<T>;
}

export async function sendJson<T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T | null> {
  const response = await request(method, path, { body });
  return response.status === 204 ? null : ((await response.json()) as T);
}

/** A file of the API as a blob: URL (the credential cannot go in a link's URL); the caller revokes it. */
export async function blobUrl(path: string, accept: string, headers?: Readonly<Record<string, string>>): Promise<string> {
  const response = await request('GET', path, { accept, headers });
  return URL.createObjectURL(await response.blob());
}

/** Saves a file of the API (through a blob: URL, revoked once the browser has it). */
export async function download(path: string, filename: string, accept: string, headers?: Readonly<Record<string, string>>): Promise<void> {
  const url = await blobUrl(path, accept, headers);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
