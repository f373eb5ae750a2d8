/**
 * What an area contributes to the webhook dispatcher: for each of its event types that may
 * concern a subscriber, the webhooks to record. The dispatcher owns the rest (one delivery per
 * matching subscription, signing, retries: apps/webhook-dispatcher/README.md).
 */
import type { ProjectionContext, RecordedEvent } from '@einvoice/domain';

/** One webhook: sent to the supplier's subscriptions that list `name` (or one of `synonyms`). */
export interface AreaWebhook {
  /** `Webhook-Id`: stable across redeliveries (the event id, or derived from it per document). */
  readonly webhookId: string;
  /** The body's `EventType`, one of the area's `webhookEvents`. */
  readonly name: string;
  readonly synonyms?: readonly string[];
  readonly supplierId: string;
  /** The exact JSON text signed and sent. */
  readonly body: string;
}

/** What a source may use: SQL in the dispatcher's transaction (read models committed with the event) and the environment. */
export interface WebhookSourceContext {
  readonly query: ProjectionContext['query'];
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The webhooks of one event (none is a fine answer). */
export type WebhookSource = (event: RecordedEvent, context: WebhookSourceContext) => Promise<readonly AreaWebhook[]>;

/** An area's webhook sources by event type. */
export type AreaWebhooks = Readonly<Record<string, WebhookSource>>;
