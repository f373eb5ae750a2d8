import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import {
  type WebhookHeaders,
  documentReceivedBody,
  newWebhookSecret,
  signWebhook,
  verifyWebhook,
  webhookSignature,
} from '..';
import { SecretBox } from './secret-box';

describe('#44 webhook signing by the Standard Webhooks specification, checked with its own package', () => {
  // The published Standard Webhooks / Svix test vector.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const timestamp = 1614265330;
  const body = '{"test": 2432232314}';
  const now = () => Math.floor(Date.now() / 1000);
  const asReceived = (headers: WebhookHeaders) => ({
    id: headers['webhook-id'],
    timestamp: headers['webhook-timestamp'],
    signature: headers['webhook-signature'],
  });
  const theirs = (key = secret) => new Webhook(key);
  const parsedBody = { test: 2432232314 };

  it('signs "<id>.<timestamp>.<body>" with HMAC-SHA256 under the key, as "v1,<base64>" (known vector)', () => {
    expect(webhookSignature(secret, id, timestamp, body)).toBe('g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(signWebhook(secret, id, timestamp, body)).toEqual({
      'webhook-id': id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
    const theirSignature = theirs().sign(id, new Date(timestamp * 1000), body);
    expect(signWebhook(secret, id, timestamp, body)['webhook-signature']).toBe(theirSignature);
  });

  it('what we sign, the package verifies (and refuses a changed body or another secret)', () => {
    const headers = signWebhook(secret, id, now(), body);
    expect(theirs().verify(body, { ...headers })).toEqual(parsedBody);
    expect(() => theirs().verify(`${body} `, { ...headers })).toThrow(WebhookVerificationError);
    expect(() => theirs(newWebhookSecret()).verify(body, { ...headers })).toThrow(WebhookVerificationError);
  });

  it('what the package signs, we verify; we refuse a changed body, another secret or an old timestamp', () => {
    const signed = { id, timestamp: String(timestamp), signature: theirs().sign(id, new Date(timestamp * 1000), body) };
    expect(verifyWebhook(secret, signed, body, timestamp + 10)).toBe(true);
    expect(verifyWebhook(secret, signed, `${body} `, timestamp + 10)).toBe(false);
    expect(verifyWebhook(newWebhookSecret(), signed, body, timestamp + 10)).toBe(false);
    expect(verifyWebhook(secret, signed, body, timestamp + 301)).toBe(false);
  });

  it('the header is a space-separated list (rotation): any v1 entry may match, "v1=" is none', () => {
    const ours = signWebhook(secret, id, now(), body);
    const signature = ours['webhook-signature'];
    const listed = { ...ours, 'webhook-signature': `v1,AAAA v1a,hnO3f9T8Ytu9HwrXslvumlUpqtNVqkhqw ${signature}` };
    expect(theirs().verify(body, listed)).toEqual(parsedBody);
    expect(verifyWebhook(secret, asReceived(listed), body)).toBe(true);
    const withVersion = (version: string) => ({ ...asReceived(ours), signature: signature.replace('v1,', version) });
    expect(verifyWebhook(secret, withVersion('v1='), body)).toBe(false);
    expect(verifyWebhook(secret, withVersion('v1a,'), body)).toBe(false);
  });

  it('makes secrets: whsec_ + base64 (standard alphabet, padded) of 32 bytes, all accepted by the package', () => {
    const made = Array.from({ length: 64 }, () => newWebhookSecret());
    expect(new Set(made).size).toBe(made.length);
    for (const secret of made) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
      expect(theirs(secret).verify(body, { ...signWebhook(secret, id, now(), body) })).toEqual(parsedBody);
    }
  });

  it('a pre-#44 secret (base64url) keeps its key: re-encoded in base64 (README), the package verifies', () => {
    const keyBytes = Buffer.from('fbff3e' + 'a1'.repeat(29), 'hex');
    const issued = `whsec_${keyBytes.toString('base64url')}`;
    expect(issued).toMatch(/[-_]/);
    // The package's base64 decoder refuses "-" and "_": the subscriber re-encodes the secret once.
    expect(() => theirs(issued)).toThrow();
    const reEncoded = 'whsec_' + Buffer.from(issued.slice(6), 'base64url').toString('base64');
    const headers = signWebhook(issued, id, now(), body);
    expect(headers).toEqual(signWebhook(reEncoded, id, Number(headers['webhook-timestamp']), body));
    expect(theirs(reEncoded).verify(body, { ...headers })).toEqual(parsedBody);
    expect(verifyWebhook(issued, asReceived(headers), body)).toBe(true);
  });
});

describe('#3 webhook bodies', () => {
  it('builds the seed 002 "Events" body exactly, in its field order', () => {
    expect(documentReceivedBody({ documentId: '0b9b5f9e-6b4a-8c1d-9e2f-000000000001', documentNumber: 'INV-1' })).toBe(
      '{"Event":"DocumentReceived","EventType":"PeppolReceived","EventGroup":"Invoice","uuid":"0b9b5f9e-6b4a-8c1d-9e2f-000000000001","DocumentId":"INV-1","Status":"Delivered"}',
    );
  });
});

describe('#3 secrets at rest (AES-256-GCM)', () => {
  const key = Buffer.alloc(32, 7);

  it('opens what it sealed; every seal differs; a tampered or foreign seal does not open', () => {
    const box = SecretBox.fromKey(key);
    const sealed = box.seal('whsec_abc');
    expect(sealed).not.toContain('whsec_abc');
    expect(box.seal('whsec_abc')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('whsec_abc');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('whsec_abd').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => SecretBox.fromKey(Buffer.alloc(32, 8)).open(sealed)).toThrow();
  });

  it('refuses to start in production without SECRETS_KEY, and refuses a key that is not 32 bytes', () => {
    expect(() => SecretBox.fromEnv({ NODE_ENV: 'production' })).toThrow(/SECRETS_KEY/);
    expect(() => SecretBox.fromEnv({ SECRETS_KEY: Buffer.alloc(16).toString('base64') })).toThrow(/32 bytes/);
    expect(SecretBox.fromEnv({ NODE_ENV: 'production', SECRETS_KEY: key.toString('base64') }).open(SecretBox.fromKey(key).seal('x'))).toBe('x');
  });
});
