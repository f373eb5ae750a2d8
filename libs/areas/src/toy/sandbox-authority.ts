/**
 * The toy authority, in sandbox: it answers synchronously (or, for `SLOW-` numbers, gives its verdict
 * to a later poll), keeps what it took in PostgreSQL (table `toy_authority_documents`, shared by
 * every process of a stack, as an authority would be), numbers its receipts, refuses a number
 * already taken for the same taxpayer (`TOY-E002`), cancels what it took, and fails on purpose by
 * document number (README.md "Failure injection").
 */
import { AppError } from '@einvoice/domain';
import type { ConnectorQuery } from '../registry/area';
import type { AuthorityConnector, AuthorityOutcome, AuthorityReport, BatchOutcome } from '../registry/authority';

/** What the toy connector reads of a report's payload (codec.ts). */
export interface ToyPayload {
  readonly taxId: string;
  readonly number: string;
}

/** Retriable failures `FLAKY-` numbers get before the authority takes them. */
export const FLAKY_FAILURES = 2;
/** Polls a `SLOW-` number answers "no verdict yet" before its verdict. */
export const SLOW_POLLS = 2;

/** Taken for processing only: the verdict comes from polls. */
const slow = (number: string) => number.startsWith('SLOW-');

const UNIQUE_VIOLATION = '23505';

function unavailable(message: string): AppError {
  return new AppError('unavailable', 'TOY.UNAVAILABLE', message, { retriable: true });
}

/** The sandbox toy authority. */
export class ToySandboxAuthority implements AuthorityConnector<ToyPayload> {
  /** `batchWaitMs`: the wait its batch answers state before the issuer's next call (as the AEAT's `TiempoEsperaEnvio`). */
  constructor(
    private readonly query: ConnectorQuery,
    private readonly options: { readonly batchWaitMs?: number } = {},
  ) {}

  async submit(report: AuthorityReport<ToyPayload>): Promise<AuthorityOutcome> {
    const { outcome, calls } = await this.take(report);
    // The authority took it; the answer never reaches the caller (a crash, a cut connection).
    if (report.payload.number.startsWith('LOST-') && calls === 1 && outcome.kind === 'accepted') {
      throw unavailable('The connection to the toy authority was cut before its answer.');
    }
    return outcome;
  }

  /**
   * One call for several reports (areas with `authority.batch`): each taken or refused as `submit`
   * would; a `FLAKY-` report fails the whole call where it stands (those before it are taken); a
   * batch holding a `LOSTBATCH-` number loses its answer the first time (every report taken).
   */
  async submitBatch(reports: readonly AuthorityReport<ToyPayload>[]): Promise<BatchOutcome> {
    const outcomes: Record<string, AuthorityOutcome> = {};
    let lost = false;
    for (const report of reports) {
      const { outcome, calls } = await this.take(report);
      outcomes[report.reportId] = outcome;
      if (report.payload.number.startsWith('LOSTBATCH-') && calls === 1) lost = true;
    }
    if (lost) throw unavailable('The connection to the toy authority was cut before its batch answer.');
    return { outcomes, nextCallAfterMs: this.options.batchWaitMs ?? 0 };
  }

