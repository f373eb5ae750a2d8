/**
 * The console's shell: sign-in until the tab holds a credential, then the nav and the page of the route. A session
 * that ends by itself (an access token's expiry, by the tab's clock or the API's 401) brings the sign-in back with why.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { DocumentPage } from './pages/document';
import { DocumentsPage } from './pages/documents';
import { OperationsPage } from './pages/operations';
import { SignIn } from './pages/sign-in';
import { SupplierPage, SuppliersPage } from './pages/suppliers';
import { WebhookPage, WebhooksPage } from './pages/webhooks';
import { type Route, currentRoute, href, navigate, useRoute } from './router';
import { EXPIRY_MARGIN_MS, type Session, type SessionEnd, endSession, expiredEnd, forgetSession, onSessionEnd, storedSession, tokenExpired } from './session';

/** The nav: an account's pages, or the operator's (each only sees what its credential may). */
const NAV: Readonly<Record<Session['kind'], ReadonlyArray<readonly [segment: string, label: string]>>> = {
  tenant: [
    ['documents', 'Documents'],
    ['suppliers', 'Suppliers'],
    ['webhooks', 'Webhooks'],
  ],
  operator: [['operations', 'Operations']],
};

function page(route: Route, kind: Session['kind']) {
  const [section, id] = route.segments;
  // An account's key on #/operations (a link, a bookmark) is shown the API's own refusal, not another page.
  if (kind === 'operator' || section === 'operations') return <OperationsPage kind={kind} />;
  switch (section) {
    case 'documents':
      return id ? <DocumentPage id={id} /> : <DocumentsPage />;
    case 'suppliers':
      return id ? <SupplierPage id={id} /> : <SuppliersPage />;
    case 'webhooks':
      return id ? <WebhookPage id={id} /> : <WebhooksPage />;
    default:
      return <DocumentsPage />;
  }
}

/** The tab's session at load: one whose token expired meanwhile (a tab reopened the next day) is ended, saying so. */
function sessionAtLoad(): { session: Session | null; ended?: SessionEnd } {
  const session = storedSession();
  if (session && tokenExpired(session)) {
    forgetSession();
    return { session: null, ended: expiredEnd(session) };
  }
  return { session };
}

/** setTimeout's longest delay (2^31 - 1 ms, about 24.8 days): a longer one would fire at once. */
const LONGEST_DELAY_MS = 2 ** 31 - 1;

export function App() {
  const [{ session, ended }, setState] = useState(sessionAtLoad);
  const setSession = (next: Session | null, end?: SessionEnd) => setState({ session: next, ended: end });
  const route = useRoute();
  const main = useRef<HTMLElement>(null);
  const section = route.segments[0] ?? (session?.kind === 'operator' ? 'operations' : 'documents');
  // A new page moves the focus to its content, as a page load would (screen readers announce it).
  const path = route.segments.join('/');
  const first = useRef(true);
  useEffect(() => {
    if (first.current) return void (first.current = false);
    main.current?.focus();
  }, [path]);
  useEffect(() => onSessionEnd((end) => setSession(null, end)), []);
  // A client's token: the session ends when it expires, even in a tab left open on a page that asks nothing more.
  useEffect(() => {
    const client = session?.client;
    if (!session || !client) return;
    const timer = setTimeout(() => tokenExpired(session) && endSession(expiredEnd(session)), Math.min(client.expiresAt - EXPIRY_MARGIN_MS - Date.now(), LONGEST_DELAY_MS));
    return () => clearTimeout(timer);
  }, [session]);

  if (!session) {
    return (
      <SignIn
        ended={ended}
        onSignedIn={(signedIn) => {
          setSession(signedIn);
          // Where the person was (a link, or the page a session ended on), else the credential's first page.
          if (!currentRoute().segments.length) navigate(href([signedIn.kind === 'operator' ? 'operations' : 'documents']));
        }}
      />
    );
  }
  const signOut = () => {
    forgetSession();
    setSession(null);
    navigate('#/');
  };
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), main.current?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <p class="brand">E-invoicing console</p>
        <nav aria-label="Pages">
          <ul>
            {NAV[session.kind].map(([segment, label]) => (
              <li key={segment}>
                <a href={href([segment])} aria-current={section === segment ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" class="secondary sign-out" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {page(route, session.kind)}
      </main>
    </>
  );
}
