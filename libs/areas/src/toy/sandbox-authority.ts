/**
 * The toy authority, in sandbox: it answers synchronously, keeps what it took in PostgreSQL (table
 * `toy_authority_documents`, shared by every process of a stack, as an authority would be), numbers
 * its receipts, refuses a number already taken for the same taxpayer (`TOY-E002`), and fails on
 * purpose by document number (README.md "Failure injection").
 */
import { AppError } from '@einvoice/domain';
import type { ConnectorQuery } from '../registry/area';
import type { AuthorityConnector, AuthorityOutcome, AuthorityReport } from '../registry/authority';

/** What the toy connector reads of a report's payload (codec.ts). */
export interface ToyPayload {
  readonly taxId: string;
  readonly number: string;
}

/** Retriable failures `FLAKY-` numbers get before the authority takes them. */
export const FLAKY_FAILURES = 2;

const UNIQUE_VIOLATION = '23505';

function unavailable(message: string): AppError {
  return new AppError('unavailable', 'TOY.UNAVAILABLE', message, { retriable: true });
}

/** The sandbox toy authority. */
export class ToySandboxAuthority implements AuthorityConnector<ToyPayload> {
  constructor(private readonly query: ConnectorQuery) {}

  async submit(report: AuthorityReport<ToyPayload>): Promise<AuthorityOutcome> {
    const { taxId, number } = report.payload;
    const [{ calls }] = await this.query<{ calls: number }>(
      `INSERT INTO toy_authority_calls (report_id, calls) VALUES ($1, 1)
       ON CONFLICT (report_id) DO UPDATE SET calls = toy_authority_calls.calls + 1 RETURNING calls`,
      [report.reportId],
    );
    if (number.startsWith('FLAKY-') && calls <= FLAKY_FAILURES) throw unavailable(`The toy authority is busy (call ${calls}).`);
    if (number.startsWith('REFUSE-')) {
      return { kind: 'rejected', error: { code: 'TOY-E001', message: 'The toy authority refuses documents numbered REFUSE-*.', path: 'ID' } };
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
      return { kind: 'rejected', error: { code: 'TOY-E002', message: `Number ${number} was already reported for ${taxId}.`, path: 'ID' } };
    }
    // The authority took it; the answer never reaches the caller (a crash, a cut connection).
    if (number.startsWith('LOST-') && calls === 1) throw unavailable('The connection to the toy authority was cut before its answer.');
    return { kind: 'accepted', receipt, final: true };
  }

  async recover(report: AuthorityReport<ToyPayload>): Promise<AuthorityOutcome | undefined> {
    const [row] = await this.query<{ receipt_number: string; accepted_at: Date }>(
      `SELECT receipt_number, accepted_at FROM toy_authority_documents WHERE report_id = $1`,
      [report.reportId],
    );
    return row ? { kind: 'accepted', receipt: receiptOf(row), final: true } : undefined;
  }
}

function receiptOf(row: { receipt_number: string; accepted_at: Date }): Record<string, unknown> {
  return { receiptNumber: row.receipt_number, acceptedAt: new Date(row.accepted_at).toISOString() };
}
