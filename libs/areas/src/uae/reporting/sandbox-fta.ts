/**
 * The sandbox FTA (README.md "Reporting to the FTA"): takes TDDs as the FTA's corner 5 would, keeps
 * what it took in PostgreSQL (tables `uae_fta_sandbox_*`, shared by every process of a stack and kept
 * across restarts), numbers them with its own references, checks each TDD (tdd-rules.ts) and answers
 * its MLS `UAE_SANDBOX_FTA_MLS_MS` after receipt: AP, or RE with the broken rules. A second report of
 * the same document (UUID) in the same role is not filed twice: it gets the first one's answer.
 * Fails on purpose by document number, or for the next N calls by a switch in its table.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { ConnectorQuery } from '../../registry/area';
import { buildMls, type MlsIssue, type MlsResponseCode } from '../../peppol-ubl/mls';
import { readTdd, type TddReading } from './tdd-rules';
import { timedOut, unavailable, type FtaTransport, type TddAcknowledgement, type TddMessage, type TddStatus } from './transport';

/** Markers in the reported document's number (IBT-001) that make the sandbox misbehave. */
export const FTA_MARKERS = {
  /** Answers 503 to the first FLAKY_FAILURES sends of the message, then takes it. */
  flaky: 'FTA-FLAKY',
  /** Takes it, then the answer is lost (a timeout) on the first send; `status` finds it. */
  lost: 'FTA-LOST',
  /** MLS RE, reason BV. */
  reject: 'FTA-REJECT',
  /** MLS AB (acknowledged, delivered without confirmation) instead of AP. */
  acknowledge: 'FTA-AB',
} as const;

/** Sends of an `FTA-FLAKY` message answered 503 before the sandbox takes it. */
export const FLAKY_FAILURES = 2;
/** Default of `UAE_SANDBOX_FTA_MLS_MS`. */
export const DEFAULT_MLS_DELAY_MS = 2_000;

export interface SandboxFtaOptions {
  /** The FTA's service-provider id, the sender of its MLS. */
  readonly ftaId: string;
  /** How long after receipt the MLS is available (default 2000 ms). */
  readonly mlsDelayMs?: number;
}

/** A fault the switch injects: a 503, or no answer in time. */
export type FtaFaultKind = 'unavailable' | 'timeout';

/** Makes the sandbox fail the next `calls` sends and status reads of `scope` (a reporting party `0235:…`, or `*`). */
export async function injectFtaFaults(
  query: ConnectorQuery,
  fault: { readonly kind: FtaFaultKind; readonly calls: number; readonly scope?: string },
): Promise<void> {
  await query(
    `INSERT INTO uae_fta_sandbox_faults (scope, kind, remaining) VALUES ($1, $2, $3)
     ON CONFLICT (scope) DO UPDATE SET kind = EXCLUDED.kind, remaining = EXCLUDED.remaining RETURNING scope`,
    [fault.scope ?? '*', fault.kind, fault.calls],
  );
}

interface ReportRow {
  reference: string;
  reporting_party: string | null;
  representative: string | null;
  response_code: MlsResponseCode;
  description: string | null;
  issues: MlsIssue[];
  mls_id: string;
  received_at: Date;
  mls_due_at: Date;
}

interface Answer {
  readonly code: MlsResponseCode;
  readonly description?: string;
  readonly issues: readonly MlsIssue[];
}

const iso = (d: Date | string) => new Date(d).toISOString();

export class SandboxFta implements FtaTransport {
  private readonly mlsDelayMs: number;

  constructor(
    private readonly query: ConnectorQuery,
    private readonly options: SandboxFtaOptions,
  ) {
    this.mlsDelayMs = options.mlsDelayMs ?? DEFAULT_MLS_DELAY_MS;
  }

  async send(message: TddMessage): Promise<TddAcknowledgement> {
    const reading = readTdd(message.xml);
    await this.fault(reading.facts.reportingParty ?? message.senderId, message.messageId);
    const [{ calls }] = await this.query<{ calls: number }>(
      `INSERT INTO uae_fta_sandbox_calls (message_id, calls) VALUES ($1, 1)
       ON CONFLICT (message_id) DO UPDATE SET calls = uae_fta_sandbox_calls.calls + 1 RETURNING calls`,
      [message.messageId],
    );
    const number = reading.facts.documentId ?? '';
    if (number.includes(FTA_MARKERS.flaky) && calls <= FLAKY_FAILURES) {
      throw unavailable(`The sandbox FTA answered 503 (send ${calls} of ${message.messageId}).`, { messageId: message.messageId });
    }
    const report = await this.file(message, reading, answerTo(reading));
    if (number.includes(FTA_MARKERS.lost) && calls === 1) {
      throw timedOut(`The sandbox FTA took ${message.messageId} but its answer was lost.`, { messageId: message.messageId });
    }
    return { messageId: message.messageId, receivedAt: report.receivedAt, reference: report.reference };
  }

