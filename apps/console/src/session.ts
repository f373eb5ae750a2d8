/**
 * The credential of this tab: sessionStorage only, so it dies with the tab (never localStorage, never a URL or
 * a cookie the browser would send by itself). A reload of the tab keeps it; a new tab signs in again. With it,
 * whose it is (GET /v1/whoami): an account's (tenant) or an operator's, which decides the pages offered (the API decides what
 * each may do: a page offered in error would only show the API's 403).
 */
export type CallerKind = 'tenant' | 'operator';

export interface Session {
  readonly credential: string;
  readonly kind: CallerKind;
  /** The account's or the operator's name, as GET /v1/whoami answered it. */
  readonly name?: string;
}

const KEY = 'einvoice.console.session';

export function storedSession(): Session | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Session | null;
    return value && typeof value.credential === 'string' ? value : null;
  } catch {
    return null;
  }
}

export function storedCredential(): string | null {
  return storedSession()?.credential ?? null;
}

export function storeSession(session: Session): void {
  sessionStorage.setItem(KEY, JSON.stringify(session));
}

export function forgetSession(): void {
  sessionStorage.removeItem(KEY);
}
