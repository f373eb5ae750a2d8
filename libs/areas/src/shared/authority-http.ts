/**
 * HTTP to an authority, for every live client (issue #45 "one library per job"): one request with a
 * timeout over the whole exchange (an AbortSignal), the authority's TLS (a client certificate for mutual
 * TLS, trust, ciphers), the answer classified (RFC 9110: 2xx ok; 429 rate limited and 5xx unavailable,
 * both retriable, with their Retry-After; any other status refused, the authority's body kept), and each
 * request counted, timed and traced (recordedAuthorityRequest). What an answer means beyond that (a 400
 * whose body is a verdict, a 401 that asks to sign in again) is the client's, as its authority documents.
 * node:http(s), not fetch: Node's fetch takes a client certificate or ciphers only through undici's own
 * Agent, a package this service does not have; https.request takes them per request, and an agent keeps
 * a pool of connections per TLS configuration.
 */
import http from 'node:http';
import https from 'node:https';
import { text as readText } from 'node:stream/consumers';
import { setTimeout as nextTimers } from 'node:timers/promises';
import { AppError, type AuthorityRequestOutcome, recordedAuthorityRequest } from '@einvoice/domain';
import { first, soapBody } from './xml-read';

/** TLS towards an authority: `cert` and `key` (PEM) for mutual TLS, `ca` when the server's is not a public CA's, `ciphers` (OpenSSL's list). */
export interface AuthorityTls {
  readonly cert?: string;
  readonly key?: string;
  readonly ca?: string;
  readonly ciphers?: string;
}

export interface AuthorityHttpOptions {
  /** The area code: the `area` of the request metrics and spans, as of the connector's own. */
  readonly area: string;
  /** The authority as messages name it ("KSeF"). */
  readonly authority: string;
  /** The whole exchange, from the request to the answer's last byte. */
  readonly timeoutMs: number;
  /**
   * The codes of the retriable errors: `timeout` when the authority did not answer in time (else
   * `unavailable`); `rateLimited` makes a 429 a `rate_limited` AppError (nothing was taken: sent again
   * after its wait), without it a 429 is `unavailable` as any other answer the client does not expect.
   */
  readonly codes: { readonly unavailable: string; readonly timeout?: string; readonly rateLimited?: string };
  /** The wait of a 429 that states no Retry-After. */
  readonly defaultRetryAfterMs?: number;
  /** TLS of every request (a request's own `tls` replaces it). */
  readonly tls?: AuthorityTls;
  readonly now?: () => number;
}

export interface AuthorityRequest {
  readonly method: string;
  /** What the request does, for metrics, spans and messages: the authority's operation or the path template, never identifiers. */
  readonly name: string;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  readonly tls?: AuthorityTls;
}

/** An authority's answer: status, headers, body, and how it ends (outcomeOfStatus). */
export class AuthorityAnswer {
  private parsed?: { readonly value: unknown };

  constructor(
    /** The method and name of the request it answers. */
    readonly method: string,
    readonly name: string,
    readonly status: number,
    private readonly headers: http.IncomingHttpHeaders,
    readonly text: string,
    readonly outcome: AuthorityRequestOutcome,
    /** The wait its Retry-After states, when it states one (RFC 9110 §10.2.3). */
    readonly retryAfterMs: number | undefined,
  ) {}

  /** `METHOD name` of the request it answers. */
  get request(): string {
    return `${this.method} ${this.name}`;
  }

  header(name: string): string | undefined {
    const value = this.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  /** The body as JSON; the text itself when it is not JSON; undefined when empty. */
  get json(): unknown {
    if (!this.parsed) {
      let value: unknown = undefined;
      if (this.text) {
        try {
          value = JSON.parse(this.text);
        } catch {
          value = this.text;
        }
      }
      this.parsed = { value };
    }
    return this.parsed.value;
  }
}

export class AuthorityHttp {
  private readonly now: () => number;

