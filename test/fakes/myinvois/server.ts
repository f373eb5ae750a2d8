/**
 * Test-only local fake of MyInvois speaking its wire format (never imported by production
 * code): identity `POST /connect/token` (form-encoded, header `onbehalfof`), and the e-Invoice
 * API (JSON, `Authorization: Bearer`). Behaviour comes from a sandbox (its state in memory); this file
 * only translates HTTP. Counts logins per client id so tests can assert token reuse, and can
 * be told to answer the next calls of an endpoint with 429 + Retry-After or a 5xx, or to hold
 * Submit Documents' answer (already recorded) for a while, as an answer a crashing client never reads.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '@einvoice/domain';
import { AccessToken, DocumentStatus, SubmissionDocument, SubmissionResponse } from '../../../libs/areas/src/myinvois/connector/connector';
import { MyInvoisEndpoint } from '../../../libs/areas/src/myinvois/connector/rate-limits';
import { SandboxMyInvois, SandboxOptions } from '../../../libs/areas/src/myinvois/connector/sandbox';
import { type LocalServer, listenLocally, requestText } from '../../../libs/areas/src/shared/testing/local-server';

export interface FakeMyInvoisOptions extends SandboxOptions {
  /** `expires_in` of issued tokens (default 3600). */
  readonly tokenLifetimeSeconds?: number;
}

/** A canned answer for the next call(s) of an endpoint. */
export interface InjectedFailure {
  readonly status: number;
  readonly retryAfterSeconds?: number;
  readonly times?: number;
}

export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export class FakeMyInvoisServer {
  readonly sandbox: SandboxMyInvois;
  /** Every request received, in order. */
  readonly requests: FakeRequest[] = [];
  private server?: LocalServer;
  private readonly tokens = new Map<string, AccessToken>();
  private readonly failures = new Map<MyInvoisEndpoint, InjectedFailure & { left: number }>();
  /** Every Submit Documents answer (2xx), in order. */
  readonly submissions: SubmissionResponse[] = [];
  private submitDelayMs = 0;
  private readonly tokenLifetimeSeconds: number;

  constructor(options: FakeMyInvoisOptions = {}) {
    this.tokenLifetimeSeconds = options.tokenLifetimeSeconds ?? 3600;
    this.sandbox = new SandboxMyInvois(options);
  }

  /** Listens on 127.0.0.1, a free port; resolves with the base URL. */
  async start(): Promise<string> {
    this.server = await listenLocally((req, res) => {
      this.handle(req, res).catch((error: unknown) => reply(res, 500, { error: { code: 'InternalError', message: String(error) } }));
    });
    return this.server.url;
  }

  async stop(): Promise<void> {
    await this.server?.stop();
  }

  get url(): string {
    return this.server?.url ?? '';
  }

  /** Successful logins of `clientId`. */
  logins(clientId: string): number {
    return this.sandbox.loginCount.get(clientId) ?? 0;
  }

  /** Answer the next `times` (default 1) calls of `endpoint` with `status`. */
  failNext(endpoint: MyInvoisEndpoint, failure: InjectedFailure): void {
    this.failures.set(endpoint, { ...failure, left: failure.times ?? 1 });
  }

  /** Submit Documents records the submission at once but answers only after `ms` (0: at once). */
  delaySubmit(ms: number): void {
    this.submitDelayMs = ms;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await requestText(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    this.requests.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers, body });
    const route = routeOf(req.method ?? '', url.pathname);
    if (!route) return reply(res, 404, { error: { code: 'NotFound', message: 'No such endpoint.' } });
    const failure = this.failures.get(route.endpoint);
    if (failure && failure.left > 0) {
      failure.left -= 1;
      const headers: Record<string, string> = failure.retryAfterSeconds === undefined ? {} : { 'retry-after': String(failure.retryAfterSeconds) };
      return reply(res, failure.status, { error: { code: failure.status === 429 ? 'TooManyRequests' : 'ServerError', message: 'Injected by the test.' } }, headers);
    }
    try {
      if (route.endpoint === 'login') return await this.login(req, body, res);
      const token = this.tokens.get(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
      if (!token) return reply(res, 401, undefined);
      const json = body ? (JSON.parse(body) as Record<string, unknown>) : {};
      switch (route.endpoint) {
        case 'validateTin': {
          const idType = url.searchParams.get('idType') ?? '';
          const ok = await this.sandbox.validateTin(token, { tin: route.id, idType: idType as 'BRN', idValue: url.searchParams.get('idValue') ?? '' });
          return reply(res, ok ? 200 : 404, undefined);
        }
        case 'submitDocuments': {
          const answer = await this.sandbox.submitDocuments(token, parseDocuments(json));
          this.submissions.push(answer);
          if (this.submitDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.submitDelayMs));
          return reply(res, 202, answer);
        }
        case 'recentDocuments': {
          const number = (name: string) => (url.searchParams.has(name) ? Number(url.searchParams.get(name)) : undefined);
          const direction = url.searchParams.get('InvoiceDirection') ?? url.searchParams.get('invoiceDirection') ?? url.searchParams.get('direction') ?? undefined;
          return reply(res, 200, await this.sandbox.recentDocuments(token, {
            pageNo: number('pageNo'),
            pageSize: number('pageSize'),
            submissionDateFrom: url.searchParams.get('submissionDateFrom') ?? undefined,
            submissionDateTo: url.searchParams.get('submissionDateTo') ?? undefined,
            invoiceDirection: direction === 'Received' ? 'Received' : direction === 'Sent' ? 'Sent' : undefined,
            status: (url.searchParams.get('status') ?? undefined) as DocumentStatus | undefined,
          }));
        }
        case 'getSubmission':
          return reply(res, 200, await this.sandbox.getSubmission(token, route.id));
        default: {
          const change = json.status === 'rejected' ? this.sandbox.rejectDocument : this.sandbox.cancelDocument;
          return reply(res, 200, await change.call(this.sandbox, token, route.id, String(json.reason ?? '')));
        }
      }
    } catch (error) {
      if (error instanceof AppError) return replyError(res, error);
      if (error instanceof SyntaxError) return reply(res, 400, { error: { code: 'BadStructure', message: error.message } });
      throw error;
    }
  }

  private async login(req: IncomingMessage, body: string, res: ServerResponse): Promise<void> {
    if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return reply(res, 400, { error: 'invalid_request' });
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== 'client_credentials' || form.get('scope') !== 'InvoicingAPI') return reply(res, 400, { error: 'invalid_request' });
    const onBehalfOf = req.headers.onbehalfof;
    try {
      const token = await this.sandbox.login({
        clientId: form.get('client_id') ?? '',
        clientSecret: form.get('client_secret') ?? '',
        onBehalfOfTin: typeof onBehalfOf === 'string' ? onBehalfOf : '',
      });
      this.tokens.set(token.accessToken, token);
      return reply(res, 200, {
        access_token: token.accessToken,
        expires_in: this.tokenLifetimeSeconds,
        token_type: 'Bearer',
        scope: 'InvoicingAPI',
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'MYINVOIS.INVALID_CREDENTIALS') return reply(res, 400, { error: 'invalid_client' });
      if (error instanceof AppError) return replyError(res, error);
      throw error;
    }
  }
}

