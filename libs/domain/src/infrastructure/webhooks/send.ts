import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import { urlToHttpOptions } from 'node:url';
import { checkWebhookUrl, isAddressAllowed, signWebhook, type UrlPolicy } from '../../webhook';

/**
 * One signed POST to a subscriber (README "Webhooks"). `secret`, or `secrets`: during a rotation (#48) the
 * new secret first, then the previous one while it still signs; the header then carries one `v1,` signature
 * per secret (Standard Webhooks "Signature scheme": a space-separated list), so a receiver verifying with
 * either secret accepts the delivery.
 */
export type WebhookRequest = WebhookRequestBase & ({ readonly secret: string } | { readonly secrets: readonly string[] });

interface WebhookRequestBase {
  readonly url: string;
  /** `Webhook-Id`: the same on every attempt of one event, receivers de-duplicate on it. */
  readonly id: string;
  readonly body: string;
  readonly policy: UrlPolicy;
  readonly timeoutMs: number;
}

/** What one attempt gave: a status (2xx acknowledged), or no status and the error. */
export interface AttemptResult {
  readonly statusCode: number | null;
  readonly durationMs: number;
  readonly error: string | null;
  readonly acknowledged: boolean;
  /** The first RESPONSE_BODY_BYTES of the receiver's answer (UTF-8, NULs dropped: PostgreSQL text holds none); none without an answer. */
  readonly responseBody?: string | null;
}

/** How much of an answer's body is kept with the attempt (#48: the delivery log shows the first 4 KiB). */
export const RESPONSE_BODY_BYTES = 4096;

/** The headers of a request signed with each of `secrets` (the first's timestamp and id; one `v1,` entry per secret). */
export function signWithEach(secrets: readonly string[], id: string, timestamp: number, body: string): ReturnType<typeof signWebhook> {
  if (secrets.length === 0) throw new Error('a webhook needs a secret to be signed with');
  const [first, ...others] = secrets.map((secret) => signWebhook(secret, id, timestamp, body));
  return { ...first, 'webhook-signature': [first, ...others].map((h) => h['webhook-signature']).join(' ') };
}

/** Keeps the first RESPONSE_BODY_BYTES of an answer and reads (drops) the rest, so the connection can be reused. */
function bodyKeeper() {
  const chunks: Buffer[] = [];
  let kept = 0;
  return {
    add(chunk: Buffer): void {
      if (kept >= RESPONSE_BODY_BYTES) return;
      const part = chunk.subarray(0, RESPONSE_BODY_BYTES - kept);
      chunks.push(part);
      kept += part.length;
    },
    // A character cut at the limit is left out (StringDecoder keeps its first bytes back), not replaced by U+FFFD.
    text: (): string => new StringDecoder('utf8').write(Buffer.concat(chunks)).replaceAll('\u0000', ''),
  };
}

/**
 * Resolves a host name and refuses it when ANY of its addresses is not allowed; the socket then
 * connects to exactly the addresses that were checked (no second resolution, no DNS rebinding).
 */
