/**
 * The seam through which each HTTP request of an authority's live client is counted, timed and traced.
 * The clients live in libs/areas, which may not import the domain's infrastructure (eslint.config.mjs:
 * areas stay free of prom-client's registry and the tracer), so the infrastructure installs the
 * recorder when it is loaded (infrastructure/metrics); where it is not loaded (area unit tests) a
 * request is only sent.
 */

/** How an HTTP answer ends, in the vocabulary of the authority call metrics: 2xx ok, 429 rate_limited, 5xx unavailable, other 4xx refused. */
export type AuthorityRequestOutcome = 'ok' | 'refused' | 'rate_limited' | 'unavailable';

/** What is known of a request before it is sent. */
export interface AuthorityRequestFacts {
  /** The area code, as the connector's own metrics name it. */
  readonly area: string;
  readonly method: string;
  /** What the request does: the authority's operation or the path template (never identifiers). */
  readonly name: string;
  readonly url: URL;
}

/** What the recorder reads of an answer; a request that got none throws (an `unavailable` AppError). */
export interface AuthorityRequestAnswer {
  readonly status: number;
  readonly outcome: AuthorityRequestOutcome;
}

export type AuthorityRequestRecorder = <T extends AuthorityRequestAnswer>(facts: AuthorityRequestFacts, send: () => Promise<T>) => Promise<T>;

const unrecorded: AuthorityRequestRecorder = (_facts, send) => send();
let recorder: AuthorityRequestRecorder = unrecorded;

/** Installs the recorder of every authority request of this process (the infrastructure's metrics and spans). */
export function recordAuthorityRequestsWith(next: AuthorityRequestRecorder): void {
  recorder = next;
}

/** Sends one authority request through the recorder installed (authority-http.ts, in libs/areas). */
export const recordedAuthorityRequest: AuthorityRequestRecorder = (facts, send) => recorder(facts, send);
