/**
 * The AEAT in sandbox (README.md "Sandbox"): takes one issuer's records in one call as the VeriFactu
 * web service does, after checking the message's structure (its own check, submission-check.ts, and
 * with CONFORMANCE_DIR set the AEAT's XSD too: 4102 refuses the whole message), and answers per record:
 * Correcto, AceptadoConErrores (2000: the huella does not match the record) or Incorrecto (1150: a
 * simplified invoice over 3,000 euros; 3000: a record it already holds; for a cancellation 3002: no
 * such invoice, 3001: cancelled already), with a CSV per call and the
 * `TiempoEsperaEnvio` before the issuer's next call, which it enforces. State in PostgreSQL
 * (migrations.ts). Failure injection by invoice number: `AEAT-DOWN-` fails the call twice
 * (retriable), `AEAT-LOST-` loses the first answer after taking the records.
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '@einvoice/domain';
import type { ConnectorQuery } from '../registry/area';
import type { AuthorityConnector, AuthorityOutcome, AuthorityReport, BatchOutcome } from '../registry/authority';
import { cancellationHash, registrationHash } from './hash';
import { type CancellationRecord, type RegistrationRecord, type VerifactuRecord, aeatDate } from './record';
import { type InvoicingSystem, submissionXml } from './soap';
import { schemaProblems } from './schema-check';

/** What the Spanish connector reads of a report's payload. */
export interface VerifactuPayload {
  readonly record: VerifactuRecord;
}

/** What the AEAT answered about one record (the document's `authority.receipt`; GET shows it as `aeat_status`/`aeat_errors`). */
export interface VerifactuReceipt {
  readonly estadoRegistro: 'Correcto' | 'AceptadoConErrores';
  readonly csv: string;
  readonly errores?: ReadonlyArray<{ readonly code: string; readonly message: string }>;
}

export interface SandboxAeatOptions {
  /** `TiempoEsperaEnvio` in seconds (the AEAT's samples: 60). */
  readonly waitSeconds: number;
  readonly system: InvoicingSystem;
  /** How long the answer takes after the records were taken (tests kill a worker in that window). */
  readonly answerDelayMs?: number;
}

/** Failures `AEAT-DOWN-` numbers cause before the call goes through. */
export const DOWN_FAILURES = 2;
/** F2 above this total needs FacturaSinIdentifDestinatarioArt61d (AEAT error 1150). */
const SIMPLIFIED_LIMIT = 3000;

const unavailable = (message: string) => new AppError('unavailable', 'VERIFACTU.AEAT_UNAVAILABLE', message, { retriable: true });

export class SandboxAeat implements AuthorityConnector<VerifactuPayload, VerifactuReceipt> {
  constructor(
    private readonly query: ConnectorQuery,
    private readonly options: SandboxAeatOptions,
  ) {}

  /** One record alone is a batch of one. */
  async submit(report: AuthorityReport<VerifactuPayload>): Promise<AuthorityOutcome<VerifactuReceipt>> {
    const { outcomes } = await this.submitBatch([report]);
    return outcomes[report.reportId];
  }

  async submitBatch(reports: readonly AuthorityReport<VerifactuPayload>[]): Promise<BatchOutcome<VerifactuReceipt>> {
    const records = reports.map((r) => r.payload.record);
    const issuer = records[0].issuer;
    const calls = await this.countCalls(reports);
    if (records.some((r) => r.number.startsWith('AEAT-DOWN-')) && Math.min(...calls) <= DOWN_FAILURES) throw unavailable('The AEAT web service does not answer (sandbox: AEAT-DOWN-).');
    const xml = submissionXml(issuer, records, this.options.system);
    const problems = await schemaProblems(xml);
    // 4102: the whole message refused; a retry cannot fix it.
    if (problems.length) throw new AppError('validation', 'VERIFACTU.4102', `The AEAT refused the message for its schema: ${problems.slice(0, 3).join('; ')}`, { retriable: false });
    await this.takeTurn(issuer.nif);

    const csv = randomBytes(8).toString('hex').toUpperCase();
    const outcomes: Record<string, AuthorityOutcome<VerifactuReceipt>> = {};
    for (const report of reports) outcomes[report.reportId] = await this.take(report.reportId, report.payload.record, csv);
    if (this.options.answerDelayMs) await new Promise((resolve) => setTimeout(resolve, this.options.answerDelayMs));
    if (records.some((r, i) => r.number.startsWith('AEAT-LOST-') && calls[i] === 1)) throw unavailable('The connection to the AEAT was cut before its answer (sandbox: AEAT-LOST-).');
    return { outcomes, nextCallAfterMs: this.options.waitSeconds * 1000 };
  }

