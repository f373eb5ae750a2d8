import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signing, Standard Webhooks / Svix scheme: the secret is `whsec_` + base64url of 32
 * random bytes; the HMAC-SHA256 key is those 32 bytes; the signed content is
 * `<Webhook-Id>.<Webhook-Timestamp>.<body>`; the header is `Webhook-Signature: v1=<base64>`.
 */
export const SECRET_PREFIX = 'whsec_';

/** The headers of one signed delivery attempt. */
export interface WebhookHeaders {
  readonly 'Webhook-Id': string;
  readonly 'Webhook-Timestamp': string;
  readonly 'Webhook-Signature': string;
}

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

function keyOf(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('not a webhook secret');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64url');
}

/** base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` under the secret's key. */
export function webhookSignature(secret: string, id: string, timestamp: number, body: string): string {
  return createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64');
}

export function signWebhook(secret: string, id: string, timestamp: number, body: string): WebhookHeaders {
  return {
    'Webhook-Id': id,
    'Webhook-Timestamp': String(timestamp),
    'Webhook-Signature': `v1=${webhookSignature(secret, id, timestamp, body)}`,
  };
}

/**
 * What a receiver does (README snippet): recompute, compare in constant time, refuse a
 * timestamp older or newer than `toleranceSeconds` (replay protection). The header may carry
 * several space-separated `v1=` signatures during a secret rotation.
 */
export function verifyWebhook(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  now = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(now - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(webhookSignature(secret, headers.id, timestamp, body), 'base64');
  return headers.signature.split(' ').some((part) => {
    if (!part.startsWith('v1=')) return false;
    const given = Buffer.from(part.slice(3), 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
