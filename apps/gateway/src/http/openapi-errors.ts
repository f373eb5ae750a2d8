import { PUBLIC_EXTENSION } from '../auth/api-key.guard';
import { OAUTH_TOKEN_PATH } from '../auth/oauth-request';

type Operation = { [PUBLIC_EXTENSION]?: unknown; security?: unknown[]; requestBody?: unknown; parameters?: Array<{ in: string }>; responses: Record<string, unknown> };

/** The answers every operation can give, by what the gateway does before and around any route. */
const COMMON_ERRORS: ReadonlyArray<{ status: string; description: string; applies: (op: Operation) => boolean }> = [
  { status: '400', description: 'Bad input: a field, header, query parameter or the body itself (the one error shape; `errors[].path` names it).', applies: () => true },
  { status: '401', description: 'No credential, or one the gateway does not accept (`x-svc-auth-key` or `Authorization: Bearer`).', applies: (op) => !isPublic(op) },
  { status: '403', description: 'The credential is valid but not for this route: an operator key on an account\'s route (`AUTH.NO_ACCOUNT`), or an account\'s key or token on /v1/operations (`AUTH.OPERATOR_ONLY`).', applies: (op) => !isPublic(op) },
  { status: '404', description: 'No such resource for your account (another account\'s is a 404 too).', applies: (op) => (op.parameters ?? []).some((p) => p.in === 'path') },
  { status: '413', description: 'The body is larger than this route accepts.', applies: (op) => op.requestBody !== undefined },
  { status: '415', description: 'The body is not `application/json`.', applies: (op) => op.requestBody !== undefined },
  { status: '429', description: 'Your account\'s request rate is over its limit; `Retry-After` says when to try again.', applies: (op) => !isPublic(op) },
  { status: '503', description: 'A part the answer needs (PostgreSQL, the broker, an authority) is unavailable; try again (with the same `Idempotency-Key` for a POST).', applies: () => true },
];

/** `@Public()`, before or after tidyOperations turns its mark into `security: []`. */
const isPublic = (op: Operation) => Boolean(op[PUBLIC_EXTENSION]) || (Array.isArray(op.security) && op.security.length === 0);

/**
 * Adds the answers every operation shares (400, 401, 403, 404, 413, 415, 429, 503 as they apply) in the one
 * error shape, where the operation does not document its own: the gateway gives them whatever the route
 * (body limits, media type, rate limits and authentication run before it), so a generated client should
 * know them. The OAuth token endpoint answers RFC 6749's shape instead and documents its own.
 */
export function documentCommonErrors(paths: Record<string, Record<string, unknown>>, errorSchema: object): void {
  for (const [route, item] of Object.entries(paths)) {
    if (route === OAUTH_TOKEN_PATH) continue;
    for (const operation of Object.values(item) as Operation[]) {
      if (typeof operation !== 'object' || operation === null || !operation.responses) continue;
      for (const error of COMMON_ERRORS) {
        if (!(error.status in operation.responses) && error.applies(operation)) {
          operation.responses[error.status] = { description: error.description, content: { 'application/json': { schema: errorSchema } } };
        }
      }
    }
  }
}
