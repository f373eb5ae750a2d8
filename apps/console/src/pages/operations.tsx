/**
 * Operations (#50): what an operator on call looks at, from the operator API (`/v1/operations/...`, an
 * operator's key only; README "Operations API"): the dead letters with their replay, the documents not final,
 * the parked outbox rows with their release, each worker group's lag and the authorities' error rates. The nav
 * offers this page to an operator's session alone; an account's key that opens it anyway is shown the API's own
 * 403 (its message and request id): the API decides, the page only says so.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { type Page, getJson, sendJson } from '../api';
import { time } from '../format';
import { AREAS, type ConsumerGroup, type DeadLetter, type ErrorRates, type ParkedRow, type StuckDocument, areaName } from '../model';
import { useCursor } from '../paging';
import type { CallerKind } from '../session';
import { ErrorBox, Field, LoadingLine, Pager, State, TimesNote, useLoad, usePageTitle } from '../ui';

const PAGE_SIZE = 20;

/** Durations as the API takes them (`older_than`, `window`), with what a person reads. */
const AGES: ReadonlyArray<readonly [value: string, label: string]> = [
  ['0s', 'any age'],
  ['10m', '10 minutes'],
  ['30m', '30 minutes'],
  ['1h', '1 hour'],
  ['6h', '6 hours'],
  ['1d', '1 day'],
  ['7d', '7 days'],
];
const WINDOWS: ReadonlyArray<readonly [value: string, label: string]> = [
  ['15m', 'last 15 minutes'],
  ['1h', 'last hour'],
  ['6h', 'last 6 hours'],
  ['1d', 'last day'],
  ['7d', 'last 7 days'],
  ['30d', 'last 30 days'],
];

export function OperationsPage({ kind }: { kind: CallerKind }) {
  usePageTitle('Operations');
  return (
    <section aria-labelledby="operations-title">
      <h1 id="operations-title">Operations</h1>
      {kind === 'operator' ? (
        <>
          <DeadLetters />
          <StuckDocuments />
          <ParkedRows />
          <ConsumerLag />
          <AuthorityErrors />
          <TimesNote />
        </>
      ) : (
        <OperatorsOnly />
      )}
    </section>
  );
}

/** An account's key here: the API's refusal of one operations route, as it answered (message, request id). */
function OperatorsOnly() {
  const refused = useLoad(() => getJson<unknown>('/v1/operations/consumer-lag'), 'operators-only');
  return (
    <div class="panel operators-only">
      <h2>Operators only</h2>
      <p>This page is for an operator's key (<code>op_…</code>, made with <code>cli operators create</code>). The key of this tab is an account's.</p>
      <LoadingLine loading={refused.loading} label="the answer of the API" />
      <ErrorBox error={refused.error} />
    </div>
  );
}

