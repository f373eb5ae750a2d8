import { referenceOf } from '@einvoice/domain';

/** One step of a document's life in `GET /v1/documents/{id}`. */
export interface TimelineEntry {
  /** accepted, scheduled, sent, delivered, failed, submitted, reported, refused, cancellation_requested, cancelled, received, ... */
  readonly type: string;
  readonly at: string;
  readonly detail: Record<string, unknown>;
}

/** An event of the document's streams (`document-<id>`, `report-<report id>`), in the order they were appended. */
export interface TrackEvent {
  readonly type: string;
  readonly data: Record<string, unknown>;
  readonly recorded_at: Date;
}

type Step = (data: Record<string, unknown>, first: boolean) => { type: string; detail: Record<string, unknown> };

const error = (data: Record<string, unknown>) => data.error as { code: string; message: string; details?: unknown } | undefined;
const codes = (data: Record<string, unknown>) => {
  const e = error(data);
  return e ? { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) } : {};
};
const withReference = (data: Record<string, unknown>) => {
  const reference = referenceOf((data.receipt as Record<string, unknown> | undefined) ?? null);
  return reference ? { reference } : {};
};

/**
 * What each event says in the timeline. The reporting worker's own bookkeeping (an attempt, a poll
 * without verdict, a turn-away, the chain link) is left out: it changes nothing the caller sees.
 * A delivery following the report (a Peppol copy released) is `scheduled`, not a second `accepted`.
 */
const STEPS: Readonly<Record<string, Step>> = {
  DocumentSubmitted: (d, first) => ({ type: first ? 'accepted' : 'scheduled', detail: { track: 'exchange', receiver: d.receiverParticipantId ?? null } }),
  AuthorityReportRequested: (_, first) => ({ type: first ? 'accepted' : 'scheduled', detail: { track: 'authority' } }),
  DocumentSent: (d) => ({ type: 'sent', detail: { track: 'exchange', message_id: d.messageId, receiver: d.receiverParticipantId } }),
  DocumentDelivered: (d) => ({ type: 'delivered', detail: { track: 'exchange', message_id: d.messageId, channel: d.channel, mls: d.mls } }),
  DocumentDeliveryFailed: (d) => ({ type: 'failed', detail: { track: 'exchange', ...(d.reason as object), ...(d.mls ? { mls: d.mls } : {}) } }),
  DocumentReceived: (d) => ({ type: 'received', detail: { track: 'exchange', message_id: d.messageId, sender: d.senderParticipantId } }),
  // Not final: taken for processing, the verdict comes later (KSeF, MyInvois, the FTA).
  AuthorityReportAccepted: (d) => ({ type: d.final === false ? 'submitted' : 'reported', detail: { track: 'authority', ...withReference(d) } }),
  AuthorityReportValidated: (d) => ({ type: 'reported', detail: { track: 'authority', ...withReference(d) } }),
  AuthorityReportRejected: (d) => ({ type: 'refused', detail: { track: 'authority', ...codes(d) } }),
  AuthorityReportInvalidated: (d) => ({ type: 'refused', detail: { track: 'authority', ...codes(d), ...withReference(d) } }),
  AuthorityReportCancellationRequested: (d) => ({ type: 'cancellation_requested', detail: { track: 'authority', reason: d.reason } }),
  AuthorityReportCancelled: () => ({ type: 'cancelled', detail: { track: 'authority' } }),
  AuthorityReportCancellationRefused: (d) => ({ type: 'cancellation_refused', detail: { track: 'authority', ...codes(d) } }),
  AuthorityReportAmendmentRequested: (d) => ({ type: 'amendment_requested', detail: { track: 'authority', change: d.change } }),
  AuthorityReportAmended: (d) => ({ type: 'amended', detail: { track: 'authority', change: d.change } }),
  AuthorityReportAmendmentRefused: (d) => ({ type: 'amendment_refused', detail: { track: 'authority', ...codes(d) } }),
  AuthorityReportBuyerRejected: (d) => ({ type: 'buyer_rejected', detail: { track: 'authority', reason: d.reason } }),
  AuthorityReportPeppolCopyWithheld: (d) => ({ type: 'peppol_copy_withheld', detail: { track: 'exchange', ...(d.reason as object) } }),
};

/** When it happened: the event's own time field (`deliveredAt`, `rejectedAt`...), else when it was recorded. */
function atOf(event: TrackEvent): string {
  const own = Object.entries(event.data).find(([key, value]) => key.endsWith('At') && key !== 'nextPollAt' && typeof value === 'string');
  return own ? new Date(own[1] as string).toISOString() : new Date(event.recorded_at).toISOString();
}

/** The document's timeline from its tracks' events. */
export function timelineOf(events: readonly TrackEvent[]): TimelineEntry[] {
  const timeline: TimelineEntry[] = [];
  for (const event of events) {
    const step = STEPS[event.type];
    if (!step) continue;
    timeline.push({ ...step(event.data, timeline.length === 0), at: atOf(event) });
  }
  return timeline;
}