  /** What the AEAT holds of a record this report sent (found by the report, as a query by invoice would). */
  async recover(report: AuthorityReport<VerifactuPayload>): Promise<AuthorityOutcome<VerifactuReceipt> | undefined> {
    if (report.payload.record.kind === 'cancellation') {
      const [taken] = await this.query<{ csv: string }>(`SELECT csv FROM verifactu_sandbox_cancellations WHERE report_id = $1`, [report.reportId]);
      return taken ? { kind: 'accepted', final: true, receipt: receiptOf('Correcto', taken.csv, null) } : undefined;
    }
    const [row] = await this.query<{ state: string; csv: string; error_code: string | null }>(`SELECT state, csv, error_code FROM verifactu_sandbox_records WHERE report_id = $1`, [report.reportId]);
    if (!row) return undefined;
    return { kind: 'accepted', final: true, receipt: receiptOf(row.state === 'AceptadaConErrores' ? 'AceptadoConErrores' : 'Correcto', row.csv, row.error_code) };
  }

  private async countCalls(reports: readonly AuthorityReport<VerifactuPayload>[]): Promise<number[]> {
    const rows = await this.query<{ report_id: string; calls: number }>(
      `INSERT INTO verifactu_sandbox_calls (report_id, calls) SELECT unnest($1::uuid[]), 1
       ON CONFLICT (report_id) DO UPDATE SET calls = verifactu_sandbox_calls.calls + 1 RETURNING report_id, calls`,
      [reports.map((r) => r.reportId)],
    );
    const byId = new Map(rows.map((r) => [r.report_id, r.calls]));
    return reports.map((r) => byId.get(r.reportId) ?? 1);
  }

  /** Flow control: a call before the issuer's `TiempoEsperaEnvio` is over is refused (retry after it). */
  private async takeTurn(nif: string): Promise<void> {
    const [row] = await this.query<{ wait_ms: number | null }>(
      `WITH previous AS (SELECT next_send_at FROM verifactu_sandbox_senders WHERE issuer_nif = $1),
       taken AS (
         INSERT INTO verifactu_sandbox_senders (issuer_nif, next_send_at) VALUES ($1, now() + make_interval(secs => $2))
         ON CONFLICT (issuer_nif) DO UPDATE SET next_send_at = EXCLUDED.next_send_at WHERE verifactu_sandbox_senders.next_send_at <= now()
         RETURNING 1)
       SELECT CASE WHEN EXISTS (SELECT 1 FROM taken) THEN NULL ELSE ceil(extract(epoch FROM (SELECT next_send_at FROM previous) - now()) * 1000) END AS wait_ms`,
      [nif, this.options.waitSeconds],
    );
    if (row?.wait_ms !== null && row?.wait_ms !== undefined) {
      throw new AppError('rate_limited', 'VERIFACTU.TOO_EARLY', `The AEAT asks this issuer to wait ${this.options.waitSeconds} s between sends (TiempoEsperaEnvio).`, {
        retriable: true,
        details: { retryAfterMs: Number(row.wait_ms) },
      });
    }
  }