function Panel({ id, title, children }: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section class="panel" id={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

/** A table in a region that scrolls on its own at 390 px, with a line when it has no row; `numeric` columns align right. */
function Table(props: { label: string; loading: boolean; head: readonly string[]; numeric?: readonly string[]; empty: string; count: number; children: ComponentChildren }) {
  const { label, loading, head, numeric = [], empty, children, count } = props;
  return (
    <div class="table-wrap compact" tabIndex={0} role="region" aria-label={label}>
      <table>
        <thead>
          <tr>
            {head.map((name) => (
              <th scope="col" key={name} class={numeric.includes(name) ? 'amount' : undefined}>
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody aria-busy={loading}>
          {children}
          {!loading && count === 0 && (
            <tr>
              <td colSpan={head.length} class="empty">
                {empty}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** What one action on a row answered: a sentence, or the API's error. */
type Outcome = { readonly text: string } | { readonly error: unknown };

function OutcomeLine({ outcome }: { outcome: Outcome | undefined }) {
  if (!outcome) return null;
  return 'error' in outcome ? <ErrorBox error={outcome.error} /> : <span class="sub outcome-text">{outcome.text}</span>;
}

function DeadLetters() {
  const [replayed, setReplayed] = useState('false');
  const cursor = useCursor();
  const page = useLoad(() => getJson<Page<DeadLetter>>('/v1/operations/dead-letters', { replayed, limit: PAGE_SIZE, starting_after: cursor.after }), `${replayed}|${cursor.after}`);
  const [outcomes, setOutcomes] = useState<Readonly<Record<string, Outcome>>>({});
  const [busy, setBusy] = useState<string>();
  const rows = page.data?.data ?? [];

  const replay = async (letter: DeadLetter) => {
    setBusy(letter.id);
    try {
      const answer = await sendJson<{ data: { replayed: boolean; replayed_at: string | null; to: string | null } }>('POST', `/v1/operations/dead-letters/${encodeURIComponent(letter.id)}/replay`);
      const data = answer!.data;
      const text = data.replayed ? `Replayed to ${data.to} at ${time(data.replayed_at)}.` : `Already replayed at ${time(data.replayed_at)}: nothing sent.`;
      setOutcomes((before) => ({ ...before, [letter.id]: { text } }));
    } catch (error) {
      setOutcomes((before) => ({ ...before, [letter.id]: { error } }));
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <Panel id="dead-letters" title="Dead letters">
      <p class="note">What a worker gave up on. Fix the cause first (the worker's configuration, the receiver), then replay: the message goes back to its topic once.</p>
      <div class="filters inline">
        <Field label="Show">
          <select name="replayed" value={replayed} onChange={(e) => (cursor.reset(), setReplayed((e.currentTarget as HTMLSelectElement).value))}>
            <option value="false">Not replayed yet</option>
            <option value="true">Replayed</option>
            <option value="">All</option>
          </select>
        </Field>
        <button type="button" class="secondary" onClick={page.reload}>
          Refresh dead letters
        </button>
      </div>
      <LoadingLine loading={page.loading} label="dead letters" />
      <ErrorBox error={page.error} />
      <Table label="Dead letters" loading={page.loading} count={rows.length} empty="No dead letter." head={['Type', 'Area', 'Error', 'Attempts', 'Failed at', 'Replayed', 'Action']} numeric={['Attempts']}>
        {rows.map((letter) => (
          <tr key={letter.id} data-dead-letter={letter.id}>
            <td>
              {letter.type}
              <span class="sub">
                <code>{letter.id}</code> · {letter.consumer_group}
              </span>
            </td>
            <td>{letter.area ? <abbr title={areaName(letter.area)}>{letter.area}</abbr> : '—'}</td>
            <td class="wrap">
              {letter.error_code && <code>{letter.error_code}</code>}
              <span class="sub">{letter.error}</span>
            </td>
            <td class="amount">{letter.attempts}</td>
            <td>{time(letter.failed_at)}</td>
            <td>{letter.replayed_at ? time(letter.replayed_at) : 'no'}</td>
            <td>
              <button type="button" onClick={() => replay(letter)} disabled={busy === letter.id} aria-label={`Replay ${letter.type} ${letter.id}`}>
                {busy === letter.id ? 'Replaying…' : 'Replay'}
              </button>
              <div class="row-outcome" role="status" aria-live="polite">
                <OutcomeLine outcome={outcomes[letter.id]} />
              </div>
            </td>
          </tr>
        ))}
      </Table>
      <Pager label="Dead letters" previous={cursor.previous} next={page.data?.has_more && rows.length ? () => cursor.next(rows[rows.length - 1].id) : undefined} />
    </Panel>
  );
}

function StuckDocuments() {
  const [olderThan, setOlderThan] = useState('10m');
  const [area, setArea] = useState('');
  const cursor = useCursor();
  const page = useLoad(
    () => getJson<Page<StuckDocument>>('/v1/operations/stuck-documents', { older_than: olderThan, area, limit: PAGE_SIZE, starting_after: cursor.after }),
    `${olderThan}|${area}|${cursor.after}`,
  );
  const rows = page.data?.data ?? [];
  return (
    <Panel id="stuck-documents" title="Documents not final">
      <div class="filters inline">
        <Field label="Unchanged for longer than">
          <select name="older_than" value={olderThan} onChange={(e) => (cursor.reset(), setOlderThan((e.currentTarget as HTMLSelectElement).value))}>
            {AGES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Area">
          <select name="stuck_area" value={area} onChange={(e) => (cursor.reset(), setArea((e.currentTarget as HTMLSelectElement).value))}>
            <option value="">Every area</option>
            {AREAS.map(([code, name]) => (
              <option key={code} value={code}>
                {name} ({code})
              </option>
            ))}
          </select>
        </Field>
        <button type="button" class="secondary" onClick={page.reload}>
          Refresh documents
        </button>
      </div>
      <LoadingLine loading={page.loading} label="documents not final" />
      <ErrorBox error={page.error} />
      <Table label="Documents not final" loading={page.loading} count={rows.length} empty="No document waits longer than that." head={['Number', 'Area', 'State', 'Last event', 'Updated', 'Error']}>
        {rows.map((d) => (
          <tr key={d.id} data-stuck-document={d.id}>
            <td>
              {d.number}
              <span class="sub">
                <code class="id">{d.id}</code> · account <code class="id">{d.tenant_id.slice(0, 8)}</code>
              </span>
            </td>
            <td>
              <abbr title={areaName(d.area)}>{d.area}</abbr>
            </td>
            <td>
              <State value={d.state} />
              <span class="sub">
                report {d.report_state ?? '—'} · delivery {d.delivery_status ?? '—'}
              </span>
            </td>
            <td>
              {d.last_event?.type ?? '—'}
              {d.last_event && <span class="sub">{time(d.last_event.recorded_at)}</span>}
            </td>
            <td>{time(d.updated_at)}</td>
            <td class="wrap">{d.error == null ? '—' : typeof d.error === 'string' ? d.error : <code>{JSON.stringify(d.error)}</code>}</td>
          </tr>
        ))}
      </Table>
      <Pager label="Documents not final" previous={cursor.previous} next={page.data?.has_more && rows.length ? () => cursor.next(rows[rows.length - 1].id) : undefined} />
    </Panel>
  );
}

function ParkedRows() {
  const cursor = useCursor();
  const page = useLoad(() => getJson<Page<ParkedRow>>('/v1/operations/outbox/parked', { limit: PAGE_SIZE, starting_after: cursor.after }), String(cursor.after));
  const [outcome, setOutcome] = useState<Outcome>();
  const rows = page.data?.data ?? [];

  const release = async (id?: string) => {
    setOutcome(undefined);
    try {
      const answer = await sendJson<{ data: { released: string[] } }>('POST', id ? `/v1/operations/outbox/parked/${encodeURIComponent(id)}/release` : '/v1/operations/outbox/parked/release');
      const released = answer!.data.released;
      setOutcome({ text: released.length ? `Released ${released.length === 1 ? 'row' : 'rows'} ${released.join(', ')}: the relay publishes them next.` : 'No row was parked.' });
      cursor.reset();
      page.reload();
    } catch (error) {
      setOutcome({ error });
    }
  };

  return (
    <Panel id="parked-rows" title="Parked outbox rows">
      <p class="note">Events the broker refused (too large for a topic, say); their stream's next events wait behind them. Fix the cause (<code>cli topics</code>), then release.</p>
      <div class="actions">
        <button type="button" onClick={() => release()} disabled={!rows.length}>
          Release all parked rows
        </button>
        <button type="button" class="secondary" onClick={page.reload}>
          Refresh parked rows
        </button>
      </div>
      <div role="status" aria-live="polite">
        <OutcomeLine outcome={outcome} />
      </div>
      <LoadingLine loading={page.loading} label="parked rows" />
      <ErrorBox error={page.error} />
      <Table label="Parked outbox rows" loading={page.loading} count={rows.length} empty="No parked row." head={['Row', 'Type', 'Topic', 'Size', 'Error', 'Parked at', 'Action']} numeric={['Size']}>
        {rows.map((row) => (
          <tr key={row.id}>
            <td>
              <code>{row.id}</code>
            </td>
            <td>{row.type}</td>
            <td>{row.topic}</td>
            <td class="amount">{row.stored_bytes.toLocaleString()} bytes</td>
            <td class="wrap">{row.error}</td>
            <td>{time(row.parked_at)}</td>
            <td>
              <button type="button" onClick={() => release(row.id)} aria-label={`Release row ${row.id}`}>
                Release
              </button>
            </td>
          </tr>
        ))}
      </Table>
      <Pager label="Parked outbox rows" previous={cursor.previous} next={page.data?.has_more && rows.length ? () => cursor.next(rows[rows.length - 1].id) : undefined} />
    </Panel>
  );
}

function ConsumerLag() {
  const loaded = useLoad(() => getJson<{ data: { groups: ConsumerGroup[] } }>('/v1/operations/consumer-lag'), 'consumer-lag');
  const groups = loaded.data?.data.groups ?? [];
  return (
    <Panel id="consumer-lag" title="Consumer lag">
      <div class="actions">
        <button type="button" class="secondary" onClick={loaded.reload}>
          Refresh consumer lag
        </button>
      </div>
      <LoadingLine loading={loaded.loading} label="consumer lag" />
      <ErrorBox error={loaded.error} />
      <Table label="Consumer groups" loading={loaded.loading} count={groups.length} empty="No worker group." head={['Group', 'State', 'Members', 'Lag', 'Per partition']} numeric={['Members', 'Lag']}>
        {groups.map((g) => (
          <tr key={g.group} data-group={g.group}>
            <td>{g.group}</td>
            <td>
              <State value={g.state} />
              <span class="sub">{g.ready ? 'ready' : 'not ready'}</span>
            </td>
            <td class="amount">{g.members}</td>
            <td class="amount">{g.lag ?? 'unknown'}</td>
            <td>
              {g.partitions.length ? (
                <details>
                  <summary>
                    {g.partitions.length} partition{g.partitions.length === 1 ? '' : 's'}
                  </summary>
                  <ul class="partitions">
                    {g.partitions.map((p) => (
                      <li key={`${p.topic}:${p.partition}`}>
                        {p.topic} #{p.partition}: lag {p.lag}
                      </li>
                    ))}
                  </ul>
                </details>
              ) : (
                '—'
              )}
            </td>
          </tr>
        ))}
      </Table>
    </Panel>
  );
}

function AuthorityErrors() {
  const [span, setSpan] = useState('1h');
  const loaded = useLoad(() => getJson<{ data: ErrorRates }>('/v1/operations/authority-errors', { window: span }), span);
  const rates = loaded.data?.data;
  const areas = rates?.areas ?? [];
  return (
    <Panel id="authority-errors" title="Authority error rates">
      <div class="filters inline">
        <Field label="Window">
          <select name="window" value={span} onChange={(e) => setSpan((e.currentTarget as HTMLSelectElement).value)}>
            {WINDOWS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
      </div>
      {rates && (
        <p class="note">
          From {time(rates.since)} to {time(rates.until)}. Refused: the authority rejected the report or found it invalid (calls that got no answer are not counted).
        </p>
      )}
      <LoadingLine loading={loaded.loading} label="error rates" />
      <ErrorBox error={loaded.error} />
      <Table label="Authority error rates" loading={loaded.loading} count={areas.length} empty="No area." head={['Area', 'Reported', 'Refused', 'Refused share']} numeric={['Reported', 'Refused', 'Refused share']}>
        {areas.map((a) => (
          <tr key={a.area} data-area={a.area}>
            <td>
              {areaName(a.area)} ({a.area})
            </td>
            <td class="amount">{a.reported}</td>
            <td class="amount">{a.refused}</td>
            <td class="amount">{a.refused_rate === null ? '—' : `${(a.refused_rate * 100).toFixed(1)} %`}</td>
          </tr>
        ))}
      </Table>
    </Panel>
  );
}