function checkedLookup(policy: UrlPolicy) {
  return (hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    dnsLookup(hostname, { all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error);
      const refused = addresses.find((a) => !isAddressAllowed(a.address, policy));
      if (refused || addresses.length === 0) {
        return callback(Object.assign(new Error(`${hostname} resolves to a refused address ${refused?.address ?? ''}`), { code: 'WEBHOOK.URL_NOT_ALLOWED' }));
      }
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * Keep-alive agents, by protocol and URL policy: a connection goes to the address `checkedLookup`
 * allowed when it was opened, and carries the next POSTs to that host (issue 11: a TCP connection per
 * webhook was ~9% of the dispatcher's CPU, and left a socket in TIME_WAIT each). Sockets idle for
 * IDLE_SOCKET_MS are closed, before the usual server keep-alive timeouts (node's 5 s).
 */
const IDLE_SOCKET_MS = 4_000;
const agents = new Map<string, http.Agent>();

function agentFor(protocol: string, policy: UrlPolicy): http.Agent {
  const key = `${protocol}|${policy.allowLoopback}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' as const };
    agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

/** Where a URL sends a POST (node's request options of it), or why it may not be sent to. */
type Target = { readonly protocol: string; readonly options: http.RequestOptions } | { readonly refused: string };

/**
 * The targets of the URLs sent to lately, by policy and URL: a dispatcher sends most webhooks to the same
 * few URLs, and checking and parsing one again for each POST (checkWebhookUrl's URL, then node's own
 * conversion of it to request options) was ~5% of its CPU (issue 11). The addresses a host name resolves
 * to are still checked at every connection (checkedLookup). Bounded: emptied when it reaches MAX_TARGETS.
 */
const MAX_TARGETS = 1_000;
const targets = new Map<string, Target>();

function targetOf(url: string, policy: UrlPolicy): Target {
  const key = `${policy.allowLoopback}|${url}`;
  let target = targets.get(key);
  if (!target) {
    const issues = checkWebhookUrl(url, policy);
    if (issues.length > 0) target = { refused: `${issues[0].code}: ${issues[0].message}` };
    else {
      const parsed = new URL(url);
      target = { protocol: parsed.protocol, options: urlToHttpOptions(parsed) };
    }
    if (targets.size >= MAX_TARGETS) targets.clear();
    targets.set(key, target);
  }
  return target;
}

/**
 * POSTs one signed webhook. Never throws: the outcome is recorded as an attempt. No redirects
 * are followed (a 3xx is a failure); the first 4 KiB of the receiver's answer are kept, the rest read and dropped. Over a kept-alive
 * connection the receiver may have closed meanwhile: such a reset, before any answer, is sent again
 * once on a new connection (node's documented pattern, `request.reusedSocket`).
 */
export async function sendWebhook(request: WebhookRequest, now: () => number = Date.now): Promise<AttemptResult> {
  const started = now();
  const done = (statusCode: number | null, error: string | null, responseBody: string | null = null): AttemptResult => ({
    statusCode,
    error,
    durationMs: Math.max(0, Math.round(now() - started)),
    acknowledged: statusCode !== null && statusCode >= 200 && statusCode < 300,
    responseBody,
  });
  const target = targetOf(request.url, request.policy);
  if ('refused' in target) return done(null, target.refused);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'einvoice-webhooks/1',
    ...signWithEach('secrets' in request ? request.secrets : [request.secret], request.id, Math.floor(now() / 1000), request.body),
  };
  const client = target.protocol === 'https:' ? https : http;
  const post = (agent: http.Agent | false) =>
    new Promise<AttemptResult | 'reset on a reused connection'>((resolve) => {
      const req = client.request({ ...target.options, method: 'POST', headers, lookup: checkedLookup(request.policy) as never, agent }, (res) => {
        const body = bodyKeeper();
        res.on('data', (chunk: Buffer) => body.add(chunk));
        res.on('end', () => resolve(done(res.statusCode ?? null, res.statusCode && res.statusCode < 300 && res.statusCode >= 200 ? null : `HTTP ${res.statusCode}`, body.text())));
        res.on('error', (error) => resolve(done(res.statusCode ?? null, error.message, body.text())));
      });
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${request.timeoutMs} ms`)), request.timeoutMs);
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (req.reusedSocket && error.code === 'ECONNRESET') return resolve('reset on a reused connection');
        resolve(done(null, error.code === 'WEBHOOK.URL_NOT_ALLOWED' ? `WEBHOOK.URL_NOT_ALLOWED: ${error.message}` : error.message));
      });
      req.on('close', () => clearTimeout(timer));
      req.end(request.body);
    });
  const first = await post(agentFor(target.protocol, request.policy));
  if (first !== 'reset on a reused connection') return first;
  return (await post(false)) as AttemptResult;
}
