import { documentReceivedBody, newWebhookSecret, signWebhook, verifyWebhook, webhookSignature } from '..';
import { SecretBox } from './secret-box';

describe('#3 webhook signing (Standard Webhooks scheme)', () => {
  // The published Standard Webhooks / Svix test vector.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const timestamp = 1614265330;
  const body = '{"test": 2432232314}';

  it('signs "<id>.<timestamp>.<body>" with HMAC-SHA256 under the decoded secret (known vector)', () => {
    expect(webhookSignature(secret, id, timestamp, body)).toBe('g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(signWebhook(secret, id, timestamp, body)).toEqual({
      'Webhook-Id': id,
      'Webhook-Timestamp': '1614265330',
      'Webhook-Signature': 'v1=g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('verifies its own signature and refuses a changed body, another secret or an old timestamp', () => {
    const signature = signWebhook(secret, id, timestamp, body)['Webhook-Signature'];
    const headers = { id, timestamp: String(timestamp), signature };
    expect(verifyWebhook(secret, headers, body, timestamp + 10)).toBe(true);
    expect(verifyWebhook(secret, headers, `${body} `, timestamp + 10)).toBe(false);
    expect(verifyWebhook(newWebhookSecret(), headers, body, timestamp + 10)).toBe(false);
    expect(verifyWebhook(secret, headers, body, timestamp + 301)).toBe(false);
    expect(verifyWebhook(secret, { ...headers, signature: `v1=AAAA ${signature}` }, body, timestamp)).toBe(true);
  });

  it('makes secrets of whsec_ + 32 random bytes in base64url', () => {
    const made = newWebhookSecret();
    expect(made).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(made.slice(6), 'base64url')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(made);
  });

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
