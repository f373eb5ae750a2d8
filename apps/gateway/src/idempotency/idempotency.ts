import { createHash } from 'node:crypto';
import { AppError, SecretBox, issue } from '@einvoice/domain';
import { registeredAreas, supplierHeaderOf } from '@einvoice/areas';
import type { UnitOfWork } from '@einvoice/domain/infrastructure';
import type { FastifyRequest } from 'fastify';
import { seedHeader } from '../http/seed-headers';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** What a command needs to make its answer replayable: stored in the same transaction as its effects. */
export interface IdempotencyContext {
  readonly tenantId: string;
  readonly key: string;
  readonly requestHash: string;
}

/** JSON with sorted keys, so that the same body hashes the same whatever its key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Headers that change what a POST does; part of "the same request": the seed's `supplier_uuid` and
 * `transport_mode`, then the header each area names its supplier by (the registry's, not a list here),
 * in the areas' order. Read by their seed names in either form (`seedHeader`), so `supplier-uuid` and
 * `supplier_uuid` with one value are the same request. Order and names make the stored hash: today's
 * areas give `supplier_uuid, transport_mode, participant-id, cuit`, as before the registry named them.
 */
export const MEANINGFUL_HEADERS = [...new Set(['supplier_uuid', 'transport_mode', ...registeredAreas().map(supplierHeaderOf)])];

const secrets = SecretBox.fromEnv();
/** Prefix of the keyed digests; a stored hash without it is a bare SHA-256 of an earlier version. */
const KEYED = 'v2:';

function requestText(request: FastifyRequest): string {
  const headers = MEANINGFUL_HEADERS.map((h) => `${h}=${seedHeader(request.headers, h) ?? ''}`).join('&');
  return `${request.method} ${request.routeOptions.url ?? request.url}\n${request.url}\n${headers}\n${canonical(request.body)}`;
}

/**
 * What identifies "the same request" at rest: an HMAC under a key derived from SECRETS_KEY, so a
 * reader of the database cannot confirm a guessed body (a client secret in it) offline.
 */
export function requestHash(request: FastifyRequest): string {
  return `${KEYED}${secrets.mac('idempotency request', requestText(request))}`;
}

/** Whether a stored hash is of this request: keyed, or (recorded before keyed digests) bare SHA-256. */
export function sameRequest(stored: string, request: FastifyRequest, hash: string): boolean {
  if (stored.startsWith(KEYED)) return stored === hash;
  return stored === createHash('sha256').update(requestText(request)).digest('hex');
}

export function readIdempotencyKey(request: FastifyRequest): string | undefined {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new AppError('validation', 'IDEMPOTENCY.INVALID_KEY', 'Idempotency-Key must be 1 to 255 visible ASCII characters.', {
      issues: [issue('headers.Idempotency-Key', 'FIELD.INVALID_FORMAT', 'Idempotency-Key must be 1 to 255 visible ASCII characters.')],
    });
  }
  return key;
}

/** Stores the answer with the effects; a crash before commit leaves neither, so a retry redoes both. */
export async function recordResponse(
  uow: UnitOfWork,
  context: IdempotencyContext | undefined,
  statusCode: number,
  body: unknown,
): Promise<void> {
  if (!context) return;
  await uow.recordIdempotentResponse({ ...context, statusCode, body });
}