  constructor(private readonly options: AuthorityHttpOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Sends one request and reads its answer, whatever its status. No answer in time, or none at all (a
   * refused connection, a broken one), throws a retriable `unavailable` AppError: the request may or may
   * not have been taken.
   */
  async send(request: AuthorityRequest): Promise<AuthorityAnswer> {
    const url = new URL(request.url);
    const label = `${request.method} ${request.name}`;
    return recordedAuthorityRequest({ area: this.options.area, method: request.method, name: request.name, url }, async () => {
      const signal = AbortSignal.timeout(this.options.timeoutMs);
      try {
        const { status, headers, text } = await exchange(url, request, request.tls ?? this.options.tls, signal);
        const outcome = outcomeOfStatus(status);
        const retryAfter = outcome === 'rate_limited' || outcome === 'unavailable' ? retryAfterMs(firstOf(headers['retry-after']), this.now()) : undefined;
        return new AuthorityAnswer(request.method, request.name, status, headers, text, outcome, retryAfter);
      } catch (error) {
        const late = signal.aborted;
        const code = late ? (this.options.codes.timeout ?? this.options.codes.unavailable) : this.options.codes.unavailable;
        const message = late
          ? `${this.options.authority} did not answer ${label} within ${this.options.timeoutMs} ms.`
          : `${this.options.authority} could not be reached (${label}): ${(error as Error).message}`;
        throw new AppError('unavailable', code, message, { retriable: true, details: { endpoint: request.name }, cause: error });
      }
    });
  }

  /**
   * The retriable error of an answer a retry may fix: a 429 is `rate_limited` with its wait (Retry-After,
   * else the default) when the client has a code for it; anything else is `unavailable` (a 5xx, or an
   * answer the client does not expect), its Retry-After kept in the details.
   */
  retriable(answer: AuthorityAnswer): AppError {
    const { authority, codes, defaultRetryAfterMs } = this.options;
    const said = answer.text ? `: ${answer.text.slice(0, 300)}` : '';
    const details = { endpoint: answer.name, status: answer.status };
    if (answer.status === 429 && codes.rateLimited) {
      const wait = answer.retryAfterMs ?? defaultRetryAfterMs;
      return new AppError('rate_limited', codes.rateLimited, `${authority}'s limit was reached (${answer.request})${said}`, { retriable: true, details: { ...details, ...(wait !== undefined ? { retryAfterMs: wait } : {}) } });
    }
    const wait = answer.retryAfterMs !== undefined ? { retryAfterMs: answer.retryAfterMs } : {};
    return new AppError('unavailable', codes.unavailable, `${authority} answered HTTP ${answer.status} to ${answer.request}${said}`, { retriable: true, details: { ...details, ...wait } });
  }

  /**
   * A SOAP 1.1 call: posts the envelope, answers the response's text. A Fault (which comes with a 500)
   * is an answer for the client to read; any other status than 200 is the service being unwell.
   */
  async soap(request: { readonly name: string; readonly url: string; readonly action: string; readonly envelope: string; readonly tls?: AuthorityTls }): Promise<string> {
    const answer = await this.send({
      method: 'POST',
      name: request.name,
      url: request.url,
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${request.action}"` },
      body: request.envelope,
      tls: request.tls,
    });
    if (answer.status === 200 || first(soapBody(answer.text), 'Fault')) return answer.text;
    throw this.retriable(answer);
  }
}

/** RFC 9110 §15: 2xx ok; 429 rate_limited; 5xx unavailable; any other (4xx, and 1xx/3xx this client does not follow) refused. */
export function outcomeOfStatus(status: number): AuthorityRequestOutcome {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'unavailable';
  return 'refused';
}

/**
 * A Retry-After (RFC 9110 §10.2.3) in ms from `now`: delay-seconds, or an HTTP-date (§5.6.7, its three
 * forms) that is 0 once past. Undefined when absent or neither.
 */
export function retryAfterMs(value: string | undefined | null, now: number): number | undefined {
  const header = value?.trim();
  if (!header) return undefined;
  if (/^\d+$/.test(header)) return Number(header) * 1000;
  const date = httpDate(header, now);
  return date === undefined ? undefined : Math.max(0, date - now);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** IMF-fixdate, the form senders use: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
/** The obsolete forms recipients must still read: `Sunday, 06-Nov-94 08:49:37 GMT` and asctime's `Sun Nov  6 08:49:37 1994`. */
const RFC850_DATE = new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/** An HTTP-date in ms since the epoch (always UTC); undefined when the value is not one. */
function httpDate(value: string, now: number): number | undefined {
  let parts: [day: string, month: string, year: number, hour: string, minute: string, second: string] | undefined;
  let m = IMF_FIXDATE.exec(value);
  if (m) parts = [m[1], m[2], Number(m[3]), m[4], m[5], m[6]];
  else if ((m = RFC850_DATE.exec(value))) {
    // A two-digit year more than 50 years ahead is the last past year with those digits (§5.6.7).
    const thisYear = new Date(now).getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(m[3]);
    if (year > thisYear + 50) year -= 100;
    parts = [m[1], m[2], year, m[4], m[5], m[6]];
  } else if ((m = ASCTIME_DATE.exec(value))) parts = [m[2].trim(), m[1], Number(m[6]), m[3], m[4], m[5]];
  if (!parts) return undefined;
  const [day, month, year, hour, minute, second] = [Number(parts[0]), MONTHS.indexOf(parts[1]), parts[2], Number(parts[3]), Number(parts[4]), Number(parts[5])];
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  const time = Date.UTC(year, month, day, hour, minute, Math.min(second, 59));
  // 31 Feb and friends roll over into the next month: not a date.
  return new Date(time).getUTCDate() === day ? time : undefined;
}

function firstOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

interface Exchanged {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
}

/**
 * Kept-alive connections, pooled per host and TLS configuration (the agents' pool key holds the
 * certificate, key, trust and ciphers). Closed 2 s before the end of the server's announced keep-alive
 * (undici's margin, which the clients had with fetch; node's own is 1 s), else after 4 s idle: a
 * connection the server closes as a request goes out on it resets that request.
 */
const AGENT_OPTIONS = { keepAlive: true, timeout: 4_000, agentKeepAliveTimeoutBuffer: 2_000, scheduling: 'lifo' as const };
const agents = { http: new http.Agent(AGENT_OPTIONS), https: new https.Agent(AGENT_OPTIONS) };

/** RFC 9110 §9.2.1: methods that change nothing at the server, so a client may send them again by itself. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * One request and its whole answer; rejects when there is none (network, TLS, the signal). A safe
 * request reset on a kept-alive connection before any answer (the server closed it as it went out) is
 * sent once more on a new connection; any other is not (§9.2.2): the server may have taken it, so the
 * caller hears `unavailable` and its connector recovers as after any lost answer.
 */
async function exchange(url: URL, request: AuthorityRequest, tls: AuthorityTls | undefined, signal: AbortSignal): Promise<Exchanged> {
  // Timers that are due run first: a synchronous task just before (signing a login: AFIP's CMS) holds
  // back the pool's expiry of an idle connection, which the agent would hand out all the same.
  await nextTimers(0);
  const mayRetry = SAFE_METHODS.has(request.method.toUpperCase());
  return (await once(url, request, tls, signal, mayRetry)) ?? (once(url, request, tls, signal, false, true) as Promise<Exchanged>);
}

/** Undefined when the server reset a reused connection before answering and `mayRetry`; `fresh`: on a connection of its own. */
function once(url: URL, request: AuthorityRequest, tls: AuthorityTls | undefined, signal: AbortSignal, mayRetry: boolean, fresh = false): Promise<Exchanged | undefined> {
  const secure = url.protocol === 'https:';
  const body = request.body;
  const headers = { ...request.headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) };
  return new Promise((resolve, reject) => {
    let answered = false;
    const options = { method: request.method, headers, signal, agent: fresh ? false : secure ? agents.https : agents.http, ...(secure ? tls : {}) };
    const sent = (secure ? https : http).request(url, options, (response) => {
      answered = true;
      readText(response).then((text) => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }), reject);
    });
    sent.on('error', (error: NodeJS.ErrnoException) => {
      if (mayRetry && !answered && sent.reusedSocket && error.code === 'ECONNRESET') resolve(undefined);
      else reject(error);
    });
    sent.end(body);
  });
}
