/**
 * KSeF in sandbox (README.md "Sandbox"), state in PostgreSQL (migrations.ts): takes an invoice as the
 * KSeF 2.0 online session does (the duplicate key seller NIP + kind + number), answers with a reference
 * number (status 100: processing), and gives its verdict to the next status poll: 200 with a KSeF number
 * in the official form (ksef-number.ts), or 450 (semantic error), checked while processing: the
 * project's own structural check of FA(3) (fa3-check.ts), and with CONFORMANCE_DIR set the Ministry's
 * XSD too (xsd.ts, many invoices per run of the validator). It applies the send limits per NIP (per
 * second, minute and hour; 429 with Retry-After) and
 * answers a duplicate with 440 and the original KSeF number. Failure injection by invoice number:
 * `KSEF-DOWN-` (the call fails twice, retriable), `KSEF-REJECT-` (450 at the verdict).
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '@einvoice/domain';
import type { ConnectorQuery } from '../registry/area';
import type { AuthorityConnector, AuthorityOutcome, AuthorityReport } from '../registry/authority';
import { invoiceHash, keyOf } from './fa3-key';
import { fa3Problems } from './fa3-check';
import { newKsefNumber } from './ksef-number';
import type { XsdVerdict } from '../conformance/xsd-engine';
import { FA3_XSD, validateFa3Many } from './xsd';

/** The send limits the sandbox applies per seller NIP (KSeF's own for "send": 10/s, 30/min, 180/h). */
export interface KsefLimits {
  readonly perSecond: number;
  readonly perMinute: number;
  readonly perHour: number;
}

export const KSEF_SEND_LIMITS: KsefLimits = { perSecond: 10, perMinute: 30, perHour: 180 };

export interface KsefReceipt {
  /** The invoice's reference number in KSeF. */
  readonly referenceNumber: string;
  /** Live: the online session it was sent in (its status is read there). */
  readonly sessionReferenceNumber?: string;
  /** Live: where KSeF serves the invoice's UPO (expires). */
  readonly upoDownloadUrl?: string;
  readonly ksefNumber?: string;
  readonly acquisitionDate?: string;
}

const DOWN_FAILURES = 2;
/** Invoices checked in one run (with the official XSD on: one spawned validator and one load of the schema for all). */
const PROCESSED_AT_ONCE = 200;
const unavailable = (message: string) => new AppError('unavailable', 'KSEF.UNAVAILABLE', message, { retriable: true });

/**
 * KSeF's refusal of an invoice for its content (450, "Błąd weryfikacji semantyki dokumentu faktury")
 * with the first problems found: the own structural check's, then the Ministry's XSD's when it ran.
 */
export function semanticsRefusal(xml: string, official?: XsdVerdict): { readonly code: '450'; readonly message: string } | undefined {
  const problems = [...fa3Problems(xml), ...(official && !official.valid ? official.errors : [])];
  return problems.length ? { code: '450', message: `Błąd weryfikacji semantyki dokumentu faktury: ${problems.slice(0, 3).join('; ')}` } : undefined;
}

export class SandboxKsef implements AuthorityConnector<unknown, KsefReceipt> {
  /** The processing run in progress in this process, and the one asked for meanwhile (processPending). */
  private running?: Promise<void>;
  private queued?: Promise<void>;

  constructor(
    private readonly query: ConnectorQuery,
    private readonly limits: KsefLimits = KSEF_SEND_LIMITS,
    /** How long KSeF takes to answer after taking an invoice (tests kill a worker in that window). */
    private readonly answerDelayMs = 0,
  ) {}

  async submit(report: AuthorityReport): Promise<AuthorityOutcome<KsefReceipt>> {
    const xml = report.document.bytes;
    const { nip, kind, number } = keyOf(xml);
    const [{ calls }] = await this.query<{ calls: number }>(
      `INSERT INTO ksef_sandbox_calls (report_id, calls) VALUES ($1, 1) ON CONFLICT (report_id) DO UPDATE SET calls = ksef_sandbox_calls.calls + 1 RETURNING calls`,
      [report.reportId],
    );
    if (number.startsWith('KSEF-DOWN-') && calls <= DOWN_FAILURES) throw unavailable('KSeF does not answer (sandbox: KSEF-DOWN-).');
    await this.withinLimits(nip);
    const referenceNumber = `${new Date().toISOString().slice(0, 10).replace(/-/g, '')}-EE-${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}`;
    const [taken] = await this.query<{ reference_number: string }>(
      `INSERT INTO ksef_sandbox_invoices (reference_number, report_id, nip, kind, number, invoice_hash, state, invoice_xml) VALUES ($1, $2, $3, $4, $5, $6, 'processing', $7)
       ON CONFLICT DO NOTHING RETURNING reference_number`,
      [referenceNumber, report.reportId, nip, kind, number, invoiceHash(xml), xml],
    );
    if (!taken) {
      const [original] = await this.query<{ ksef_number: string | null; report_id: string }>(`SELECT ksef_number, report_id FROM ksef_sandbox_invoices WHERE nip = $1 AND kind = $2 AND number = $3`, [nip, kind, number]);
      return { kind: 'rejected', error: { code: '440', message: `Duplikat faktury: ${nip} ${kind} ${number} (originalKsefNumber ${original?.ksef_number ?? 'pending'}).` } };
    }
    if (this.answerDelayMs) await new Promise((resolve) => setTimeout(resolve, this.answerDelayMs));
    return { kind: 'accepted', final: false, receipt: { referenceNumber } };
  }

