// The live clients' HTTP helper: Retry-After in its forms, the status classes, and requests against a
// local server (answers, timeouts, no server, mutual TLS, SOAP, what the recorder is told).
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { AppError, type AuthorityRequestFacts, recordAuthorityRequestsWith } from '@einvoice/domain';
import { AuthorityHttp, outcomeOfStatus, retryAfterMs } from './authority-http';
import { makeTestCertificates } from './testing/certificates';
import { type LocalServer, listenLocally } from './testing/local-server';

const NOW = Date.UTC(2026, 4, 20, 12, 0, 0);
const SOAP = 'http://schemas.xmlsoap.org/soap/envelope/';

describe('retryAfterMs (RFC 9110 §10.2.3)', () => {
  it('reads delay-seconds', () => {
    expect(retryAfterMs('120', NOW)).toBe(120_000);
    expect(retryAfterMs('0', NOW)).toBe(0);
    expect(retryAfterMs(' 7 ', NOW)).toBe(7_000);
  });

  it('reads an IMF-fixdate as UTC, 0 once past', () => {
    expect(retryAfterMs('Wed, 20 May 2026 12:01:30 GMT', NOW)).toBe(90_000);
    expect(retryAfterMs('Sun, 06 Nov 1994 08:49:37 GMT', NOW)).toBe(0);
  });

  it('reads the obsolete RFC 850 form, a two-digit year more than 50 years ahead being the last century\'s', () => {
    expect(retryAfterMs('Wednesday, 20-May-26 12:00:10 GMT', NOW)).toBe(10_000);
    expect(retryAfterMs('Wednesday, 20-May-76 12:00:10 GMT', NOW)).toBe(Date.UTC(2076, 4, 20, 12, 0, 10) - NOW);
    expect(retryAfterMs('Thursday, 20-May-77 12:00:10 GMT', NOW)).toBe(0);
  });

  it('reads asctime\'s form (a space before a one-digit day) as UTC', () => {
    expect(retryAfterMs('Wed May 20 12:00:05 2026', NOW)).toBe(5_000);
    expect(retryAfterMs('Mon Jun  1 12:00:00 2026', NOW)).toBe(Date.UTC(2026, 5, 1, 12) - NOW);
  });

  it('is undefined when absent or neither form: fractions, signs, other date forms, impossible dates', () => {
    for (const value of [undefined, null, '', '1.5', '-5', '1e3', 'soon', '2026-05-21', 'Wed, 20 May 2026 12:01:30', 'Sat, 31 Feb 2026 12:00:00 GMT', 'Wed, 20 May 2026 25:00:00 GMT']) {
      expect(retryAfterMs(value, NOW)).toBeUndefined();
    }
  });
});

