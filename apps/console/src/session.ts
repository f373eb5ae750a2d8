/**
 * The credential of this tab: sessionStorage only, so it dies with the tab (never localStorage, never a URL or
 * a cookie the browser would send by itself). A reload of the tab keeps it; a new tab signs in again. With it,
 * whose it is (GET /v1/whoami): an account's (tenant) or an operator's, which decides the pages offered (the API decides what
 * each may do: a page offered in error would only show the API's 403).
 *
 * Signed in with an OAuth client, the credential is the access token its id and secret were exchanged for, and the
 * tab keeps the client's id and when the token expires, never the secret (README "The web console"): at expiry the
 * session ends and the sign-in form asks for the secret again, the client's id filled in.
 */
import { time } from './format';

export type CallerKind = 'tenant' | 'operator';

/** An OAuth client's sign-in: which client, and when its access token stops working. */
export interface ClientGrant {
  readonly clientId: string;
  /**
   * When the token expires (epoch ms by this browser's clock): the time the token was asked for plus `expires_in`,
   * so a browser clock off from the gateway's does not matter, and the request's own duration errs on the early side.
   */
  readonly expiresAt: number;
}

export interface Session {
  readonly credential: string;
  readonly kind: CallerKind;
  /** The account's or the operator's name, as GET /v1/whoami answered it. */
  readonly name?: string;
  /** Signed in with an OAuth client: `credential` is its access token (`at_…`). */
  readonly client?: ClientGrant;
}

/** Why a session ended other than by signing out: what the sign-in page says, and the client to sign in with again. */
export interface SessionEnd {
  readonly message: string;
  /** The API's refusal that ended it (shown with its request id); none when the tab's clock ended it. */
  readonly error?: unknown;
  readonly clientId?: string;
}

const KEY = 'einvoice.console.session';
const ENDED = 'einvoice.console.session-ended';

/**
 * A token is treated as expired this long before the gateway would: a request sent in its last seconds would
 * arrive after it (a refusal where the person expected a page).
 */
export const EXPIRY_MARGIN_MS = 10_000;

export function storedSession(): Session | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Session | null;
    return value && typeof value.credential === 'string' ? value : null;
  } catch {
    return null;
  }
}

export function storeSession(session: Session): void {
  sessionStorage.setItem(KEY, JSON.stringify(session));
}

export function forgetSession(): void {
  sessionStorage.removeItem(KEY);
}

/** Whether the session's access token has expired (or is about to); an API key's session never does. */
export function tokenExpired(session: Session, now = Date.now()): boolean {
  return session.client !== undefined && now >= session.client.expiresAt - EXPIRY_MARGIN_MS;
}

/**
 * The end of a client's session whose token expired: by the tab's clock (said with when), or as the API answered
 * (`error`; when, by the gateway's clock, is not the tab's to say: a laptop that slept, a token lifetime shortened).
 */
export function expiredEnd(session: Session, error?: unknown): SessionEnd {
  const at = session.client && !error ? ` at ${time(new Date(session.client.expiresAt).toISOString())}` : '';
  return {
    message: `Your access token expired${at}. Sign in again with the client's secret: the console does not keep it.`,
    error,
    clientId: session.client?.clientId,
  };
}

/** Forgets the session and tells the console's shell why (`onSessionEnd`), which shows the sign-in form with it. */
export function endSession(end: SessionEnd): void {
  forgetSession();
  dispatchEvent(new CustomEvent<SessionEnd>(ENDED, { detail: end }));
}

/** Calls `listener` when a session ends other than by signing out; returns the unsubscription. */
export function onSessionEnd(listener: (end: SessionEnd) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<SessionEnd>).detail);
  addEventListener(ENDED, handler);
  return () => removeEventListener(ENDED, handler);
}
