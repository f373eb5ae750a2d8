/**
 * Sign-in, two ways (#50): with an API key (or an OAuth access token, which the same header takes), or with an
 * OAuth client's id and secret, exchanged at POST /v1/oauth/token for an access token. Either credential is then
 * checked by asking the API whose it is (GET /v1/whoami): an account's (`tenant`) or an operator's, which decides
 * the pages the console offers. A refusal is shown as the API answered it, with its request id. A session that
 * ended by itself (an access token that expired, a credential the API no longer takes) is said above the forms,
 * with the client's id filled in again.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, getJsonWith, postJsonWithout } from '../api';
import type { AccessToken, Caller } from '../model';
import { type Session, type SessionEnd, storeSession } from '../session';
import { ErrorBox, Field, usePageTitle } from '../ui';

async function whoseKey(credential: string): Promise<Session> {
  const { data } = await getJsonWith<{ data: Caller }>('/v1/whoami', credential);
  return { credential, kind: data.kind, name: data.name };
}

/** The client's credentials exchanged for an access token (RFC 6749 §4.4), then whose it is. */
async function clientSession(clientId: string, clientSecret: string): Promise<Session> {
  // Asked before the request: the expiry the tab counts errs early by the request's duration, never late.
  const askedAt = Date.now();
  const token = await postJsonWithout<AccessToken>('/v1/oauth/token', { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
  const session = await whoseKey(token.access_token);
  return { ...session, client: { clientId, expiresAt: askedAt + token.expires_in * 1000 } };
}

/** One sign-in form's submission: its fields, read, checked and turned into a session. */
function useSignIn(onSignedIn: (session: Session) => void, signIn: (fields: FormData) => Promise<Session> | ApiError) {
  const [state, setState] = useState<{ busy: boolean; error?: unknown }>({ busy: false });
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const started = signIn(new FormData(form));
    if (started instanceof ApiError) return setState({ busy: false, error: started });
    setState({ busy: true });
    try {
      const session = await started;
      storeSession(session);
      form.reset();
      onSignedIn(session);
    } catch (error) {
      setState({ busy: false, error });
    }
  };
  return { ...state, submit };
}

const text = (fields: FormData, name: string) => String(fields.get(name) ?? '').trim();

export function SignIn({ onSignedIn, ended }: { onSignedIn: (session: Session) => void; ended?: SessionEnd }) {
  usePageTitle('Sign in');
  const withKey = useSignIn(onSignedIn, (fields) => {
    const credential = text(fields, 'api_key');
    return credential ? whoseKey(credential) : new ApiError(0, 'Type your API key.', null);
  });
  const withClient = useSignIn(onSignedIn, (fields) => {
    const [clientId, clientSecret] = [text(fields, 'client_id'), text(fields, 'client_secret')];
    if (!clientId || !clientSecret) return new ApiError(0, 'Type the client\'s id and its secret.', null);
    return clientSession(clientId, clientSecret);
  });
  // After a client's session ended, its secret is the one field left to type: the focus waits there.
  const secret = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ended?.clientId) secret.current?.focus();
  }, [ended]);

  return (
    <main id="main" class="sign-in">
      <h1>E-invoicing console</h1>
      {ended && (
        <>
          <p class="notice session-ended" role="alert">
            {ended.message}
          </p>
          <ErrorBox error={ended.error} />
        </>
      )}
      <section aria-labelledby="with-key">
        <h2 id="with-key">With an API key</h2>
        <form method="post" class="sign-in-key" onSubmit={withKey.submit} aria-describedby="key-note">
          <Field label="API key">
            <input name="api_key" type="password" autoComplete="off" spellcheck={false} required aria-required="true" />
          </Field>
          <p id="key-note" class="note">
            An account's API key (<code>sk_…</code>), an OAuth access token (<code>at_…</code>) or an operator's key. It is kept in this tab only, and forgotten when you sign
            out or close the tab.
          </p>
          <button type="submit" disabled={withKey.busy}>
            {withKey.busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        <ErrorBox error={withKey.error} />
      </section>
      <section aria-labelledby="with-client">
        <h2 id="with-client">With an OAuth client</h2>
        <form method="post" class="sign-in-client" onSubmit={withClient.submit} aria-describedby="client-note">
          <Field label="Client ID">
            <input name="client_id" autoComplete="off" spellcheck={false} required aria-required="true" defaultValue={ended?.clientId} />
          </Field>
          <Field label="Client secret">
            <input ref={secret} name="client_secret" type="password" autoComplete="off" spellcheck={false} required aria-required="true" />
          </Field>
          <p id="client-note" class="note">
            An account's OAuth client (<code>POST /v1/oauth/clients</code>, or <code>cli clients create</code>). Its secret buys an access token, which this tab keeps until it
            expires (an hour, unless the gateway says otherwise); the secret itself is not kept, so you type it again then.
          </p>
          <button type="submit" disabled={withClient.busy}>
            {withClient.busy ? 'Signing in…' : 'Sign in with the client'}
          </button>
        </form>
        <ErrorBox error={withClient.error} />
      </section>
    </main>
  );
}