  async status(messageId: string): Promise<TddStatus | undefined> {
    const [row] = await this.query<ReportRow & { answered: boolean; message_received_at: Date }>(
      `SELECT r.*, m.received_at AS message_received_at, r.mls_due_at <= now() AS answered
       FROM uae_fta_sandbox_messages m JOIN uae_fta_sandbox_reports r USING (reference) WHERE m.message_id = $1`,
      [messageId],
    );
    await this.fault(row?.reporting_party ?? '*', messageId);
    if (!row) return undefined;
    const status = { messageId, receivedAt: iso(row.message_received_at), reference: row.reference };
    if (!row.answered) return status;
    const mls = buildMls({
      id: row.mls_id,
      issuedAt: iso(row.mls_due_at),
      sender: this.options.ftaId,
      // The access point that sent it; one the TDD did not name as an SPID is answered all the same.
      receiver: row.representative?.startsWith('0242:') ? row.representative : '0242:UNKNOWN',
      responseCode: row.response_code,
      description: row.description ?? undefined,
      messageId,
      issues: row.issues,
    });
    return { ...status, mls };
  }

  /** Files the TDD once per document and role (a message carrying it again is linked to the first filing). */
  private async file(message: TddMessage, reading: TddReading, answer: Answer): Promise<{ reference: string; receivedAt: string }> {
    const f = reading.facts;
    const key = f.documentUuid && f.reporterRole ? `${f.documentUuid}|${f.reporterRole}` : `message:${message.messageId}`;
    const inserted = await this.query<ReportRow>(
      `WITH filed AS (
         INSERT INTO uae_fta_sandbox_reports (reference, dedupe_key, document_id, document_uuid, reporter_role, reporting_party, representative,
           seller_tax_id, tdd_sha256, response_code, description, issues, mls_id, mls_due_at)
         VALUES ('FTA-' || lpad(nextval('uae_fta_sandbox_reference_seq')::text, 10, '0'), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12,
           now() + $13::double precision * interval '1 millisecond')
         ON CONFLICT (dedupe_key) DO NOTHING RETURNING *)
       SELECT * FROM filed`,
      [
        key, f.documentId ?? null, f.documentUuid ?? null, f.reporterRole ?? null, f.reportingParty ?? null, f.representative ?? null,
        f.sellerTaxId ?? null, createHash('sha256').update(message.xml).digest('hex'), answer.code, answer.description ?? null,
        JSON.stringify(answer.issues), randomUUID(), this.mlsDelayMs,
      ],
    );
    const [report] = inserted.length ? inserted : await this.query<ReportRow>(`SELECT * FROM uae_fta_sandbox_reports WHERE dedupe_key = $1`, [key]);
    // The message's own receipt (a message sent again keeps its first).
    const [carried] = await this.query<{ received_at: Date }>(
      `INSERT INTO uae_fta_sandbox_messages (message_id, reference) VALUES ($1, $2)
       ON CONFLICT (message_id) DO UPDATE SET message_id = EXCLUDED.message_id RETURNING received_at`,
      [message.messageId, report.reference],
    );
    return { reference: report.reference, receivedAt: iso(carried.received_at) };
  }

  /** The switch: one fault of `scope` (or of every scope, `*`) used up per call while any remain. */
  private async fault(scope: string, messageId: string): Promise<void> {
    const [row] = await this.query<{ kind: FtaFaultKind; remaining: number }>(
      `WITH used AS (
         UPDATE uae_fta_sandbox_faults SET remaining = remaining - 1
         WHERE scope = (SELECT scope FROM uae_fta_sandbox_faults WHERE scope IN ($1, '*') AND remaining > 0 ORDER BY scope = '*' LIMIT 1 FOR UPDATE)
           AND remaining > 0
         RETURNING kind, remaining)
       SELECT * FROM used`,
      [scope],
    );
    if (!row) return;
    if (row.kind === 'timeout') throw timedOut(`The sandbox FTA did not answer in time (injected, ${row.remaining} left).`, { messageId });
    throw unavailable(`The sandbox FTA answered 503 (injected, ${row.remaining} left).`, { messageId });
  }
}

/** What the FTA answers a TDD: RE with every broken rule, RE/AB on a marker, else AP. */
function answerTo(reading: TddReading): Answer {
  if (reading.issues.length) {
    return {
      code: 'RE',
      description: `The TDD was rejected: ${reading.issues.length} rule(s) broken.`,
      issues: reading.issues.map((i) => ({ location: 'NA', description: i.message, reason: i.reason })),
    };
  }
  const number = reading.facts.documentId ?? '';
  if (number.includes(FTA_MARKERS.reject)) {
    return {
      code: 'RE',
      description: 'The TDD was rejected.',
      issues: [{ location: 'NA', description: `Rejected on purpose: the document number contains ${FTA_MARKERS.reject} (sandbox).`, reason: 'BV' }],
    };
  }
  return { code: number.includes(FTA_MARKERS.acknowledge) ? 'AB' : 'AP', issues: [] };
}
