/** The console's small shared pieces: loading a resource, showing an API error, labelled fields, paging. */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';
import { timeZone } from './format';

export interface Loaded<T> {
  readonly data?: T;
  readonly error?: unknown;
  readonly loading: boolean;
  readonly reload: () => void;
}

/** Loads with `load` whenever `key` changes; an answer that arrives after a newer request started is dropped. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  const latest = useRef(0);
  // Started as soon as the page is in the DOM (a layout effect), not after its first frame is painted (an effect,
  // which Preact runs on the next animation frame, or 100 ms later where none comes): the request does not wait on
  // the browser's painting (#50 bench: the Documents page's requests left 250-470 ms after its script had run).
  useLayoutEffect(() => {
    const mine = ++latest.current;
    setState((before) => ({ data: before.data, loading: true }));
    load().then(
      (data) => mine === latest.current && setState({ data, loading: false }),
      (error) => mine === latest.current && setState({ error, loading: false }),
    );
    // `load` is a new function each render; `key` says when what it loads changed.
  }, [key, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
}

/**
 * Marks the moment a page's data is on screen: `performance.mark('console:<name>')` once its load settled (its
 * data or its error shown), from an effect, which Preact runs after the frame that shows it. `npm run bench`
 * times a page load from the navigation's start to this mark (scripts/bench/console-load.mjs, #50 "Page loads
 * under 1 s"); a browser's performance panel shows it too. The mark's detail says whether the page shows an error.
 */
export function useRenderedMark(name: string, loaded: { readonly loading: boolean; readonly error?: unknown }): void {
  const settled = !loaded.loading;
  useEffect(() => {
    if (settled) performance.mark(`console:${name}`, { detail: { error: loaded.error === undefined ? null : String((loaded.error as Error)?.message ?? loaded.error) } });
  }, [settled, name]);
}

/** An API refusal as a person reads it: the message, each field's issue, and the request id to quote. */
export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const api = error instanceof ApiError ? error : undefined;
  return (
    <div class="error" role="alert">
      <p class="error-message">{api ? api.message : String((error as Error)?.message ?? error)}</p>
      {api && api.issues.length > 0 && (
        <ul>
          {api.issues.map((issue) => (
            <li key={`${issue.path}${issue.code}`}>
              {issue.path && <code>{issue.path}</code>} {issue.code}: {issue.message}
            </li>
          ))}
        </ul>
      )}
      {api && (
        <p class="request-id">
          {api.status ? `HTTP ${api.status}` : 'No answer'}
          {api.requestId && (
            <>
              {' · request id '}
              <code data-request-id>{api.requestId}</code>
            </>
          )}
        </p>
      )}
    </div>
  );
}

/** What a page shows while loading: a line in a live region, in space reserved for it (no layout shift). */
export function LoadingLine({ loading, label }: { loading: boolean; label: string }) {
  return (
    <p class="loading" role="status" aria-live="polite">
      {loading ? `Loading ${label}…` : ''}
    </p>
  );
}

export function Field({ label, children, hint }: { label: string; children: ComponentChildren; hint?: string }) {
  return (
    <label class="field">
      <span class="field-label">{label}</span>
      {children}
      {hint && <span class="field-hint">{hint}</span>}
    </label>
  );
}

/** A state as a word with its colour class (the word carries the meaning, the colour repeats it). */
export function State({ value, label }: { value: string; label?: string }) {
  return (
    <span class={`state state-${value}`}>
      {label && <span class="visually-hidden">{label}: </span>}
      {value}
    </span>
  );
}

export function Pager({ previous, next, label }: { previous?: () => void; next?: () => void; label: string }) {
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <button type="button" onClick={previous} disabled={!previous}>
        Previous
      </button>
      <button type="button" onClick={next} disabled={!next}>
        Next
      </button>
    </nav>
  );
}

export function TimesNote() {
  return <p class="note">Times are in your time zone ({timeZone}).</p>;
}

/** A JSON value as a read-only block (request and response bodies). */
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  const text = typeof value === 'string' ? prettyText(value) : JSON.stringify(value, null, 2);
  return (
    <pre class="json" tabIndex={0} role="region" aria-label={label}>
      {text}
    </pre>
  );
}

function prettyText(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Sets the document's title per page (what a screen reader and the tab say). */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · E-invoicing console`;
  }, [title]);
}
