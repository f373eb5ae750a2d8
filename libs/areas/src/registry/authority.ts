/**
 * What the reporting worker needs of an area's tax authority. The worker owns the order of things
 * (attempt recorded, call made outside any transaction, answer recorded; a redelivery after a crash
 * asks `recover` before submitting again); the connector only speaks the authority's API, in
 * sandbox or live mode.
 */

import type { AuthorityReportCommand, AuthorityReportRequestedData, SupplierProfile } from '@einvoice/domain';

/** SQL on the process's pool, outside any transaction (sandbox authorities keep their state with it). */
export type ConnectorQuery = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

/** The authority's answer to a supplier's credentials at onboarding. */
export type CredentialCheck = { readonly refused: AuthorityError } | { readonly details?: Readonly<Record<string, unknown>> };

/** `sync`: the HTTP answer carries the authority's result (bounded wait, then 202); `poll`: later; `none`: no authority. */
export type AuthorityAnswer = 'sync' | 'poll' | 'none';

/** The authority's error, as it states it (its own code and message), with its field when it names one. */
export interface AuthorityError {
  readonly code: string;
  readonly message: string;
  readonly path?: string;
  readonly details?: readonly AuthorityError[];
}

/**
 * How a verdict is asked for after an answer that is not final: every `intervalMs`, at most
 * `maxPolls` times (then the document stays `processing` with no poll due, for an operator to see).
 */
export interface PollPolicy {
  readonly intervalMs: number;
  /**
   * The first poll after the authority took a report, when not `intervalMs` later: MyInvois 0, at
   * once (its Get Submission is cheap, and a document there is `Submitted` until a poll has seen it).
   * 0 in a batched area: the batch sweep makes that poll right after recording the answers.
   */
  readonly firstPollAfterMs?: number;
  readonly maxPolls: number;
  /**
   * Set when a report with no verdict after `maxPolls` is still asked for, every `slowIntervalMs`
   * (MyInvois: every 5 minutes, for documents its validation left `Submitted`); unset, polling stops.
   */
  readonly slowIntervalMs?: number;
}

/** Used where an area states none: every 3 s for 10 minutes. */
export const DEFAULT_POLL_POLICY: PollPolicy = { intervalMs: 3_000, maxPolls: 200 };

/**
 * Areas whose authority takes documents in batches (VeriFactu: up to 1000 records per issuer and
 * call, then a wait the AEAT states; MyInvois: up to 100 per submission). Their reports wait, per
 * issuer (supplier), until `maxReports` are waiting or the oldest has waited `maxWaitMs`, and the
 * authority's stated wait since the issuer's last call is over; then one `submitBatch` call takes
 * them (the reporting worker's batch sweep).
 */
export interface BatchPolicy {
  readonly maxReports: number;
  readonly maxWaitMs: number;
  /**
   * An issuer's calls in flight at once (default 1: its batches one after the other, in the order they
   * became due, as a chained area's must go). MyInvois 4: its submissions are independent of one
   * another, and one supplier's five concurrent bulks should not queue behind each other.
   */
  readonly issuerCallsAtOnce?: number;
}

/** The authority's answer to a batch: one outcome per report it answered for, by report id. */
export interface BatchOutcome<R = unknown> {
  /** A report missing here is left unanswered: the next round asks the authority (`recover`) first. */
  readonly outcomes: Readonly<Record<string, AuthorityOutcome<R>>>;
  /** How long the authority wants the issuer to wait before its next call (VeriFactu `TiempoEsperaEnvio`). */
  readonly nextCallAfterMs?: number;
}

/** What the worker offers a connector during a call: a heartbeat for long waits (Kafka keeps the partition). */
export interface AuthorityCallContext {
  heartbeat(): Promise<void>;
}

/** One report as the connector sees it: the area's opaque payload plus who reports. */
export interface AuthorityReport<P = unknown> {
  readonly reportId: string;
  readonly tenantId: string;
  readonly supplierId: string;
  readonly payload: P;
  /** The document as the area rendered it (UAE: the UBL its Tax Data Document wraps). */
  readonly document: { readonly bytes: string; readonly mediaType: string; readonly sha256: string };
}

/** The authority's answer to a submission (or what it has of one, after a crash). */
export type AuthorityOutcome<R = unknown> =
  /** Taken; `final` when nothing more will come (a `poll` area answers `final: false` until its verdict). */
  | { readonly kind: 'accepted'; readonly receipt: R; readonly final: boolean }
  | { readonly kind: 'rejected'; readonly error: AuthorityError; readonly receipt?: Partial<R> };

