/**
 * Suppliers (GET /v1/suppliers and /v1/suppliers/{id}): the list, one supplier's profile, the change its area
 * allows (PATCH: the fields `editable_fields` names, checked by the area's onboarding rules) and deactivation
 * (DELETE: its new documents are refused, everything stays readable).
 */
import { useState } from 'preact/hooks';
import { type Page, getJson, sendJson } from '../api';
import { time } from '../format';
import { AREAS, type SupplierDetail, type SupplierSummary, areaName } from '../model';
import { useCursor } from '../paging';
import { href } from '../router';
import { ErrorBox, Field, JsonBlock, LoadingLine, Pager, State, TimesNote, useLoad, usePageTitle, useRenderedMark } from '../ui';

export function SuppliersPage() {
  usePageTitle('Suppliers');
  const cursor = useCursor();
  const [area, setArea] = useState('');
  const page = useLoad(() => getJson<Page<SupplierSummary>>('/v1/suppliers', { area, limit: 20, starting_after: cursor.after }), `${area}/${cursor.after}`);
  useRenderedMark('suppliers', page);
  const rows = page.data?.data ?? [];
  return (
    <section aria-labelledby="suppliers-title">
      <h1 id="suppliers-title">Suppliers</h1>
      <form class="filters" role="search" aria-label="Filter suppliers" onSubmit={(e) => e.preventDefault()}>
        <Field label="Area">
          <select
            name="area"
            value={area}
            onChange={(e) => {
              cursor.reset();
              setArea((e.currentTarget as HTMLSelectElement).value);
            }}
          >
            <option value="">Every area</option>
            {AREAS.map(([code, name]) => (
              <option key={code} value={code}>
                {name} ({code})
              </option>
            ))}
          </select>
        </Field>
      </form>
      <LoadingLine loading={page.loading} label="suppliers" />
      <ErrorBox error={page.error} />
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Suppliers">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Area</th>
              <th scope="col">Identifiers</th>
              <th scope="col">Status</th>
              <th scope="col">Onboarded</th>
            </tr>
          </thead>
          <tbody aria-busy={page.loading}>
            {rows.map((s) => (
              <tr key={s.id}>
                <td>
                  <a href={href(['suppliers', s.id])}>{s.name}</a>
                </td>
                <td>
                  <abbr title={areaName(s.area)}>{s.area}</abbr>
                </td>
                <td>{s.identifiers.map((i) => `${i.scheme} ${i.id}`).join(', ')}</td>
                <td>
                  <State value={s.status} />
                </td>
                <td>{time(s.created_at)}</td>
              </tr>
            ))}
            {!page.loading && !page.error && rows.length === 0 && (
              <tr>
                <td colSpan={5} class="empty">
                  No supplier yet.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <Pager label="Suppliers" previous={cursor.previous} next={page.data?.has_more && rows.length ? () => cursor.next(rows[rows.length - 1].id) : undefined} />
      <TimesNote />
    </section>
  );
}

/** The value an editable field has now, where the detail shows it under the onboarding body's name. */
function currentValue(s: SupplierDetail, field: string): unknown {
  const contact: Record<string, string | undefined> = { contact_name: s.contact.name, contact_email: s.contact.email, contact_number: s.contact.phone };
  if (field === 'registered_name') return s.name;
  return s.address[field] ?? s.details[field] ?? contact[field];
}

const asText = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value));

export function SupplierPage({ id }: { id: string }) {
  const loaded = useLoad(async () => (await getJson<{ data: SupplierDetail }>(`/v1/suppliers/${encodeURIComponent(id)}`)).data, id);
  const s = loaded.data;
  usePageTitle(s ? `Supplier ${s.name}` : 'Supplier');
  const [outcome, setOutcome] = useState<{ error?: unknown; message?: string }>({});

  const save = async (event: Event) => {
    event.preventDefault();
    if (!s) return;
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const change: Record<string, unknown> = {};
    for (const field of s.editable_fields) {
      const before = currentValue(s, field);
      const text = String(form.get(field) ?? '');
      if (text === asText(before)) continue;
      // A field that is not text (Argentina's points of sale) is edited as JSON; an emptied one is removed (null).
      change[field] = text === '' ? null : typeof before === 'string' || before === undefined ? text : safeJson(text);
    }
    if (!Object.keys(change).length) return setOutcome({ message: 'Nothing changed.' });
    try {
      await sendJson('PATCH', `/v1/suppliers/${s.id}`, change);
      setOutcome({ message: `Saved: ${Object.keys(change).join(', ')}.` });
      loaded.reload();
    } catch (error) {
      setOutcome({ error });
    }
  };
  const deactivate = async () => {
    if (!s || !confirm(`Deactivate ${s.name}? Its new documents will be refused.`)) return;
    try {
      await sendJson('DELETE', `/v1/suppliers/${s.id}`);
      setOutcome({ message: 'Deactivated.' });
      loaded.reload();
    } catch (error) {
      setOutcome({ error });
    }
  };

  return (
    <section aria-labelledby="supplier-title">
      <p class="breadcrumb">
        <a href={href(['suppliers'])}>Suppliers</a>
      </p>
      <h1 id="supplier-title">{s ? s.name : 'Supplier'}</h1>
      <LoadingLine loading={loaded.loading} label="the supplier" />
      <ErrorBox error={loaded.error} />
      {s && (
        <>
          <dl class="facts">
            <dt>Area</dt>
            <dd>
              {areaName(s.area)} ({s.area})
            </dd>
            <dt>Status</dt>
            <dd>
              <State value={s.status} />
            </dd>
            <dt>Identifiers</dt>
            <dd>{s.identifiers.map((i) => `${i.scheme} ${i.id}`).join(', ')}</dd>
            <dt>Address</dt>
            <dd>{Object.values(s.address).join(', ')}</dd>
            <dt>Contact</dt>
            <dd>{Object.values(s.contact).join(', ') || '—'}</dd>
            <dt>Peppol ids</dt>
            <dd>{s.participant_ids.join(', ') || '—'}</dd>
            <dt>Onboarded</dt>
            <dd>{time(s.created_at)}</dd>
            <dt>Changed</dt>
            <dd>{time(s.updated_at)}</dd>
            <dt>Id</dt>
            <dd>
              <code>{s.id}</code>
            </dd>
          </dl>
          <p>
            <a href={`#/documents?supplier_id=${s.id}`}>Its documents</a>
          </p>
          {Object.keys(s.details).length > 0 && <JsonBlock value={s.details} label="Its area's onboarding fields" />}
          <div role="status" aria-live="polite" class="outcome">
            {outcome.message}
          </div>
          <ErrorBox error={outcome.error} />
          {s.status === 'active' && s.editable_fields.length > 0 && (
            <form class="edit" onSubmit={save} aria-labelledby="edit-title" key={s.updated_at ?? s.created_at}>
              <h2 id="edit-title">Change</h2>
              <p class="note">Names as in the area's onboarding body. An emptied field is removed.</p>
              <div class="grid">
                {s.editable_fields.map((field) => (
                  <Field key={field} label={field}>
                    <input name={field} defaultValue={asText(currentValue(s, field))} autoComplete="off" />
                  </Field>
                ))}
              </div>
              <div class="actions">
                <button type="submit">Save changes</button>
              </div>
            </form>
          )}
          {s.status === 'active' && (
            <div class="danger actions">
              <button type="button" class="danger" onClick={deactivate}>
                Deactivate supplier
              </button>
            </div>
          )}
        </>
      )}
      <TimesNote />
    </section>
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

