import { type FieldIssue, issue } from '../errors';

/**
 * The names a subscription lists in `events` (README "Webhooks"). A name is the body's
 * `EventType`, as seed 002 names the received document `PeppolReceived`; `DocumentReceived` (that
 * body's `Event`, the first name subscriptions had) stays a synonym of `PeppolReceived`.
 */
export const PEPPOL_RECEIVED_NAMES = ['DocumentReceived', 'PeppolReceived'] as const;

/** `events[i]` of a registration that its area does not offer (`allowed`: the area's names, area registry), each a `FIELD.INVALID_VALUE`. */
export function checkWebhookEvents(allowed: readonly string[], events: readonly string[]): FieldIssue[] {
  return events.flatMap((name, i) =>
    allowed.includes(name) ? [] : [issue(`events[${i}]`, 'FIELD.INVALID_VALUE', `events[${i}] must be one of: ${allowed.join(', ')}`)],
  );
}