function routeOf(method: string, path: string): { endpoint: MyInvoisEndpoint; id: string } | undefined {
  if (method === 'POST' && path === '/connect/token') return { endpoint: 'login', id: '' };
  if (method === 'POST' && path === '/api/v1.0/documentsubmissions') return { endpoint: 'submitDocuments', id: '' };
  let m = /^\/api\/v1\.0\/documentsubmissions\/([^/]+)$/.exec(path);
  if (method === 'GET' && m) return { endpoint: 'getSubmission', id: decodeURIComponent(m[1]) };
  if (method === 'GET' && path === '/api/v1.0/documents/recent') return { endpoint: 'recentDocuments', id: '' };
  m = /^\/api\/v1\.0\/taxpayer\/validate\/([^/]+)$/.exec(path);
  if (method === 'GET' && m) return { endpoint: 'validateTin', id: decodeURIComponent(m[1]) };
  m = /^\/api\/v1\.0\/documents\/state\/([^/]+)\/state$/.exec(path);
  if (method === 'PUT' && m) return { endpoint: 'cancelDocument', id: decodeURIComponent(m[1]) };
  return undefined;
}

function parseDocuments(json: Record<string, unknown>): SubmissionDocument[] {
  if (!Array.isArray(json.documents)) throw new SyntaxError('documents must be an array');
  return json.documents.map((d: Record<string, unknown>) => {
    if (typeof d.document !== 'string' || typeof d.documentHash !== 'string' || typeof d.codeNumber !== 'string' || (d.format !== 'XML' && d.format !== 'JSON')) {
      throw new SyntaxError('each document needs format, document (base64), documentHash and codeNumber');
    }
    return { format: d.format, document: Buffer.from(d.document, 'base64'), documentHash: d.documentHash, codeNumber: d.codeNumber };
  });
}

function replyError(res: ServerResponse, error: AppError): void {
  const authority = (error.details.authorityError as object | undefined) ?? { code: error.code, message: error.message };
  switch (error.kind) {
    case 'rate_limited':
      return reply(res, 429, { error: { code: 'TooManyRequests', message: error.message } }, { 'retry-after': String(Math.ceil(Number(error.details.retryAfterMs) / 1000)) });
    case 'unauthenticated':
      return reply(res, 401, undefined);
    case 'forbidden':
      return reply(res, 403, { error: authority });
    case 'not_found':
      return reply(res, 404, { error: authority });
    default:
      return reply(res, 400, { error: authority });
  }
}

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}