  /** Takes or refuses one document (its call counted: failure injection by number). */
  private async take(report: AuthorityReport<ToyPayload>): Promise<{ outcome: AuthorityOutcome; calls: number }> {
    const { taxId, number } = report.payload;
    const [{ calls }] = await this.query<{ calls: number }>(
      `INSERT INTO toy_authority_calls (report_id, calls) VALUES ($1, 1)
       ON CONFLICT (report_id) DO UPDATE SET calls = toy_authority_calls.calls + 1 RETURNING calls`,
      [report.reportId],
    );
    if (number.startsWith('FLAKY-') && calls <= FLAKY_FAILURES) throw unavailable(`The toy authority is busy (call ${calls}).`);
    if (number.startsWith('REFUSE-')) {
      return { calls, outcome: { kind: 'rejected', error: { code: 'TOY-E001', message: 'The toy authority refuses documents numbered REFUSE-*.', path: 'ID' } } };
    }
    let receipt: Record<string, unknown>;
    try {
      const [row] = await this.query<{ receipt_number: string; accepted_at: Date }>(
        `INSERT INTO toy_authority_documents (report_id, tax_id, number, receipt_number)
         VALUES ($1, $2, $3, 'TOY-' || lpad(nextval('toy_authority_receipt_seq')::text, 8, '0'))
         RETURNING receipt_number, accepted_at`,
        [report.reportId, taxId, number],
      );
      receipt = receiptOf(row);
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      return { calls, outcome: { kind: 'rejected', error: { code: 'TOY-E002', message: `Number ${number} was already reported for ${taxId}.`, path: 'ID' } } };
    }
    return { calls, outcome: { kind: 'accepted', receipt, final: !slow(number) } };
  }

  async recover(report: AuthorityReport<ToyPayload>): Promise<AuthorityOutcome | undefined> {
    const [row] = await this.query<{ receipt_number: string; accepted_at: Date }>(
      `SELECT receipt_number, accepted_at FROM toy_authority_documents WHERE report_id = $1`,
      [report.reportId],
    );
    return row ? { kind: 'accepted', receipt: receiptOf(row), final: !slow(report.payload.number) } : undefined;
  }

  /** `SLOW-` numbers: no verdict for SLOW_POLLS polls, then valid, or invalid for `SLOW-BAD-` (`TOY-E003`). */
  async poll(report: AuthorityReport<ToyPayload>): Promise<AuthorityOutcome | { readonly kind: 'pending' }> {
    const [row] = await this.query<{ polls: number; accepted_at: Date }>(
      // As a SELECT: TypeORM answers an UPDATE with [rows, count], a SELECT with its rows.
      `WITH polled AS (UPDATE toy_authority_documents SET polls = polls + 1 WHERE report_id = $1 RETURNING polls, accepted_at) SELECT * FROM polled`,
      [report.reportId],
    );
    if (!row) throw new AppError('not_found', 'TOY.UNKNOWN_DOCUMENT', `The toy authority holds no document of report ${report.reportId}.`, { retriable: false });
    if (row.polls <= SLOW_POLLS) return { kind: 'pending' };
    if (report.payload.number.startsWith('SLOW-BAD-')) {
      return { kind: 'rejected', error: { code: 'TOY-E003', message: 'The toy authority found the document invalid.', path: 'Total' } };
    }
    return { kind: 'accepted', receipt: { verdict: 'valid', validatedAt: new Date().toISOString() }, final: true };
  }

  /** Cancels what it took (again: still cancelled); refuses `KEEP-` numbers (`TOY-E004`). */
  async cancel(report: AuthorityReport<ToyPayload>): Promise<{ readonly kind: 'cancelled' } | { readonly kind: 'refused'; readonly error: { code: string; message: string } }> {
    if (report.payload.number.startsWith('KEEP-')) return { kind: 'refused', error: { code: 'TOY-E004', message: 'The toy authority keeps documents numbered KEEP-*.' } };
    const rows = await this.query(
      `WITH cancelled AS (UPDATE toy_authority_documents SET cancelled_at = coalesce(cancelled_at, now()) WHERE report_id = $1 RETURNING report_id) SELECT * FROM cancelled`,
      [report.reportId],
    );
    if (!rows.length) return { kind: 'refused', error: { code: 'TOY-E005', message: 'The toy authority holds no such document.' } };
    return { kind: 'cancelled' };
  }
}

function receiptOf(row: { receipt_number: string; accepted_at: Date }): Record<string, unknown> {
  return { receiptNumber: row.receipt_number, acceptedAt: new Date(row.accepted_at).toISOString() };
}
