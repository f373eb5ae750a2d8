/**
 * The `Idempotency-Key` header as the OpenAPI document describes it (README "Idempotency-Key": Stripe's
 * semantics, idempotency/idempotency.ts), for `@ApiHeader({ ...idempotencyKeyHeader() })`; `what` adds
 * what a replay of this route answers, where it differs.
 */
export const idempotencyKeyHeader = (what?: string) => ({
  name: 'Idempotency-Key',
  required: false,
  description:
    'Optional, 1–255 visible ASCII characters, kept per account for 24 hours by default: the same key with the same request replays the first answer ' +
    '(header `idempotent-replayed: true`) and creates nothing; with another request it is a 409 `IDEMPOTENCY.KEY_REUSED`.' +
    (what ? ` ${what}` : ''),
  example: 'c5a1e0f2-7d3b-4b8e-9f61-2a4d8c0e7b13',
});