  /** RegistroAnulacion: 3002 when the AEAT holds no such invoice, 3001 when it is cancelled already. */
  private async takeCancellation(reportId: string, record: CancellationRecord, csv: string): Promise<AuthorityOutcome<VerifactuReceipt>> {
    const expected = cancellationHash({ issuerNif: record.issuer.nif, number: record.number, issueDate: aeatDate(record.issueDate), previousHash: record.previous?.hash ?? '', generatedAt: record.generatedAt });
    const [row] = await this.query<{ before: string | null; done: boolean }>(sandboxCancellation, [record.issuer.nif, record.number, aeatDate(record.issueDate), reportId, record.hash, csv]);
    if (!row.before) return { kind: 'rejected', error: { code: '3002', message: `No existe el registro de facturación de la factura ${record.number} de ${aeatDate(record.issueDate)}.`, path: 'document_identifier' } };
    if (!row.done) return { kind: 'rejected', error: { code: '3001', message: `La factura ${record.number} de ${aeatDate(record.issueDate)} ya está anulada.`, path: 'document_identifier' } };
    return { kind: 'accepted', final: true, receipt: receiptOf(expected === record.hash ? 'Correcto' : 'AceptadoConErrores', csv, expected === record.hash ? null : '2000') };
  }

  private async take(reportId: string, record: VerifactuRecord, csv: string): Promise<AuthorityOutcome<VerifactuReceipt>> {
    if (record.kind === 'cancellation') return this.takeCancellation(reportId, record, csv);
    if (record.invoiceType === 'F2' && Number(record.total) > SIMPLIFIED_LIMIT) {
      return { kind: 'rejected', error: { code: '1150', message: 'Factura simplificada (F2) de importe superior a 3.000 euros sin FacturaSinIdentifDestinatarioArt61d.', path: 'total_amount' } };
    }
    const hashOk = expectedHash(record) === record.hash;
    const state = hashOk ? 'Correcta' : 'AceptadaConErrores';
    const errorCode = hashOk ? null : '2000';
    const inserted = await this.query(
      `INSERT INTO verifactu_sandbox_records (issuer_nif, number, issue_date, report_id, state, hash, csv, error_code)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING 1`,
      [record.issuer.nif, record.number, aeatDate(record.issueDate), reportId, state, record.hash, csv, errorCode],
    );
    if (!inserted.length) {
      return { kind: 'rejected', error: { code: '3000', message: `Registro de facturación duplicado: la AEAT ya tiene la factura ${record.number} de ${aeatDate(record.issueDate)}.`, path: 'document_identifier' } };
    }
    return { kind: 'accepted', final: true, receipt: receiptOf(hashOk ? 'Correcto' : 'AceptadoConErrores', csv, errorCode) };
  }
}

const sandboxCancellation = `WITH target AS (
     SELECT state FROM verifactu_sandbox_records WHERE issuer_nif = $1 AND number = $2 AND issue_date = $3 FOR UPDATE),
   cancelled AS (
     UPDATE verifactu_sandbox_records SET state = 'Anulada' WHERE issuer_nif = $1 AND number = $2 AND issue_date = $3 AND state <> 'Anulada' RETURNING 1),
   kept AS (
     INSERT INTO verifactu_sandbox_cancellations (report_id, issuer_nif, number, issue_date, hash, csv)
     SELECT $4, $1, $2, $3, $5, $6 WHERE EXISTS (SELECT 1 FROM cancelled) RETURNING 1)
   SELECT (SELECT state FROM target) AS before, EXISTS (SELECT 1 FROM kept) AS done`;

function expectedHash(record: RegistrationRecord): string {
  return registrationHash({
    issuerNif: record.issuer.nif,
    number: record.number,
    issueDate: aeatDate(record.issueDate),
    invoiceType: record.invoiceType,
    taxTotal: record.taxTotal,
    total: record.total,
    previousHash: record.previous?.hash ?? '',
    generatedAt: record.generatedAt,
  });
}

function receiptOf(estadoRegistro: VerifactuReceipt['estadoRegistro'], csv: string, errorCode: string | null): VerifactuReceipt {
  return errorCode === '2000'
    ? { estadoRegistro, csv, errores: [{ code: '2000', message: 'El cálculo de la huella suministrada es incorrecta.' }] }
    : { estadoRegistro, csv };
}
