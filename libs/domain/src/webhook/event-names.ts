import { type FieldIssue, issue } from '../errors';

/**
 * The names a subscription lists in `events` (README "Webhooks"). A name is the body's
 * `EventType`, as seed 002 names the received document `PeppolReceived`; `DocumentReceived` (that
 * body's `Event`, the first name subscriptions had) stays a synonym of `PeppolReceived`.
 */
export const PEPPOL_RECEIVED_NAMES = ['DocumentReceived', 'PeppolReceived'] as const;

/**
 * The MyInvois document lifecycle as the authority states it (SDK "Get Submission" statuses
 * Valid / Invalid / Cancelled, a refusal at "Submit Documents", the buyer's "Reject Document"):
 * one name per state a document reaches, each a webhook for the issuing supplier.
 */
export const MYINVOIS_EVENT_NAMES = ['MyInvoisValid', 'MyInvoisInvalid', 'MyInvoisRejected', 'MyInvoisCancelled', 'MyInvoisRejectedByBuyer'] as const;
export type MyInvoisEventName = (typeof MYINVOIS_EVENT_NAMES)[number];

/** Every name any area accepts (OpenAPI enum). */
export const WEBHOOK_EVENT_TYPES = [...PEPPOL_RECEIVED_NAMES, ...MYINVOIS_EVENT_NAMES] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * The names a supplier of `area` may subscribe to. Peppol areas only receive; Malaysian suppliers
 * hear MyInvois's verdicts on their documents and may also receive over Peppol (as participants).
 */
export function webhookEventNames(area: string): readonly WebhookEventType[] {
  return area === 'my' ? WEBHOOK_EVENT_TYPES : PEPPOL_RECEIVED_NAMES;
}

/** `events[i]` of a registration that `area` does not know, each a `FIELD.INVALID_VALUE` naming the allowed names. */
export function checkWebhookEvents(area: string, events: readonly string[]): FieldIssue[] {
  const allowed: readonly string[] = webhookEventNames(area);
  return events.flatMap((name, i) =>
    allowed.includes(name) ? [] : [issue(`events[${i}]`, 'FIELD.INVALID_VALUE', `events[${i}] must be one of: ${allowed.join(', ')}`)],
  );
}
