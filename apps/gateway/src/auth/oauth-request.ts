/**
 * The token request of OAuth 2.0 client credentials (RFC 6749 §4.4, §2.3.1), read from a JSON or
 * form body and the Authorization header, and its errors in RFC 6749 §5.2's shape (the token
 * endpoint answers that shape, not the gateway's: OAuth clients parse it).
 */

/** The token endpoint's path: its errors take RFC 6749's shape (http/exception.filter.ts). */
export const OAUTH_TOKEN_PATH = '/v1/oauth/token';

export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type';

/** An RFC 6749 §5.2 error answer. */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** The client authenticated with HTTP Basic: a 401 carries `WWW-Authenticate` (§5.2). */
    readonly basic = false,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  get statusCode(): 400 | 401 {
    return this.error === 'invalid_client' ? 401 : 400;
  }

  get body(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

/** A form body: each parameter with every value it was sent with (RFC 6749 §3.2: none may repeat). */
export type FormParameters = Readonly<Record<string, readonly string[]>>;

/** Parses `application/x-www-form-urlencoded` keeping repeated parameters visible. */
export function parseForm(text: string): FormParameters {
  const parameters: Record<string, string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) (parameters[name] ??= []).push(value);
  return parameters;
}

export interface ClientCredentialsRequest {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly basic: boolean;
}

const PARAMETERS = ['grant_type', 'client_id', 'client_secret', 'scope'] as const;

/**
 * The client's credentials from a token request. `body` is what the body parsers gave: a JSON object
 * or parsed form parameters. @throws OAuthError
 */
export function clientCredentialsRequest(body: unknown, authorization: string | undefined): ClientCredentialsRequest {
  const fields = parameters(body);
  const basic = authorization !== undefined && /^basic\s/i.test(authorization) ? basicCredentials(authorization) : undefined;
  if (!fields.grant_type) throw new OAuthError('invalid_request', 'grant_type is required: client_credentials.', basic !== undefined);
  if (fields.grant_type !== 'client_credentials') {
    throw new OAuthError('unsupported_grant_type', `grant_type ${fields.grant_type} is not supported: use client_credentials.`, basic !== undefined);
  }
  if (basic) {
    // §2.3: one authentication method per request.
    if (fields.client_secret) throw new OAuthError('invalid_request', 'Send the client secret either in the Authorization header or in the body, not both.', true);
    if (fields.client_id && fields.client_id !== basic.clientId) throw new OAuthError('invalid_request', 'client_id in the body differs from the Authorization header.', true);
    return { ...basic, basic: true };
  }
  if (!fields.client_id) throw new OAuthError('invalid_request', 'client_id is required (in the body, or HTTP Basic authentication).');
  if (!fields.client_secret) throw new OAuthError('invalid_request', 'client_secret is required (in the body, or HTTP Basic authentication).');
  return { clientId: fields.client_id, clientSecret: fields.client_secret, basic: false };
}

/** The known parameters as single strings; an empty one counts as absent (§3.1). */
function parameters(body: unknown): Partial<Record<(typeof PARAMETERS)[number], string>> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new OAuthError('invalid_request', 'Send the parameters as a JSON object or a form.');
  const fields: Partial<Record<(typeof PARAMETERS)[number], string>> = {};
  for (const name of PARAMETERS) {
    const raw = (body as Record<string, unknown>)[name];
    const values = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
    if (values.length > 1) throw new OAuthError('invalid_request', `${name} is sent more than once.`);
    if (values.length === 1 && typeof values[0] !== 'string') throw new OAuthError('invalid_request', `${name} must be a string.`);
    if (values[0]) fields[name] = values[0] as string;
  }
  return fields;
}

/** RFC 6749 §2.3.1: `Basic base64(urlencode(id) ":" urlencode(secret))`. */
function basicCredentials(header: string): { clientId: string; clientSecret: string } {
  const decoded = Buffer.from(header.replace(/^basic\s+/i, '').trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) throw new OAuthError('invalid_client', 'The Authorization header is not HTTP Basic client authentication.', true);
  try {
    return { clientId: decodeURIComponent(decoded.slice(0, colon)), clientSecret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError('invalid_client', 'The Authorization header is not HTTP Basic client authentication.', true);
  }
}
