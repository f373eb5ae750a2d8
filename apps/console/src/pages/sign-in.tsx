/**
 * Sign-in with an API key (or an OAuth access token, which the same header takes). The key is checked by
 * asking the API whose it is (GET /v1/whoami, #50): an account's (`tenant`) or an operator's, which decides
 * the pages the console offers. A key the API does not know is its 401, shown as it answered.
 */
import { useState } from 'preact/hooks';
import { ApiError, getJsonWith } from '../api';
import { type CallerKind, type Session, storeSession } from '../session';
import { ErrorBox, Field, usePageTitle } from '../ui';

async function whoseKey(credential: string): Promise<Session> {
  const { data } = await getJsonWith<{ data: { kind: CallerKind; id: string; name: string } }>('/v1/whoami', credential);
  return { credential, kind: data.kind, name: data.name };
}

export function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  usePageTitle('Sign in');
  const [state, setState] = useState<{ busy: boolean; error?: unknown }>({ busy: false });
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const credential = String(new FormData(form).get('api_key') ?? '').trim();
    if (!credential) return setState({ busy: false, error: new ApiError(0, 'Type your API key.', null) });
    setState({ busy: true });
    try {
      const session = await whoseKey(credential);
      storeSession(session);
      form.reset();
      onSignedIn(session);
    } catch (error) {
      setState({ busy: false, error });
    }
  };
  return (
    <main id="main" class="sign-in">
      <h1>E-invoicing console</h1>
      <form method="post" onSubmit={submit} aria-describedby="key-note">
        <Field label="API key">
          <input name="api_key" type="password" autoComplete="off" spellcheck={false} required aria-required="true" />
        </Field>
        <p id="key-note" class="note">
          An account's API key (<code>sk_…</code>), an OAuth access token (<code>at_…</code>) or an operator's key. It is kept in this tab only, and forgotten when you sign out
          or close the tab.
        </p>
        <button type="submit" disabled={state.busy}>
          {state.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <ErrorBox error={state.error} />
    </main>
  );
}