/** An authority connector, sandbox or live. Network calls only; never called inside a transaction. */
export interface AuthorityConnector<P = unknown, R = unknown> {
  submit(report: AuthorityReport<P>, context: AuthorityCallContext): Promise<AuthorityOutcome<R>>;
  /**
   * Areas with a `batch` policy: one call for reports of one issuer (never empty, at most
   * `maxReports`). Throws (retriable) when the call as a whole failed; a final error refuses every
   * report of the batch with it.
   */
  submitBatch?(reports: readonly AuthorityReport<P>[], context: AuthorityCallContext): Promise<BatchOutcome<R>>;
  /**
   * After an attempt whose answer was lost (a crash between the call and the record): what the
   * authority has of this report, or `undefined` when it has nothing (the worker submits again).
   */
  recover(report: AuthorityReport<P>, firstAttemptAt: string, context: AuthorityCallContext): Promise<AuthorityOutcome<R> | undefined>;
  /** `poll` areas: the verdict on an accepted report, or `pending` to ask again later. */
  poll?(report: AuthorityReport<P>, receipt: R, context: AuthorityCallContext): Promise<AuthorityOutcome<R> | { readonly kind: 'pending' }>;
  /**
   * Cancellation where the authority allows one: done, or refused with its error. Asked again after
   * a crash that lost its answer, so an authority that already cancelled the document answers done.
   */
  cancel?(report: AuthorityReport<P>, receipt: R, reason: string, context: AuthorityCallContext): Promise<{ readonly kind: 'cancelled' } | { readonly kind: 'refused'; readonly error: AuthorityError }>;
  /**
   * Amends a document the authority accepted (Nigeria: its payment status), `change` being the area's:
   * done, or refused with its error. Sent again after a crash that lost the answer (amendments set values).
   */
  amend?(report: AuthorityReport<P>, receipt: R, change: Record<string, unknown>, context: AuthorityCallContext): Promise<{ readonly kind: 'amended' } | { readonly kind: 'refused'; readonly error: AuthorityError }>;
  /**
   * Reads from the authority for a supplier, outside any report (Argentina: the last voucher number, a
   * voucher, the catalogs): `name` and `params` are the area's. @throws AppError (the authority's refusal or unavailability)
   */
  read?(name: string, params: Readonly<Record<string, unknown>>, supplier: { readonly id: string; readonly profile: SupplierProfile }): Promise<unknown>;
  /**
   * Where the authority tells of buyers' rejections of accepted documents (MyInvois: a buyer's "reject
   * document" shows as `rejectRequestDateTime` on the issuer's document): which of `documents` (one
   * supplier's, accepted `acceptedAt`) its buyer asked to reject, with the buyer's reason. Asked
   * periodically by the reporting worker's buyer-rejection watch, for documents accepted within
   * `buyerRejectionWindowMs`.
   */
  buyerRejections?(
    supplierId: string,
    documents: readonly { readonly reportId: string; readonly receipt: R; readonly acceptedAt: string }[],
    context: AuthorityCallContext,
  ): Promise<readonly { readonly reportId: string; readonly reason: string; readonly requestedAt: string }[]>;
  /** How long after its acceptance a document can still be rejected by its buyer (with `buyerRejections`). */
  readonly buyerRejectionWindowMs?: number;
  /** Lets go of what the connector holds open at the authority (KSeF: its online sessions), when the worker stops. */
  close?(): Promise<void>;
  /**
   * Checks a supplier's credentials with the authority before they are stored at onboarding (JoFotara:
   * the portal's client id and secret; FIRS: the taxpayer's login): refused with the authority's error,
   * or accepted with what the authority told of the supplier (FIRS: its business and service ids), kept
   * in its profile's `areaDetails`. Called by the gateway, outside any transaction.
   */
  verifyCredentials?(secrets: Readonly<Record<string, string>>, profile: SupplierProfile): Promise<CredentialCheck>;
}

/**
 * Reports carried over from an area's model before the reporting pipeline (its own aggregate's
 * streams): each as its request and the commands that bring it to where that model left it, so its
 * routes, polls and cancellations go on from there. Run once per stack by `cli migrate`, after the
 * schema migrations (apps/gateway/src/carry-over); recorded by `name`.
 */
export interface ReportCarryOver {
  readonly name: string;
  /**
   * The reports to write, page by page (an old model's history need not fit in memory), oldest
   * first (a number freed by a refusal or a cancellation is taken again in that order), leaving out
   * documents already carried.
   */
  reports(query: ConnectorQuery, now: Date): AsyncIterable<readonly CarriedReport[]>;
  /**
   * Event types sent on to the workers (a cancellation in flight, which the worker must still make);
   * the others are history and read model only, so no webhook is sent a second time.
   */
  readonly publish: readonly string[];
}

/** One carried report: its request, then its history as commands (RecordReportAttempt, RecordAuthorityAnswer, ...). */
export interface CarriedReport {
  readonly request: AuthorityReportRequestedData;
  readonly commands: readonly AuthorityReportCommand[];
}
