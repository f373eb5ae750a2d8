/**
 * The secrets the tests hand to the service or get from it (API keys, client secrets, portal passwords,
 * tokens, webhook secrets, private keys), written to TEST_SECRETS_FILE: after the suite, `npm test`
 * checks that none of them appears in any app's log line (scripts/lib/log-secrets.mjs).
 */
import { appendFileSync } from 'node:fs';
import { SECRET_FIELD } from '../../libs/domain/src/log';

const recorded = new Set<string>();

export function recordSecret(value: unknown): void {
  const file = process.env.TEST_SECRETS_FILE;
  if (!file || typeof value !== 'string' || value.length < 8 || value === '[redacted]' || recorded.has(value)) return;
  recorded.add(value);
  appendFileSync(file, `${JSON.stringify(value)}\n`);
}

/** Every string under a secret-named key, at any depth of a JSON body. */
export function recordSecretsIn(body: unknown, depth = 0): void {
  if (depth > 20 || body === null || typeof body !== 'object') return;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (typeof value === 'string' && SECRET_FIELD.test(key) && !/^(token_?type)$/i.test(key)) recordSecret(value);
    else recordSecretsIn(value, depth + 1);
  }
}
