/**
 * The Service Metadata Locator (SML/SMK): registers a participant id as served by our SMP (the DNS entry
 * senders look up) or removes it. The delivery worker drives it (apps/delivery-worker/src/sml): the
 * sandbox SML in-process by default, BDMSL's SOAP interface (bdmsl-sml.ts) with `PEPPOL_SML=test|production`.
 */
export interface SmlConnector {
  /** Idempotent: registering a registered participant succeeds. */
  register(participantId: string): Promise<void>;
  /** Idempotent: removing an unregistered participant succeeds. */
  unregister(participantId: string): Promise<void>;
}
