/**
 * MyInvois buyers' rejections of the model before #8 carried onto the reporting pipeline: each request
 * of a `myinvois-rejection-<id>` stream (the rejection aggregate, gone since) becomes the report the
 * gateway now records for it (buyer-rejection.ts, numbered in the stream's order), with MyInvois's
 * answer where it had one; one never answered is sent by the batch sweep, where a call that reached
 * MyInvois before the upgrade is found done (Reject Document's "only once" with this reason). Run once
 * by `cli migrate`, after the submissions' carry-over (ReportCarryOver).
 */
import type { AuthorityReportCommand } from '@einvoice/domain';
import type { ConnectorQuery } from '../../registry/area';
import type { CarriedReport, ReportCarryOver } from '../../registry/authority';
import { rejectionReport } from './buyer-rejection';
import { type LegacyEvent, legacyEvents } from './carry-over';
import { type RejectionRefusalKind, type SubmissionError, authorityErrorOf } from './report';

interface LegacyRequested {
  readonly tenantId: string;
  readonly supplierId: string;
  readonly uuid: string;
  readonly reason: string;
  readonly requestedAt: string;
}

/** One rejection stream's requests as carried reports, in the stream's order. */
export function carriedRejectionsOf(events: readonly LegacyEvent[], ruleSetId: string): CarriedReport[] {
  const reports: Array<{ request: CarriedReport['request']; commands: AuthorityReportCommand[] }> = [];
  for (const { type, data } of events) {
    const open = reports.at(-1);
    switch (type) {
      case 'MyInvoisBuyerRejectionRequested': {
        const d = data as unknown as LegacyRequested;
        const asked = { tenantId: d.tenantId, buyerId: d.supplierId, uuid: d.uuid, reason: d.reason, ruleSetId, requestedAt: d.requestedAt };
        reports.push({ request: rejectionReport(asked, reports.length), commands: [] });
        break;
      }
      case 'MyInvoisBuyerRejectionRecorded':
        if (open) {
          const answer = { kind: 'accepted' as const, receipt: {}, recovered: false, final: true, at: data.rejectedAt as string };
          open.commands.push({ type: 'RecordAuthorityAnswer', data: { reportId: open.request.reportId, answer } });
        }
        break;
      case 'MyInvoisBuyerRejectionRefused':
        if (open) {
          const error = data.error as SubmissionError;
          const receipt = { refusal: data.kind as RejectionRefusalKind };
          open.commands.push({ type: 'RecordAuthorityAnswer', data: { reportId: open.request.reportId, answer: { kind: 'rejected', error: authorityErrorOf(error), receipt, at: data.refusedAt as string } } });
        }
        break;
      default:
        break;
    }
  }
  return reports;
}

/** Rejection streams read and carried together (a few events each). */
const STREAMS_PER_PAGE = 200;

/** MyInvois's buyers' rejections of before #8, oldest first, STREAMS_PER_PAGE streams a page. */
export function myInvoisRejectionCarryOver(ruleSetId: string): ReportCarryOver {
  return {
    name: 'myinvois:rejections-to-reports',
    // Nothing of it reaches the workers: an unanswered request is found by the batch sweep in `documents`.
    publish: [],
    async *reports(query: ConnectorQuery) {
      const streamIds = (
        await query<{ stream_id: string }>(`SELECT stream_id FROM events WHERE stream_id LIKE 'myinvois-rejection-%' AND stream_position = 1 ORDER BY global_position`)
      ).map((r) => r.stream_id);
      for (let at = 0; at < streamIds.length; at += STREAMS_PER_PAGE) {
        const streams = await legacyEvents(query, streamIds.slice(at, at + STREAMS_PER_PAGE));
        yield streams.flatMap((events) => carriedRejectionsOf(events, ruleSetId));
      }
    },
  };
}
