/**
 * #50 What a person does with one document besides reading it: cancel it where its area can (`links.cancel`, the
 * area's own route, with the supplier header the links name), and read the request as the service accepted it
 * (`links.request`). Both through the API the way any client calls it, so the API's authorisation decides.
 */
import { useState } from 'preact/hooks';
import { getJson, request } from '../api';
import { time } from '../format';
import { type AcceptedRequest, type CancelLink, type DocumentDetail, type SupplierDetail } from '../model';
import { ErrorBox, Field, JsonBlock, LoadingLine } from '../ui';

/** The value of the header the area's own routes name the supplier by: its id, or (Argentina's `cuit`) its identifier. */
export function supplierHeaders(d: DocumentDetail, supplier: SupplierDetail | undefined): Record<string, string> {
  const header = d.links?.supplier_header;
  if (!header) return {};
  if (header === 'cuit') return supplier?.identifiers[0] ? { cuit: supplier.identifiers[0].id } : {};
  return { [header]: d.supplier_id };
}

/** What each field of a cancel link asks the person (docs/account-api.md `links.cancel`). */
const FIELD_LABELS: Readonly<Record<string, { readonly label: string; readonly hint: string }>> = {
  reason: { label: 'Reason for cancelling', hint: 'Sent to the authority with the cancellation (1–300 characters).' },
};

interface CancelOutcome {
  readonly message?: string;
  readonly answer?: unknown;
  readonly error?: unknown;
}

/**
 * The cancellation: asked for after a confirmation; the area's answer shown as it came (200 cancelled, 202 the
 * authority not answered yet, or the refusal with its message and request id), then the document reloaded.
 */
export function CancelPanel({ document: d, link, supplier, onDone }: { document: DocumentDetail; link: CancelLink | null; supplier: SupplierDetail | undefined; onDone: () => void }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<CancelOutcome>({});
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!link || !confirm(`Cancel document ${d.number} at its authority? A cancelled document stays cancelled.`)) return;
    setBusy(true);
    setOutcome({});
    try {
      const response = await request(link.method, link.href, { body: { ...link.body, ...values }, headers: supplierHeaders(d, supplier) });
      const answer: unknown = await response.json();
      setOutcome({
        answer,
        message: response.status === 202 ? 'Cancellation asked: the authority has not answered yet (HTTP 202). The timeline shows its answer when it comes.' : `Cancelled (HTTP ${response.status}).`,
      });
    } catch (error) {
      setOutcome({ error });
    } finally {
      setBusy(false);
      // Cancelled, asked or refused: each is a step of the timeline.
      onDone();
    }
  };
  return (
    <section class="panel" aria-labelledby="actions-title">
      <h2 id="actions-title">Actions</h2>
      {!link && <p class="note">No cancellation here: its area has none (a credit note corrects its documents), or your supplier received it.</p>}
      {link && (
        <form class="cancel" onSubmit={submit}>
          {Object.keys(link.body).length > 0 && (
            <p class="note">
              Sends {Object.entries(link.body).map(([name, value]) => `${name} ${value}`).join(', ')} to <code>{link.href}</code>.
            </p>
          )}
          {link.fields.map((name) => (
            <Field key={name} label={FIELD_LABELS[name]?.label ?? name} hint={FIELD_LABELS[name]?.hint}>
              <input
                name={name}
                required
                maxLength={300}
                autoComplete="off"
                value={values[name] ?? ''}
                onInput={(e) => setValues({ ...values, [name]: (e.currentTarget as HTMLInputElement).value })}
              />
            </Field>
          ))}
          <div class="actions">
            <button type="submit" class="danger" disabled={busy}>
              Cancel document
            </button>
          </div>
        </form>
      )}
      <div role="status" aria-live="polite" class="outcome" data-cancel-outcome>
        {outcome.message}
      </div>
      <ErrorBox error={outcome.error} />
      {outcome.answer !== undefined && <JsonBlock value={outcome.answer} label="The cancel route's answer" />}
    </section>
  );
}

/** The request as accepted, read when the person opens it (one request less for a page that only looks). */
export function AcceptedRequestPanel({ href }: { href: string | null }) {
  const [state, setState] = useState<{ data?: AcceptedRequest; error?: unknown; loading: boolean }>({ loading: false });
  const opened = (event: Event) => {
    if (!href || !(event.currentTarget as HTMLDetailsElement).open || state.data || state.loading) return;
    setState({ loading: true });
    getJson<{ data: AcceptedRequest }>(href).then(
      ({ data }) => setState({ data, loading: false }),
      (error) => setState({ error, loading: false }),
    );
  };
  return (
    <section aria-labelledby="request-title">
      <h2 id="request-title">Request as accepted</h2>
      {!href && <p class="note">Your supplier received this document: no request of yours sent it.</p>}
      {href && (
        <details class="accepted-request" onToggle={opened}>
          <summary>The body your call sent, as the service recorded it when it accepted the document</summary>
          <LoadingLine loading={state.loading} label="the request" />
          <ErrorBox error={state.error} />
          {state.data && (
            <>
              <p>
                Accepted <time dateTime={state.data.accepted_at}>{time(state.data.accepted_at)}</time>
              </p>
              <JsonBlock value={state.data.body} label="The request as accepted" />
            </>
          )}
        </details>
      )}
    </section>
  );
}
