/** The console's shell: sign-in until the tab holds a credential, then the nav and the page of the route. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { DocumentPage } from './pages/document';
import { DocumentsPage } from './pages/documents';
import { OperationsPage } from './pages/operations';
import { SignIn } from './pages/sign-in';
import { SupplierPage, SuppliersPage } from './pages/suppliers';
import { WebhookPage, WebhooksPage } from './pages/webhooks';
import { type Route, href, navigate, useRoute } from './router';
import { type Session, forgetSession, storedSession } from './session';

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

export function App() {
  const [session, setSession] = useState(storedSession);
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

  if (!session) {
    return (
      <SignIn
        onSignedIn={(signedIn) => {
          setSession(signedIn);
          navigate(href([signedIn.kind === 'operator' ? 'operations' : 'documents']));
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