  /** KSeF's answer to an invoice status query: still 100, or 200 with the KSeF number, or 450. */
  async poll(report: AuthorityReport, receipt: KsefReceipt): Promise<AuthorityOutcome<KsefReceipt> | { readonly kind: 'pending' }> {
    const [row] = await this.query<{ state: string; nip: string; number: string; ksef_number: string | null; error_code: string | null; error_message: string | null }>(
      `SELECT state, nip, number, ksef_number, error_code, error_message FROM ksef_sandbox_invoices WHERE reference_number = $1`,
      [receipt.referenceNumber],
    );
    if (!row) throw new AppError('not_found', 'KSEF.UNKNOWN_REFERENCE', `KSeF holds no invoice ${receipt.referenceNumber}.`, { retriable: false });
    if (row.state === 'processing') {
      await this.processPending();
      return this.poll(report, receipt);
    }
    if (row.state === 'rejected') return { kind: 'rejected', error: { code: row.error_code ?? '450', message: row.error_message ?? 'Odrzucona.' } };
    return { kind: 'accepted', final: true, receipt: { referenceNumber: receipt.referenceNumber, ksefNumber: row.ksef_number ?? undefined, acquisitionDate: new Date().toISOString() } };
  }

  /**
   * KSeF's processing, one run at a time in this process: a poll that finds its invoice at status 100
   * while a run is in progress waits for the next run, which starts when that one ends and serves every
   * poll that asked meanwhile. Each poll starting its own run made the sweep's concurrent polls check
   * the same invoices again and again, one spawned validator each (issue 11: Poland's drain of ~5,000
   * invoices ran at 30–40 a second, the validator's own rate being ~450).
   */
  private processPending(): Promise<void> {
    if (!this.running) {
      this.running = this.processOnce().finally(() => (this.running = undefined));
      return this.running;
    }
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.processPending();
      });
    return this.queued;
  }

  /**
   * What KSeF took and has not checked yet (PROCESSED_AT_ONCE at most, the oldest first) checked by the
   * own structural check, and the FA(3) XSD in one run of the validator when CONFORMANCE_DIR turned it on,
   * then numbered (200) or refused (450). Workers of several processes may run it at once: each row's
   * state changes once (`AND state = 'processing'`).
   */
  private async processOnce(): Promise<void> {
    const rows = await this.query<{ reference_number: string; nip: string; number: string; invoice_xml: string }>(
      `SELECT reference_number, nip, number, invoice_xml FROM ksef_sandbox_invoices WHERE state = 'processing' ORDER BY received_at LIMIT $1`,
      [PROCESSED_AT_ONCE],
    );
    const xmls = rows.map((r) => r.invoice_xml ?? '');
    const schema = FA3_XSD.files();
    const official = schema ? await validateFa3Many(xmls, schema) : undefined;
    const today = new Date().toISOString().slice(0, 10);
    const outcomes = rows.map((row, i) => {
      const refused = semanticsRefusal(xmls[i], official?.[i]);
      if (refused) return { ref: row.reference_number, state: 'rejected', ksef: null, ...refused };
      if (row.number.startsWith('KSEF-REJECT-')) return { ref: row.reference_number, state: 'rejected', ksef: null, code: '450', message: 'Błąd weryfikacji semantyki dokumentu faktury (sandbox: KSEF-REJECT-).' };
      return { ref: row.reference_number, state: 'accepted', ksef: newKsefNumber(row.nip, today), code: null, message: null };
    });
    if (!outcomes.length) return;
    await this.query(
      `UPDATE ksef_sandbox_invoices i SET state = o.state, ksef_number = o.ksef, error_code = o.code, error_message = o.message, invoice_xml = NULL
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS o(ref, state, ksef, code, message)
       WHERE i.reference_number = o.ref AND i.state = 'processing'`,
      [outcomes.map((o) => o.ref), outcomes.map((o) => o.state), outcomes.map((o) => o.ksef), outcomes.map((o) => o.code), outcomes.map((o) => o.message)],
    );
  }

  /** After a lost answer: KSeF is asked by the invoice's hash first, so a timeout never sends it twice. */
  async recover(report: AuthorityReport): Promise<AuthorityOutcome<KsefReceipt> | undefined> {
    const { nip } = keyOf(report.document.bytes);
    const [row] = await this.query<{ reference_number: string }>(`SELECT reference_number FROM ksef_sandbox_invoices WHERE nip = $1 AND invoice_hash = $2`, [nip, invoiceHash(report.document.bytes)]);
    return row ? { kind: 'accepted', final: false, receipt: { referenceNumber: row.reference_number } } : undefined;
  }

  /** 429 with Retry-After when the NIP's sends in the last second, minute or hour reach the limits. */
  private async withinLimits(nip: string): Promise<void> {
    const [row] = await this.query<{ second: number; minute: number; hour: number }>(
      `SELECT count(*) FILTER (WHERE sent_at > clock_timestamp() - interval '1 second')::int AS second,
              count(*) FILTER (WHERE sent_at > clock_timestamp() - interval '1 minute')::int AS minute,
              count(*)::int AS hour
       FROM ksef_sandbox_sends WHERE nip = $1 AND sent_at > clock_timestamp() - interval '1 hour'`,
      [nip],
    );
    const over = row.second >= this.limits.perSecond ? 1 : row.minute >= this.limits.perMinute ? 60 : row.hour >= this.limits.perHour ? 3600 : 0;
    if (over) {
      throw new AppError('rate_limited', 'KSEF.429', `Przekroczono limit żądań; spróbuj ponownie po ${over} sekundach.`, { retriable: true, details: { retryAfterMs: over * 1000 } });
    }
    await this.query(`INSERT INTO ksef_sandbox_sends (nip) VALUES ($1)`, [nip]);
  }
}
