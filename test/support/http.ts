// A small HTTP client for e2e tests: JSON in, status + JSON (or text) out.
import { recordSecret, recordSecretsIn } from './secrets';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- e2e tests read answers loosely, by path
export interface Answer<T = any> {
  readonly status: number;
  readonly body: T;
  readonly headers: Headers;
}

export class Client {
  constructor(
    readonly url: string,
    readonly apiKey?: string,
  ) {
    recordSecret(apiKey);
  }

  withKey(apiKey: string | undefined): Client {
    return new Client(this.url, apiKey);
  }

  async request(method: string, path: string, options: { body?: unknown; raw?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...(this.apiKey ? { 'x-svc-auth-key': this.apiKey } : {}), ...options.headers };
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    // What the tests send and get that is secret must never reach a log line (checked after the suite).
    if (options.body !== undefined) recordSecretsIn(options.body);
    for (const [name, value] of Object.entries(headers)) if (/auth|key|token/i.test(name)) recordSecret(value.replace(/^(Bearer|Basic) /i, ''));
    const response = await fetch(`${this.url}${path}`, { method, headers, body });
    const text = await response.text();
    const isJson = response.headers.get('content-type')?.includes('json');
    const parsed = isJson && text ? JSON.parse(text) : text;
    recordSecretsIn(parsed);
    return { status: response.status, body: parsed, headers: response.headers };
  }

  post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    return this.request('POST', path, { body, headers });
  }

  patch(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    return this.request('PATCH', path, { body, headers });
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    return this.request('GET', path, { headers });
  }

  /** GET the exact bytes of the answer (no decoding, no JSON parsing): for hashes over the body. */
  async bytes(path: string, headers: Record<string, string> = {}): Promise<Answer<Buffer>> {
    const response = await fetch(`${this.url}${path}`, { headers: { ...(this.apiKey ? { 'x-svc-auth-key': this.apiKey } : {}), ...headers } });
    return { status: response.status, body: Buffer.from(await response.arrayBuffer()), headers: response.headers };
  }
}
