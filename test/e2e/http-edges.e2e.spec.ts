import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { type RawAnswer, rawHttp } from '../support/raw-http';
import { AppProcess, startGateway } from '../support/stack';

/** The one error shape, with one error of this code at no field. */
const oneError = (code: string) => ({
  status: expect.any(String),
  message: expect.any(String),
  errors: [{ path: '', code, message: expect.any(String), severity: 'error' }],
  request_id: expect.any(String),
});

describe('#44 requests at the edge of HTTP: targets the router cannot parse, requests that never arrive whole', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let url: string;
  let apiKey: string;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    ({ apiKey } = await createTenant(dataSource, 'e2e http edges'));
    // A short limit, so that the requests below that never finish are answered soon.
    const started = await startGateway({ HTTP_REQUEST_TIMEOUT_MS: '1000' });
    gateway = started.app;
    url = started.url;
  });

  afterAll(async () => {
    await gateway?.stop();
    await dataSource?.destroy();
  });

  const send = (request: string): Promise<RawAnswer> => rawHttp(url, request);

  it('a request target that is not a path is a 400 in the one error shape, never a 500', async () => {
    const form = 'grant_type=client_credentials';
    const cases: Array<[string, string, number, string]> = [
      ['a fragment on the token endpoint (was a 500)', 'POST /v1/oauth/token#frag HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}', 400, 'REQUEST.BAD_URL'],
      ['a fragment on the token endpoint, a form', `POST /v1/oauth/token#frag HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\n\r\n${form}`, 400, 'REQUEST.BAD_URL'],
      ['a fragment with no body', 'POST /v1/oauth/token#frag HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n', 400, 'REQUEST.BAD_URL'],
      ['a fragment on another route', 'GET /health/live#top HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'REQUEST.BAD_URL'],
      ['a fragment after a query', `GET /be/einvoice/get-document/1?x=1#top HTTP/1.1\r\nHost: x\r\nx-svc-auth-key: ${apiKey}\r\n\r\n`, 400, 'REQUEST.BAD_URL'],
      ['a fragment on no route', 'GET /nothing-here#top HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'REQUEST.BAD_URL'],
      ['a bad escape', 'GET /be/einvoice/%zz HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'REQUEST.BAD_URL'],
      ['a truncated escape', 'GET /health/live% HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'REQUEST.BAD_URL'],
      ['a target without its leading "/"', 'GET health/live HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'REQUEST.MALFORMED_HTTP'],
      ['the asterisk-form', 'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'REQUEST.BAD_URL'],
      ['an absolute-form target of another scheme', 'GET ftp://x/health/live HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'REQUEST.BAD_URL'],
      ['an authority-form target (CONNECT)', 'CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\n\r\n', 400, 'REQUEST.BAD_URL'],
      ['a path parameter over 500 characters', `GET /be/einvoice/get-document/${'a'.repeat(600)} HTTP/1.1\r\nHost: x\r\n\r\n`, 400, 'REQUEST.URL_TOO_LONG'],
    ];
    for (const [what, request, status, code] of cases) {
      const answer = await send(request);
      expect({ what, status: answer.status, body: answer.body }).toEqual({ what, status, body: oneError(code) });
    }
  });

  it('an absolute-form target (RFC 9112 §3.2.2) is served as its path', async () => {
    const live = await send('GET http://gateway.example/health/live HTTP/1.1\r\nHost: gateway.example\r\n\r\n');
    expect({ status: live.status, body: live.body }).toEqual({ status: 200, body: { status: 'up' } });
    // The token endpoint's own answer (RFC 6749 §5.2), as for its path: it knows itself under this form too.
    const token = await send('POST http://gateway.example/v1/oauth/token HTTP/1.1\r\nHost: gateway.example\r\nContent-Length: 0\r\n\r\n');
    expect({ status: token.status, body: token.body }).toEqual({ status: 400, body: { error: 'invalid_request', error_description: expect.any(String), request_id: expect.any(String) } });
  });

  describe('a request that does not arrive whole within HTTP_REQUEST_TIMEOUT_MS is a 408 in the one error shape', () => {
    it('a chunked GET on last-voucher without its final chunk', async () => {
      const answer = await send(
        `GET /ar/einvoice/last-voucher HTTP/1.1\r\nHost: x\r\nx-svc-auth-key: ${apiKey}\r\ncuit: 20111111112\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n6\r\n{"PtoV\r\n`,
      );
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 408, body: oneError('REQUEST.TIMEOUT') });
      expect(answer.text).toMatch(/\r\nconnection: close\r\n/i);
    });

    it('a POST whose Content-Length is larger than what is sent', async () => {
      const answer = await send(`POST /be/einvoice/onboard HTTP/1.1\r\nHost: x\r\nx-svc-auth-key: ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"registered_name":`);
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 408, body: oneError('REQUEST.TIMEOUT') });
    });

    it('headers that never end', async () => {
      const answer = await send(`GET /health/live HTTP/1.1\r\nHost: x\r\nx-svc-auth-key: ${apiKey}\r\nX-Unfinished: a`);
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 408, body: oneError('REQUEST.TIMEOUT') });
    });
  });
});
