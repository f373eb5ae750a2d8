/**
 * Sign-in with an API key (or an OAuth access token, which the same header takes). The key is checked by
 * asking the API for one document (GET /v1/documents?limit=1): an account's key answers 200. An operator's key
 * is refused there (403: operators see no account's documents) and answers the operations routes instead.
 */
import { useState } from 'preact/hooks';
import { ApiError, request } from '../api';
import { type Session, storeSession } from '../session';
import { ErrorBox, Field, usePageTitle } from '../ui';

/** One operations route that takes no parameter: answers an operator's key (#50, the operator API). */
const OPERATOR_PROBE = '/v1/operations/consumer-lag';

async function whoseKey(credential: string): Promise<Session> {
  try {
    await request('GET', '/v1/documents?limit=1', { credential });
    return { credential, kind: 'tenant' };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 403) throw error;
    try {
      await request('GET', OPERATOR_PROBE, { credential });
    } catch {
      throw error;
    }
    return { credential, kind: 'operator' };
  }
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
