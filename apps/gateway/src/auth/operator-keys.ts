import { randomBytes, randomUUID } from 'node:crypto';
import { AppError } from '@einvoice/domain';
import { hashApiKey } from './api-keys';

/**
 * Operator credentials (#50): an operator looks after the installation (dead letters, parked outbox rows,
 * consumer lag, what is stuck), across every account, and acts for none. Its key is sent where a tenant's
 * is (`x-svc-auth-key` or `Authorization: Bearer`), so a client has one sign-in field; the prefix tells
 * the gateway which it is. Stored as a SHA-256 hash only (api-keys.ts says why that is enough).
 */
export const OPERATOR_KEY_PREFIX = 'op_';

export interface Operator {
  readonly id: string;
  readonly name: string;
}

/** What `operators list` shows of one: never its key, only the key's first characters. */
export interface OperatorRecord extends Operator {
  readonly key_prefix: string;
  readonly created_at: string;
  readonly disabled_at: string | null;
}

type Query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

export function generateOperatorKey(): string {
  return `${OPERATOR_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export const isOperatorKey = (credential: string): boolean => credential.startsWith(OPERATOR_KEY_PREFIX);

/** Creates an operator and returns its key; only the hash is stored, the key is shown once. A taken name is a conflict. */
export async function createOperator(query: Query, name: string): Promise<Operator & { api_key: string }> {
  const key = generateOperatorKey();
  const operator = { id: randomUUID(), name };
  const inserted = await query(
    `INSERT INTO operators (id, name, key_hash, key_prefix) VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING RETURNING id`,
    [operator.id, name, hashApiKey(key), key.slice(0, 7)],
  );
  if (!inserted.length) throw new AppError('conflict', 'OPERATOR.EXISTS', `An operator named "${name}" exists already.`, { retriable: false });
  return { ...operator, api_key: key };
}

export async function listOperators(query: Query): Promise<OperatorRecord[]> {
  const rows = await query<{ id: string; name: string; key_prefix: string; created_at: Date; disabled_at: Date | null }>(
    `SELECT id, name, key_prefix, created_at, disabled_at FROM operators ORDER BY created_at, name`,
  );
  return rows.map((r) => ({ id: r.id, name: r.name, key_prefix: r.key_prefix, created_at: r.created_at.toISOString(), disabled_at: r.disabled_at?.toISOString() ?? null }));
}

/** Disables an operator's key for good (its next request is a 401); disabling twice keeps the first time. */
export async function disableOperator(query: Query, name: string): Promise<{ name: string; disabled_at: string }> {
  const rows = await query<{ disabled_at: Date }>(
    `WITH done AS (UPDATE operators SET disabled_at = coalesce(disabled_at, now()) WHERE name = $1 RETURNING disabled_at) SELECT disabled_at FROM done`,
    [name],
  );
  if (!rows[0]) throw new AppError('not_found', 'OPERATOR.NOT_FOUND', `No operator named "${name}".`, { retriable: false });
  return { name, disabled_at: rows[0].disabled_at.toISOString() };
}

/** The enabled operator of a key, by hash; null for an unknown or disabled key. */
export async function operatorOf(query: Query, keyHash: string): Promise<Operator | null> {
  const [row] = await query<Operator>(`SELECT id, name FROM operators WHERE key_hash = $1 AND disabled_at IS NULL`, [keyHash]);
  return row ?? null;
}
