/** Documents: the account's documents of every area, newest first, filtered and paged by the API (GET /v1/documents). */
import { useState } from 'preact/hooks';
import { type Page, getJson } from '../api';
import { money, time } from '../format';
import { AREAS, DOCUMENT_STATUSES, type DocumentSummary, type SupplierSummary, areaName } from '../model';
import { href, navigate, useRoute } from '../router';
import { ErrorBox, Field, LoadingLine, Pager, State, TimesNote, useLoad, usePageTitle, useRenderedMark } from '../ui';

/** The list's filters, as `GET /v1/documents` names them (and the page's URL carries them). */
const FILTERS = ['number', 'area', 'direction', 'status', 'supplier_id', 'issued_from', 'issued_to', 'created_from', 'created_to'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

/** A listed document with its other party (#50): the buyer of an outgoing one, the sender of an incoming one; null where it does not say. */
type Listed = DocumentSummary & { readonly counterparty: { readonly name: string | null; readonly id: string | null } };

const PAGE_SIZE = 20;

export function DocumentsPage() {
  usePageTitle('Documents');
  const { query } = useRoute();
  const filters: Filters = Object.fromEntries(FILTERS.map((name) => [name, query.get(name) ?? undefined]).filter(([, v]) => v));
  const after = query.get('starting_after') ?? undefined;
  // The cursors of the pages before this one, for Previous (the API pages forward only).
  const [trail, setTrail] = useState<Array<string | undefined>>([]);
  const key = JSON.stringify({ filters, after });
  const page = useLoad(() => getJson<Page<Listed>>('/v1/documents', { ...filters, limit: PAGE_SIZE, starting_after: after }), key);
  const suppliers = useLoad(() => getJson<Page<SupplierSummary>>('/v1/suppliers', { limit: 100 }), 'suppliers');
  // The rows are the page's content; the suppliers' names fill in when they come.
  useRenderedMark('documents', page);
  const supplierName = (id: string) => suppliers.data?.data.find((s) => s.id === id)?.name;

  const apply = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setTrail([]);
    navigate(href(['documents'], Object.fromEntries(FILTERS.map((name) => [name, String(form.get(name) ?? '').trim() || undefined]))));
  };
  const go = (cursor: string | undefined) => navigate(href(['documents'], { ...filters, starting_after: cursor }));
  const rows = page.data?.data ?? [];
  const next = page.data?.has_more && rows.length ? () => (setTrail([...trail, after]), go(rows[rows.length - 1].id)) : undefined;
  const previous = after ? () => (setTrail(trail.slice(0, -1)), go(trail[trail.length - 1])) : undefined;

  return (
    <section aria-labelledby="documents-title">
      <h1 id="documents-title">Documents</h1>
      <form class="filters" onSubmit={apply} role="search" aria-label="Filter documents" key={key}>
        <Field label="Number">
          <input name="number" defaultValue={filters.number} autoComplete="off" />
        </Field>
        <Field label="Area">
          <select name="area">
            <option value="">Every area</option>
            {AREAS.map(([code, name]) => (
              <option key={code} value={code} selected={filters.area === code}>
                {name} ({code})
              </option>
            ))}
          </select>
        </Field>
        <Field label="Direction">
          <select name="direction">
            <option value="">Both</option>
            <option value="outgoing" selected={filters.direction === 'outgoing'}>
              Outgoing (sent)
            </option>
            <option value="incoming" selected={filters.direction === 'incoming'}>
              Incoming (received)
            </option>
          </select>
        </Field>
        <Field label="Status">
          <select name="status">
            <option value="">Any</option>
            {DOCUMENT_STATUSES.map((status) => (
              <option key={status} value={status} selected={filters.status === status}>
                {status}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Supplier">
          <select name="supplier_id">
            <option value="">Every supplier</option>
            {suppliers.data?.data.map((s) => (
              <option key={s.id} value={s.id} selected={filters.supplier_id === s.id}>
                {s.name} ({s.area})
              </option>
            ))}
            {filters.supplier_id && !supplierName(filters.supplier_id) && (
              <option value={filters.supplier_id} selected>
                {filters.supplier_id}
              </option>
            )}
          </select>
        </Field>
        <Field label="Issued from">
          <input type="date" name="issued_from" defaultValue={filters.issued_from} />
        </Field>
        <Field label="Issued to">
          <input type="date" name="issued_to" defaultValue={filters.issued_to} />
        </Field>
        <Field label="Created from (UTC day)">
          <input type="date" name="created_from" defaultValue={filters.created_from} />
        </Field>
        <Field label="Created to (UTC day)">
          <input type="date" name="created_to" defaultValue={filters.created_to} />
        </Field>
        <div class="actions">
          <button type="submit">Search</button>
          <a class="button secondary" href={href(['documents'])}>
            Clear
          </a>
        </div>
      </form>
      <LoadingLine loading={page.loading} label="documents" />
      <ErrorBox error={page.error} />
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Documents found">
        <table class="documents">
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Area</th>
              <th scope="col">Supplier</th>
              <th scope="col">Counterparty</th>
              <th scope="col">Issued</th>
              <th scope="col" class="amount">
                Total
              </th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody aria-busy={page.loading}>
            {rows.map((d) => (
              <tr key={d.id}>
                <td>
                  <a href={href(['documents', d.id])}>{d.number}</a>
                  <span class="sub">{d.type}</span>
                </td>
                <td>
                  <abbr title={areaName(d.area)}>{d.area}</abbr>
                </td>
                <td>
                  {supplierName(d.supplier_id) ?? <code class="id">{d.supplier_id.slice(0, 8)}</code>}
                  <span class="sub">{d.direction === 'outgoing' ? 'sent by this supplier' : 'received by this supplier'}</span>
                </td>
                <td>
                  {d.counterparty.name ?? (d.counterparty.id ? '' : '—')}
                  {d.counterparty.id && <span class="sub">{d.counterparty.id}</span>}
                </td>
                <td>{d.issue_date ?? '—'}</td>
                <td class="amount">{money(d.total, d.currency)}</td>
                <td>
                  <State value={d.status} />
                  <span class="sub">
                    authority <State value={d.authority.status} /> · exchange <State value={d.exchange.status} />
                  </span>
                </td>
                <td>{time(d.created_at)}</td>
              </tr>
            ))}
            {!page.loading && !page.error && rows.length === 0 && (
              <tr>
                <td colSpan={8} class="empty">
                  No document matches.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <Pager label="Documents" previous={previous} next={next} />
      <TimesNote />
    </section>
  );
}
