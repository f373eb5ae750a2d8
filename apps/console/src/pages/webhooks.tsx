/**
 * Webhooks (/v1/webhooks): the account's endpoints, registering one (its signing secret shown once), changing,
 * pausing and deleting it, rotating its secret (shown once), sending a test event, and its deliveries with the
 * request body, every attempt's answer, and re-sending one.
 */
import { useEffect, useState } from 'preact/hooks';
import { type Page, getJson, sendJson } from '../api';
import { time } from '../format';
import { ACCOUNT_EVENT_TYPES, AREAS, type Delivery, type Webhook } from '../model';
import { useCursor } from '../paging';
import { href, navigate } from '../router';
import { ErrorBox, Field, JsonBlock, LoadingLine, Pager, State, TimesNote, useLoad, usePageTitle, useRenderedMark } from '../ui';

/** A secret the API answered once: shown until the person leaves the page, never stored. */
function SecretOnce({ secret, what }: { secret: string | null; what: string }) {
  if (!secret) return null;
  return (
    <div class="secret" role="alert">
      <p>{what} Store it now: it is not shown again.</p>
      <code data-secret>{secret}</code>
    </div>
  );
}

const selected = (form: FormData, name: string) => form.getAll(name).map(String);

export function WebhooksPage() {
  usePageTitle('Webhooks');
  const cursor = useCursor();
  const page = useLoad(() => getJson<Page<Webhook>>('/v1/webhooks', { limit: 20, starting_after: cursor.after }), String(cursor.after));
  useRenderedMark('webhooks', page);
  const [created, setCreated] = useState<{ id: string; secret: string | null }>();
  const [failure, setFailure] = useState<unknown>();
  const rows = page.data?.data ?? [];

  const register = async (event: Event) => {
    event.preventDefault();
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    const events = selected(form, 'events');
    const areas = selected(form, 'areas');
    const description = String(form.get('description') ?? '').trim();
    setFailure(undefined);
    try {
      const answer = await sendJson<{ data: Webhook & { secret: string | null } }>('POST', '/v1/webhooks', {
        url: String(form.get('url') ?? '').trim(),
        ...(events.length ? { events } : {}),
        ...(areas.length ? { areas } : {}),
        ...(description ? { description } : {}),
      });
      setCreated({ id: answer!.data.id, secret: answer!.data.secret });
      formElement.reset();
      cursor.reset();
      page.reload();
    } catch (error) {
      setFailure(error);
    }
  };

  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <LoadingLine loading={page.loading} label="webhooks" />
      <ErrorBox error={page.error} />
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Webhook endpoints">
        <table>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Description</th>
              <th scope="col">Events</th>
              <th scope="col">Status</th>
              <th scope="col">Registered</th>
            </tr>
          </thead>
          <tbody aria-busy={page.loading}>
            {rows.map((w) => (
              <tr key={w.id}>
                <td>
                  <a href={href(['webhooks', w.id])}>{w.url}</a>
                </td>
                <td>{w.description ?? '—'}</td>
                <td>{w.events?.join(', ') ?? 'every event'}</td>
                <td>
                  <State value={w.status} />
                  {w.disabled_reason && <span class="sub">{w.disabled_reason}</span>}
                </td>
                <td>{time(w.created_at)}</td>
              </tr>
            ))}
            {!page.loading && !page.error && rows.length === 0 && (
              <tr>
                <td colSpan={5} class="empty">
                  No webhook yet.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <Pager label="Webhooks" previous={cursor.previous} next={page.data?.has_more && rows.length ? () => cursor.next(rows[rows.length - 1].id) : undefined} />

      <form class="edit" onSubmit={register} aria-labelledby="register-title">
        <h2 id="register-title">Register an endpoint</h2>
        <div class="grid">
          <Field label="URL" hint="https://, not a private address">
            <input name="url" type="url" required autoComplete="off" />
          </Field>
          <Field label="Description">
            <input name="description" maxLength={200} autoComplete="off" />
          </Field>
        </div>
        <Choices name="events" legend="Events (none ticked: every event)" options={ACCOUNT_EVENT_TYPES.map((t) => [t, t] as const)} />
        <Choices name="areas" legend="Areas (none ticked: every area)" options={AREAS.map(([code, name]) => [code, `${name} (${code})`] as const)} />
        <div class="actions">
          <button type="submit">Register</button>
        </div>
      </form>
      <ErrorBox error={failure} />
      {created && (
        <>
          <SecretOnce secret={created.secret} what="Registered. Its signing secret:" />
          <p>
            <a href={href(['webhooks', created.id])}>Open the new endpoint</a>
          </p>
        </>
      )}
      <TimesNote />
    </section>
  );
}

function Choices({ name, legend, options, checked = [] }: { name: string; legend: string; options: ReadonlyArray<readonly [string, string]>; checked?: readonly string[] }) {
  return (
    <fieldset class="choices">
      <legend>{legend}</legend>
      {options.map(([value, label]) => (
        <label key={value} class="choice">
          <input type="checkbox" name={name} value={value} defaultChecked={checked.includes(value)} /> {label}
        </label>
      ))}
    </fieldset>
  );
}

export function WebhookPage({ id }: { id: string }) {
  const loaded = useLoad(async () => (await getJson<{ data: Webhook }>(`/v1/webhooks/${encodeURIComponent(id)}`)).data, id);
  const w = loaded.data;
  usePageTitle(w ? `Webhook ${w.url}` : 'Webhook');
  const [outcome, setOutcome] = useState<{ error?: unknown; message?: string; secret?: string | null; test?: Record<string, unknown> }>({});
  const [deliveriesRound, setDeliveriesRound] = useState(0);
  const act = async (work: () => Promise<Partial<typeof outcome>>) => {
    setOutcome({});
    try {
      setOutcome(await work());
    } catch (error) {
      setOutcome({ error });
    }
  };
  const path = `/v1/webhooks/${encodeURIComponent(id)}`;

  const update = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const events = selected(form, 'events');
    const areas = selected(form, 'areas');
    const description = String(form.get('description') ?? '').trim();
    return act(async () => {
      await sendJson('PATCH', path, { url: String(form.get('url') ?? '').trim(), events: events.length ? events : null, areas: areas.length ? areas : null, description: description || null });
      loaded.reload();
      return { message: 'Saved.' };
    });
  };
  const setStatus = (status: 'enabled' | 'disabled') =>
    act(async () => {
      await sendJson('PATCH', path, { status });
      loaded.reload();
      return { message: status === 'enabled' ? 'Enabled.' : 'Disabled.' };
    });
  const rotate = () =>
    act(async () => {
      const answer = await sendJson<{ data: { secret: string | null; previous_secret_expires_at: string } }>('POST', `${path}/rotate-secret`, {});
      loaded.reload();
      return { secret: answer!.data.secret, message: `The previous secret signs too until ${time(answer!.data.previous_secret_expires_at)}.` };
    });
  const remove = () => {
    if (!confirm('Delete this endpoint? Nothing more is sent to it.')) return;
    return act(async () => {
      await sendJson('DELETE', path);
      navigate(href(['webhooks']));
      return {};
    });
  };
  const test = (event: Event) => {
    event.preventDefault();
    const type = String(new FormData(event.currentTarget as HTMLFormElement).get('type'));
    return act(async () => {
      const answer = await sendJson<{ data: Record<string, unknown> }>('POST', `${path}/test`, { type });
      setDeliveriesRound((n) => n + 1);
      return { test: answer!.data, message: answer!.data.acknowledged ? 'The test event was acknowledged.' : 'The test event was not acknowledged.' };
    });
  };

  return (
    <section aria-labelledby="webhook-title">
      <p class="breadcrumb">
        <a href={href(['webhooks'])}>Webhooks</a>
      </p>
      <h1 id="webhook-title">Webhook</h1>
      <LoadingLine loading={loaded.loading} label="the webhook" />
      <ErrorBox error={loaded.error} />
      {w && (
        <>
          <dl class="facts">
            <dt>URL</dt>
            <dd>
              <code>{w.url}</code>
            </dd>
            <dt>Status</dt>
            <dd>
              <State value={w.status} /> {w.disabled_reason}
            </dd>
            <dt>Events</dt>
            <dd>{w.events?.join(', ') ?? 'every event'}</dd>
            <dt>Areas</dt>
            <dd>{w.areas?.join(', ') ?? 'every area'}</dd>
            <dt>Suppliers</dt>
            <dd>{w.supplier_ids?.join(', ') ?? 'every supplier'}</dd>
            <dt>Previous secret signs until</dt>
            <dd>{time(w.previous_secret_expires_at)}</dd>
            <dt>Registered</dt>
            <dd>{time(w.created_at)}</dd>
          </dl>
          <div class="actions">
            {w.status === 'enabled' ? (
              <button type="button" class="secondary" onClick={() => setStatus('disabled')}>
                Disable
              </button>
            ) : (
              <button type="button" onClick={() => setStatus('enabled')}>
                Enable
              </button>
            )}
            <button type="button" class="secondary" onClick={rotate}>
              Rotate secret
            </button>
            <button type="button" class="danger" onClick={remove}>
              Delete
            </button>
          </div>
          <div role="status" aria-live="polite" class="outcome">
            {outcome.message}
          </div>
          <ErrorBox error={outcome.error} />
          <SecretOnce secret={outcome.secret ?? null} what="The new signing secret:" />
          <form class="inline" onSubmit={test} aria-labelledby="test-title">
            <h2 id="test-title">Send a test event</h2>
            <Field label="Event type">
              <select name="type">
                {ACCOUNT_EVENT_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </Field>
            <button type="submit">Send test event</button>
          </form>
          {outcome.test && <JsonBlock value={outcome.test} label="The test attempt" />}
          <Deliveries path={path} round={deliveriesRound} />
          <form class="edit" onSubmit={update} aria-labelledby="change-title" key={JSON.stringify(w)}>
            <h2 id="change-title">Change</h2>
            <div class="grid">
              <Field label="URL">
                <input name="url" type="url" required defaultValue={w.url} autoComplete="off" />
              </Field>
              <Field label="Description">
                <input name="description" maxLength={200} defaultValue={w.description ?? ''} autoComplete="off" />
              </Field>
            </div>
            <Choices name="events" legend="Events (none ticked: every event)" options={ACCOUNT_EVENT_TYPES.map((t) => [t, t] as const)} checked={w.events ?? []} />
            <Choices name="areas" legend="Areas (none ticked: every area)" options={AREAS.map(([code, name]) => [code, `${name} (${code})`] as const)} checked={w.areas ?? []} />
            <div class="actions">
              <button type="submit">Save changes</button>
            </div>
          </form>
        </>
      )}
      <TimesNote />
    </section>
  );
}

/** The endpoint's deliveries, newest first; refreshed every few seconds while one is pending (a re-send). */
function Deliveries({ path, round }: { path: string; round: number }) {
  const cursor = useCursor();
  const [status, setStatus] = useState('');
  const [tick, setTick] = useState(0);
  const page = useLoad(() => getJson<Page<Delivery>>(`${path}/deliveries`, { status, limit: 20, starting_after: cursor.after }), `${status}/${cursor.after}/${round}/${tick}`);
  const [outcome, setOutcome] = useState<{ error?: unknown; message?: string }>({});
  const rows = page.data?.data ?? [];
  const pending = rows.some((d) => d.status === 'pending');
  useEffect(() => {
    if (!pending || page.loading) return;
    const timer = setTimeout(() => setTick((n) => n + 1), 2000);
    return () => clearTimeout(timer);
  }, [pending, page.loading]);
  const resend = async (delivery: Delivery) => {
    setOutcome({});
    try {
      await sendJson('POST', `${path}/deliveries/${delivery.id}/resend`, {});
      setOutcome({ message: `Delivery of ${delivery.event_type} queued again.` });
      setTick((n) => n + 1);
    } catch (error) {
      setOutcome({ error });
    }
  };
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      <div class="inline">
        <Field label="Delivery status">
          <select
            name="delivery_status"
            value={status}
            onChange={(e) => {
              cursor.reset();
              setStatus((e.currentTarget as HTMLSelectElement).value);
            }}
          >
            <option value="">Any</option>
            <option value="pending">pending</option>
            <option value="delivered">delivered</option>
            <option value="failed">failed</option>
          </select>
        </Field>
        <button type="button" class="secondary" onClick={() => setTick((n) => n + 1)}>
          Refresh
        </button>
      </div>
      <div role="status" aria-live="polite" class="outcome">
        {outcome.message}
      </div>
      <ErrorBox error={outcome.error} />
      <LoadingLine loading={page.loading} label="deliveries" />
      <ErrorBox error={page.error} />
      <ul class="deliveries">
        {rows.map((d) => (
          <li key={d.id} class="delivery" data-delivery-id={d.id}>
            <p>
              <strong>{d.event_type}</strong> <State value={d.status} label="Delivery" /> {d.created_at && <span class="sub">queued {time(d.created_at)}</span>}
              {d.delivered_at && <span class="sub">delivered {time(d.delivered_at)}</span>}
              {d.next_attempt_at && <span class="sub">next attempt {time(d.next_attempt_at)}</span>}
            </p>
            <button type="button" class="secondary" onClick={() => resend(d)} aria-label={`Re-send the ${d.event_type} delivery ${d.id}`}>
              Re-send
            </button>
            <details>
              <summary>Request body (event {d.event_id})</summary>
              <JsonBlock value={d.request_body} label="Request body" />
            </details>
            <ol class="attempts">
              {d.attempts.map((a) => (
                <li key={a.attempt} class="attempt">
                  Attempt {a.attempt}, {time(a.at)}: {a.status_code === null ? 'no answer' : `HTTP ${a.status_code}`} in {a.duration_ms} ms{a.error ? ` (${a.error})` : ''}
                  {a.response_body !== null && <JsonBlock value={a.response_body} label={`Response body of attempt ${a.attempt}`} />}
                </li>
              ))}
            </ol>
          </li>
        ))}
        {!page.loading && !page.error && rows.length === 0 && <li class="empty">No delivery yet.</li>}
      </ul>
      <Pager label="Deliveries" previous={cursor.previous} next={page.data?.has_more && rows.length ? () => cursor.next(rows[rows.length - 1].id) : undefined} />
    </section>
  );
}
