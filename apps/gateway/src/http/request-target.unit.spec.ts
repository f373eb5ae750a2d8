import { originFormOf, requestTargetError } from './request-target';
import { requestTimeoutOptions } from './request-timeout';

describe('#44 request targets', () => {
  it('serves an absolute-form target as its path and query, and leaves every other form as sent', () => {
    expect(originFormOf('/health?x=1')).toBe('/health?x=1');
    expect(originFormOf('http://gateway.example/health?x=1')).toBe('/health?x=1');
    expect(originFormOf('HTTPS://gateway.example:8443/v1/oauth/token')).toBe('/v1/oauth/token');
    expect(originFormOf('http://gateway.example')).toBe('/');
    expect(originFormOf('http://gateway.example?x=1')).toBe('/?x=1');
    expect(originFormOf('*')).toBe('*');
    expect(originFormOf('ftp://gateway.example/health')).toBe('ftp://gateway.example/health');
  });

  it('refuses a fragment and anything that is not a path', () => {
    expect(requestTargetError('/v1/oauth/token')).toBeUndefined();
    expect(requestTargetError('/be/einvoice/get-document/a%23b?q=%23')).toBeUndefined();
    for (const target of ['/v1/oauth/token#frag', '/health?x=1#top', '*', 'ftp://gateway.example/health', 'health']) {
      expect({ target, code: requestTargetError(target)?.code, kind: requestTargetError(target)?.kind }).toEqual({ target, code: 'REQUEST.BAD_URL', kind: 'validation' });
    }
  });
});

describe('#44 HTTP_REQUEST_TIMEOUT_MS', () => {
  it('is Node\'s request and headers deadline, looked for every second at most', () => {
    expect(requestTimeoutOptions(30_000)).toEqual({
      requestTimeout: 30_000,
      http: { requestTimeout: 30_000, headersTimeout: 30_000, connectionsCheckingInterval: 1000 },
    });
    expect(requestTimeoutOptions(500).http?.connectionsCheckingInterval).toBe(500);
    expect(requestTimeoutOptions(0)).toEqual({ requestTimeout: 0 });
  });

  it('refuses a value that is not a whole number of milliseconds', () => {
    for (const value of [Number.NaN, -1, 1.5]) expect(() => requestTimeoutOptions(value)).toThrow(/HTTP_REQUEST_TIMEOUT_MS/);
  });
});
