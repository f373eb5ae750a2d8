/**
 * The UAE FTA as the platform's report pipeline sees it (registry/authority.ts, `answer: 'poll'`):
 * `submit` builds the TDD and hands it to the network (taken → `accepted`, `final: false`); `poll`
 * reads the FTA's MLS (none yet → `pending`; AP/AB → reported; RE → rejected with the reason code
 * and text); `recover`, after an answer lost in a crash, asks what the network has of the message.
 * The transport decides sandbox or live; no call here runs inside a transaction (the worker records
 * before and after).
 */
import { AppError, deterministicUuid } from '@einvoice/domain';
import type { AuthorityCallContext, AuthorityConnector, AuthorityError, AuthorityOutcome, AuthorityReport } from '../../registry/authority';
import { MlsFormatError, parseMls, type Mls } from '../../peppol-ubl/mls';
import { buildTdd, TDD_DOCUMENT_TYPE_ID, TDD_PROCESS_ID, type ReporterRole } from './tdd';
import { UAE_FTA_ERRORS, type FtaTransport, type TddStatus } from './transport';

/** The area's payload of a report (codec.ts `uaeExchange.receivedReport`, the gateway's C2 report). */
export interface UaeReportPayload {
  readonly reporterRole: ReporterRole;
  /** Our id of the participant the report is for (opaque here). */
  readonly participantId: string;
}

/** What the worker keeps of the FTA's answers (merged into the document's `authority.receipt`). */
export interface UaeFtaReceipt {
  readonly messageId: string;
  readonly receivedAt?: string;
  readonly reference?: string;
  /** The MLS, once it came. */
  readonly mls?: { readonly id: string; readonly code: 'AP' | 'AB' | 'RE'; readonly issuedAt: string };
}

export interface UaeFtaConnectorOptions {
  /** `0242:…` of the FTA. */
  readonly ftaId: string;
  /** `0242:…` of this access point. */
  readonly representativeId: string;
  readonly now?: () => Date;
}

type Verdict = AuthorityOutcome<UaeFtaReceipt> | { readonly kind: 'pending' };

/** The SBDH InstanceIdentifier of a report's TDD: one per report, whatever the attempt. */
export function tddMessageId(reportId: string): string {
  return deterministicUuid(`uae-fta-tdd:${reportId}`);
}

/** A rejection as the pipeline records it: the MLS reason code(s), its description and the issues. */
export function rejectionOf(mls: Mls): AuthorityError {
  const reasons = [...new Set(mls.issues.filter((i) => i.reason !== 'BW').map((i) => i.reason))];
  return {
    code: reasons.join(',') || 'RE',
    message: [mls.description, ...mls.issues.map((i) => i.description)].filter(Boolean).join(' — '),
    details: mls.issues.map((i) => ({ code: i.reason, message: i.description, ...(i.location !== 'NA' ? { path: i.location } : {}) })),
  };
}

export class UaeFtaConnector implements AuthorityConnector<UaeReportPayload, UaeFtaReceipt> {
  private readonly now: () => Date;

  constructor(
    private readonly transport: FtaTransport,
    private readonly options: UaeFtaConnectorOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  async submit(report: AuthorityReport<UaeReportPayload>, _context?: AuthorityCallContext): Promise<AuthorityOutcome<UaeFtaReceipt>> {
    const messageId = tddMessageId(report.reportId);
    const tdd = buildTdd(report.document.bytes, {
      reporterRole: roleOf(report.payload),
      ftaId: this.options.ftaId,
      representativeId: this.options.representativeId,
      issuedAt: this.now(),
      transportHeaderId: messageId,
    });
    const party = tdd.reportingParty;
    const ack = await this.transport.send({
      messageId,
      senderId: party.scheme ? `${party.scheme}:${party.id}` : party.id,
      receiverId: this.options.ftaId,
      documentTypeId: TDD_DOCUMENT_TYPE_ID,
      processId: TDD_PROCESS_ID,
      xml: tdd.xml,
    });
    const receipt: UaeFtaReceipt = { messageId, receivedAt: ack.receivedAt, ...(ack.reference ? { reference: ack.reference } : {}) };
    return { kind: 'accepted', final: false, receipt };
  }

  async recover(
    report: AuthorityReport<UaeReportPayload>,
    _firstAttemptAt?: string,
    _context?: AuthorityCallContext,
  ): Promise<AuthorityOutcome<UaeFtaReceipt> | undefined> {
    const messageId = tddMessageId(report.reportId);
    const status = await this.transport.status(messageId);
    if (!status) return undefined;
    const verdict = verdictOf(status);
    return verdict.kind === 'pending' ? { kind: 'accepted', final: false, receipt: receiptOf(status) } : verdict;
  }

  async poll(report: AuthorityReport<UaeReportPayload>, receipt: UaeFtaReceipt, _context?: AuthorityCallContext): Promise<Verdict> {
    const messageId = receipt?.messageId ?? tddMessageId(report.reportId);
    const status = await this.transport.status(messageId);
    if (!status) {
      const text = `The network holds no TDD ${messageId} of report ${report.reportId}.`;
      throw new AppError('not_found', UAE_FTA_ERRORS.UNKNOWN_MESSAGE, text, { retriable: false });
    }
    return verdictOf(status);
  }
}

function roleOf(payload: UaeReportPayload | undefined): ReporterRole {
  const role = payload?.reporterRole;
  if (role === 'C2' || role === 'C3') return role;
  const text = `A UAE report needs reporterRole C2 or C3, not ${JSON.stringify(role)}.`;
  throw new AppError('internal', 'UAE_FTA.BAD_PAYLOAD', text, { retriable: false });
}

function receiptOf(status: TddStatus, mls?: Mls): UaeFtaReceipt {
  return {
    messageId: status.messageId,
    ...(status.receivedAt ? { receivedAt: status.receivedAt } : {}),
    ...(status.reference ? { reference: status.reference } : {}),
    ...(mls ? { mls: { id: mls.id, code: mls.responseCode, issuedAt: mls.issuedAt } } : {}),
  };
}

/** The FTA's answer in a status: its MLS (read), or what the access point says of it. */
export function verdictOf(status: TddStatus): Verdict {
  if (status.mls) {
    let mls: Mls;
    try {
      mls = parseMls(status.mls);
    } catch (error) {
      if (!(error instanceof MlsFormatError)) throw error;
      const unreadable = { code: UAE_FTA_ERRORS.BAD_MLS, message: `The FTA's MLS cannot be read: ${error.message}` };
      return { kind: 'rejected', error: unreadable, receipt: receiptOf(status) };
    }
    if (mls.responseCode === 'RE') return { kind: 'rejected', error: rejectionOf(mls), receipt: receiptOf(status, mls) };
    return { kind: 'accepted', final: true, receipt: receiptOf(status, mls) };
  }
  if (status.responseCode === 'AP' || status.responseCode === 'AB') return { kind: 'accepted', final: true, receipt: receiptOf(status) };
  if (status.responseCode === 'RE') {
    const message = status.undeliverable?.message ?? 'The FTA rejected the TDD (MLS RE).';
    return { kind: 'rejected', error: { code: 'RE', message }, receipt: receiptOf(status) };
  }
  if (status.undeliverable) return { kind: 'rejected', error: status.undeliverable, receipt: receiptOf(status) };
  return { kind: 'pending' };
}