describe('outcomeOfStatus', () => {
  it('2xx ok, 429 rate limited, 5xx unavailable, any other refused', () => {
    expect([200, 201, 202, 204].map(outcomeOfStatus)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(outcomeOfStatus(429)).toBe('rate_limited');
    expect([500, 502, 503, 504].map(outcomeOfStatus)).toEqual(['unavailable', 'unavailable', 'unavailable', 'unavailable']);
    expect([400, 401, 403, 404, 409, 422, 302].map(outcomeOfStatus)).toEqual(['refused', 'refused', 'refused', 'refused', 'refused', 'refused', 'refused']);
  });
});

describe('AuthorityHttp against a local server', () => {
  let server: LocalServer;
  const received: Array<{ method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }> = [];
  /** What the server answers next, by path. */
  const answers: Record<string, (res: http.ServerResponse) => void> = {
    '/ok': (res) => res.writeHead(200, { 'content-type': 'application/json', 'x-ref': 'r1' }).end('{"id":7}'),
    '/refused': (res) => res.writeHead(400).end('{"error":{"code":"BadArgument"}}'),
    '/limited': (res) => res.writeHead(429, { 'retry-after': '7' }).end('slow down'),
    '/limited-silent': (res) => res.writeHead(429).end(),
    '/down': (res) => res.writeHead(503, { 'retry-after': 'Wed, 20 May 2026 12:02:00 GMT' }).end(),
    '/silent': () => undefined,
    '/half': (res) => res.writeHead(200).write('{"partial":'),
    '/fault': (res) => res.writeHead(500).end(`<soap:Envelope xmlns:soap="${SOAP}"><soap:Body><soap:Fault><faultcode>x</faultcode></soap:Fault></soap:Body></soap:Envelope>`),
    '/fault-like': (res) => res.writeHead(500).end('<html><body>Internal Fault></body></html>'),
    '/soap': (res) => res.writeHead(200).end('<soap:Envelope/>'),
  };
  const client = (options: { timeoutMs?: number; rateLimited?: boolean } = {}) =>
    new AuthorityHttp({
      area: 'xx', authority: 'The authority', timeoutMs: options.timeoutMs ?? 5_000, now: () => NOW, defaultRetryAfterMs: 30_000,
      codes: { unavailable: 'XX.UNAVAILABLE', timeout: 'XX.TIMEOUT', ...(options.rateLimited === false ? {} : { rateLimited: 'XX.429' }) },
    });
  const get = (path: string, through = client()) => through.send({ method: 'GET', name: path, url: `${server.url}${path}` });

  beforeAll(async () => {
    server = await listenLocally((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        answers[new URL(req.url ?? '/', 'http://x').pathname](res);
      });
    });
  });
  afterAll(() => server.stop());

  it('sends the method, headers and body (with its length), and reads status, headers and JSON', async () => {
    const answer = await client().send({ method: 'POST', name: 'ok', url: `${server.url}/ok?x=1`, headers: { 'x-api-key': 'k' }, body: '{"ü":1}' });
    expect(received.at(-1)).toMatchObject({ method: 'POST', url: '/ok?x=1', headers: { 'x-api-key': 'k', 'content-length': '8' }, body: '{"ü":1}' });
    expect(answer).toMatchObject({ status: 200, outcome: 'ok', text: '{"id":7}', request: 'POST ok', retryAfterMs: undefined });
    expect(answer.json).toEqual({ id: 7 });
    expect(answer.header('X-Ref')).toBe('r1');
  });

  it('keeps a refusal\'s body; its text when it is not JSON', async () => {
    const refused = await get('/refused');
    expect(refused).toMatchObject({ status: 400, outcome: 'refused' });
    expect(refused.json).toEqual({ error: { code: 'BadArgument' } });
    expect((await get('/limited')).json).toBe('slow down');
  });

  it('a 429 is rate limited with its Retry-After, else the default wait; without a code for it, unavailable', async () => {
    const limited = await get('/limited');
    expect(limited).toMatchObject({ status: 429, outcome: 'rate_limited', retryAfterMs: 7_000 });
    expect(client().retriable(limited)).toMatchObject({ kind: 'rate_limited', code: 'XX.429', retriable: true, details: { retryAfterMs: 7_000, status: 429, endpoint: '/limited' } });
    expect(client().retriable(await get('/limited-silent'))).toMatchObject({ kind: 'rate_limited', details: { retryAfterMs: 30_000 } });
    expect(client({ rateLimited: false }).retriable(limited)).toMatchObject({ kind: 'unavailable', code: 'XX.UNAVAILABLE', retriable: true, details: { retryAfterMs: 7_000 } });
  });

  it('a 5xx is unavailable, its Retry-After (an HTTP-date) kept', async () => {
    const down = await get('/down');
    expect(down).toMatchObject({ status: 503, outcome: 'unavailable', retryAfterMs: 120_000 });
    expect(client().retriable(down)).toMatchObject({ kind: 'unavailable', code: 'XX.UNAVAILABLE', retriable: true, details: { status: 503, retryAfterMs: 120_000 } });
  });

  it('no answer in time is a retriable timeout, also when the answer stops halfway', async () => {
    for (const path of ['/silent', '/half']) {
      const error = await get(path, client({ timeoutMs: 150 })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ kind: 'unavailable', code: 'XX.TIMEOUT', retriable: true, message: `The authority did not answer GET ${path} within 150 ms.` });
    }
  });

  it('no server is retriable and unavailable, not a timeout', async () => {
    const error = await client().send({ method: 'GET', name: 'nowhere', url: 'http://127.0.0.1:1/x' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'unavailable', code: 'XX.UNAVAILABLE', retriable: true, message: expect.stringContaining('could not be reached (GET nowhere)') });
  });

  it('SOAP: 200 and a Fault (with its 500) are answers; another status is unavailable', async () => {
    const soap = (path: string) => client().soap({ name: 'Op', url: `${server.url}${path}`, action: 'urn:op', envelope: '<soap:Envelope/>' });
    await expect(soap('/soap')).resolves.toBe('<soap:Envelope/>');
    expect(received.at(-1)?.headers).toMatchObject({ 'content-type': 'text/xml; charset=utf-8', soapaction: '"urn:op"' });
    await expect(soap('/fault')).resolves.toContain('soap:Fault');
    await expect(soap('/fault-like')).rejects.toMatchObject({ kind: 'unavailable', code: 'XX.UNAVAILABLE', details: { status: 500 } });
    await expect(soap('/down')).rejects.toMatchObject({ kind: 'unavailable', code: 'XX.UNAVAILABLE', details: { status: 503 } });
  });

  it('a GET reset on a kept-alive connection before any answer (the server closed it as it went out) is sent once more on a new one; a POST is not', async () => {
    const served = new WeakSet<object>();
    let requests = 0;
    const dropping = await listenLocally((req, res) => {
      req.resume();
      requests += 1;
      // The second request on a connection finds it closed, as a server whose keep-alive timeout just passed leaves it.
      if (served.has(req.socket)) return req.socket.destroy();
      served.add(req.socket);
      res.writeHead(200).end('ok');
    });
    try {
      const send = (method: string) => client().send({ method, name: 'x', url: `${dropping.url}/x`, ...(method === 'POST' ? { body: 'b' } : {}) });
      await expect(send('GET')).resolves.toMatchObject({ status: 200 });
      await expect(send('GET')).resolves.toMatchObject({ status: 200, text: 'ok' });
      expect(requests).toBe(3);
      // The server may have taken a POST before it dropped the connection: the caller hears it, nothing is sent twice.
      await expect(send('POST')).resolves.toMatchObject({ status: 200 });
      await expect(send('POST')).rejects.toMatchObject({ kind: 'unavailable', code: 'XX.UNAVAILABLE', retriable: true });
      expect(requests).toBe(5);
    } finally {
      await dropping.stop();
    }
  });

  it('a connection whose idle time ran out during a synchronous task (signing a login) is not handed out: a POST after it goes through', async () => {
    // The server closes idle connections after the 3 s it announces (no extra time of its own).
    const server = http.createServer({ keepAliveTimeout: 3_000, keepAliveTimeoutBuffer: 0 }, (req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const post = () => client().send({ method: 'POST', name: 'x', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, body: 'b' });
    try {
      await expect(post()).resolves.toMatchObject({ status: 200 });
      const until = Date.now() + 3_300;
      while (Date.now() < until); // the synchronous task, past both the pool's expiry and the server's
      await expect(post()).resolves.toMatchObject({ status: 200, text: 'ok' });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('tells the recorder what each request is and how it ended', async () => {
    const seen: Array<{ facts: AuthorityRequestFacts; outcome: string }> = [];
    recordAuthorityRequestsWith(async (facts, send) => {
      try {
        const answer = await send();
        seen.push({ facts, outcome: answer.outcome });
        return answer;
      } catch (error) {
        seen.push({ facts, outcome: (error as AppError).code });
        throw error;
      }
    });
    try {
      await get('/limited');
      await get('/silent', client({ timeoutMs: 100 })).catch(() => undefined);
    } finally {
      recordAuthorityRequestsWith((_facts, send) => send());
    }
    expect(seen.map(({ facts, outcome }) => [facts.area, facts.method, facts.name, facts.url.pathname, outcome])).toEqual([
      ['xx', 'GET', '/limited', '/limited', 'rate_limited'],
      ['xx', 'GET', '/silent', '/silent', 'XX.TIMEOUT'],
    ]);
  });
});

describe('AuthorityHttp with mutual TLS', () => {
  const certs = makeTestCertificates();
  let server: https.Server;
  let url: string;

  beforeAll(async () => {
    server = https.createServer({ ...certs.server, ca: certs.ca, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      res.writeHead(200).end((req.socket as import('node:tls').TLSSocket).getPeerCertificate().subject?.CN ?? '');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const mtls = new AuthorityHttp({ area: 'xx', authority: 'The authority', timeoutMs: 5_000, codes: { unavailable: 'XX.UNAVAILABLE' }, tls: { ...certs.client, ca: certs.ca } });

  it('presents the client certificate; a request\'s own replaces the default', async () => {
    expect((await mtls.send({ method: 'GET', name: 'who', url })).text).toContain('EMPRESA DE PRUEBAS');
    await expect(mtls.send({ method: 'GET', name: 'who', url, tls: { ...certs.stranger, ca: certs.ca } })).rejects.toMatchObject({ code: 'XX.UNAVAILABLE', retriable: true });
  });

  it('without a certificate the server refuses: unavailable', async () => {
    await expect(mtls.send({ method: 'GET', name: 'who', url, tls: { ca: certs.ca } })).rejects.toMatchObject({ kind: 'unavailable', code: 'XX.UNAVAILABLE' });
  });
});
