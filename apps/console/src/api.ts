/**
 * The console's only way to the API (same origin): the tab's credential in `x-svc-auth-key` on every request,
 * and every refusal as an ApiError with the API's message and request id (docs/account-api.md, the one error
 * shape). The console shows nothing the API does not answer, and does nothing it does not allow. A credential
 * the API no longer takes (401 `AUTH.*`: an expired access token, a deleted client or key) ends the session.
 */
import { type Session, type SessionEnd, endSession, expiredEnd, storedSession, tokenExpired } from './session';

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

  /** The error's code (`AUTH.TOKEN_EXPIRED`): the first issue's, as the one error shape puts it. */
  get code(): string | undefined {
    return this.issues[0]?.code;
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

/**
 * Sends a request with the tab's credential; `credential` given: with that one instead (signing in with it, before
 * it is stored), null: with none (the token request, whose body authenticates the client).
 */
export async function request(
  method: string,
  path: string,
  options: { body?: unknown; credential?: string | null; accept?: string; headers?: Readonly<Record<string, string>> } = {},
): Promise<Response> {
  const session = options.credential === undefined ? storedSession() : null;
  // An access token past its expiry is not sent: the person is asked to sign in again instead of shown a refusal.
  if (session && tokenExpired(session)) throw ended(expiredEnd(session));
  const credential = options.credential === undefined ? session?.credential : options.credential;
  const headers: Record<string, string> = { ...options.headers, accept: options.accept ?? 'application/json' };
  if (credential) headers[KEY_HEADER] = credential;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), credentials: 'omit', cache: 'no-store' });
  } catch (error) {
    throw new ApiError(0, `The gateway did not answer (${String((error as Error).message ?? error)}).`, null);
  }
  if (!response.ok) {
    const error = await errorOf(response);
    if (session && error.status === 401 && error.code?.startsWith('AUTH.')) {
      throw ended(error.code === 'AUTH.TOKEN_EXPIRED' ? expiredEnd(session, error) : refusedEnd(session, error));
    }
    throw error;
  }
  return response;
}

/** Ends the session (the shell shows the sign-in form with why); the error the caller gets. */
function ended(end: SessionEnd): ApiError {
  endSession(end);
  return end.error instanceof ApiError ? end.error : new ApiError(401, end.message, null);
}

/** The end of a session whose credential the API refused (a deleted client, a revoked key). */
function refusedEnd(session: Session, error: ApiError): SessionEnd {
  const what = session.client ? 'access token' : 'key';
  return { message: `The gateway no longer accepts this ${what}: sign in again.`, error, clientId: session.client?.clientId };
}

/**
 * The API's error body as an ApiError: the one error shape, or the token endpoint's RFC 6749 one (`error`,
 * `error_description`); an answer that is neither (a proxy's page) says its status.
 */
async function errorOf(response: Response): Promise<ApiError> {
  const requestId = response.headers.get('x-request-id');
  try {
    const body = (await response.json()) as { message?: string; error?: string; error_description?: string; request_id?: string; errors?: FieldIssue[] };
    const message = body.message ?? body.error_description ?? body.error ?? `HTTP ${response.status}`;
    return new ApiError(response.status, message, body.request_id ?? requestId, body.errors ?? []);
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

/** A POST with no credential: the token request (POST /v1/oauth/token), whose body authenticates the client. */
export async function postJsonWithout<T>(path: string, body: unknown): Promise<T> {
  return (await request('POST', path, { body, credential: null })).json() as Promise<T>;
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
