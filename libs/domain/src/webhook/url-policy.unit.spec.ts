import { checkWebhookUrl, isAddressAllowed } from './url-policy';

const production = { allowLoopback: false };
const development = { allowLoopback: true };
const codes = (url: unknown, policy = production) => checkWebhookUrl(url, policy).map((i) => `${i.path} ${i.code}`);

describe('#3 webhook URL policy', () => {
  it('accepts https URLs on public hosts and addresses', () => {
    expect(codes('https://erp.example.com/hooks?x=1')).toEqual([]);
    expect(codes('https://93.184.216.34/hooks')).toEqual([]);
    expect(codes('https://[2606:4700::1111]/hooks')).toEqual([]);
  });

  it('accepts http only to loopback, and only in development', () => {
    expect(codes('http://127.0.0.1:8080/hook', development)).toEqual([]);
    expect(codes('http://localhost:8080/hook', development)).toEqual([]);
    expect(codes('http://[::1]:8080/hook', development)).toEqual([]);
    expect(codes('http://127.0.0.1:8080/hook')).toEqual(['url WEBHOOK.URL_NOT_ALLOWED']);
    expect(codes('https://localhost/hook')).toEqual(['url WEBHOOK.URL_NOT_ALLOWED']);
    expect(codes('http://erp.example.com/hook', development)).toEqual(['url WEBHOOK.URL_NOT_ALLOWED']);
    expect(codes('http://10.0.0.1/hook', development)).toEqual(['url WEBHOOK.URL_NOT_ALLOWED']);
  });

  it('refuses private, link-local, reserved and metadata addresses, v4 and v6', () => {
    for (const host of ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
      '[fd00::1]', '[fe80::1]', '[::]', '[ff02::1]', '[::ffff:10.0.0.1]', '[::ffff:169.254.169.254]', '[64:ff9b::a00:1]']) {
      expect(codes(`https://${host}/hook`)).toEqual(['url WEBHOOK.URL_NOT_ALLOWED']);
    }
    expect(codes('https://172.32.0.1/hook')).toEqual([]);
  });

  it('judges resolved addresses the same way (the send-time check after DNS)', () => {
    expect(isAddressAllowed('8.8.8.8', production)).toBe(true);
    expect(isAddressAllowed('127.0.0.53', production)).toBe(false);
    expect(isAddressAllowed('127.0.0.53', development)).toBe(true);
    expect(isAddressAllowed('::1', production)).toBe(false);
    expect(isAddressAllowed('::ffff:127.0.0.1', development)).toBe(true);
    expect(isAddressAllowed('10.0.0.1', development)).toBe(false);
    expect(isAddressAllowed('2001:db8::1', production)).toBe(false);
    expect(isAddressAllowed('2a00:1450:4001::200e', production)).toBe(true);
    expect(isAddressAllowed('not-an-ip', development)).toBe(false);
  });

  it('reports malformed, non-http(s), credential-carrying, missing and over-long URLs by path and code', () => {
    expect(codes('not a url')).toEqual(['url FIELD.INVALID_FORMAT']);
    expect(codes('ftp://example.com/x')).toEqual(['url WEBHOOK.URL_NOT_ALLOWED']);
    expect(codes('https://user:pw@example.com/x')).toEqual(['url FIELD.INVALID_FORMAT']);
    expect(codes(undefined)).toEqual(['url FIELD.REQUIRED']);
    expect(codes(`https://example.com/${'a'.repeat(2048)}`)).toEqual(['url FIELD.TOO_LONG']);
  });
});
