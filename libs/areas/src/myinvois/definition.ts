/**
 * The Malaysian area's registry entry (LHDN MyInvois, seed 000): its routes, its documents codec, its authority (reports of
 * the generic pipeline, #8: a caller's submission is one Submit Documents call, each document's verdict
 * comes from polling Get Submission; a buyer's rejection of a document it received is a report too),
 * its PINT MY Peppol layer, its webhook names and its tables.
 */
import { PEPPOL_RECEIVED_NAMES } from '@einvoice/domain';
import type { AreaDefinition } from '../registry/area';
import { myInvoisDocuments } from './codec';
import { documentVersion } from './document-tree';
import { myInvoisMigrations } from './migrations';
import { pintMyIds } from './pint-my-codes';
import { myInvoisPrintable } from './printable';
import { myInvoisCarryOver, myInvoisRejectionCarryOver, myInvoisReportingConnector, myInvoisReportingMigrations } from './reporting';
import { myInvoisOnboarding } from './revise';
import { MYINVOIS_EVENT_NAMES, myInvoisReportWebhookSources } from './webhooks';

// MyInvois document types, the version rendered (document-tree.ts `documentVersion`).
const ruleSetId = `myinvois:document:${documentVersion}` as const;

/** Malaysia. */
export const myInvoisDefinition: AreaDefinition = {
  code: 'my',
  name: 'Malaysia',
  ruleSetId,
  routePrefix: 'api/einvoice',
  authority: {
    answer: 'poll',
    connector: myInvoisReportingConnector,
    // A caller's submission (up to 100 documents) is one Submit Documents call, sent at once (its batch key).
    batch: { maxReports: 100, maxWaitMs: 0, issuerCallsAtOnce: 4 },
    // Get Submission every 3 s (notes: every 3–5 s), MYINVOIS_MAX_POLLS times; then every 5 minutes.
    poll: {
      intervalMs: Number(process.env.MYINVOIS_POLL_MS ?? 3_000),
      // At once after acceptance, as before #8: the first Get Submission rarely has the verdict, the next one, MYINVOIS_POLL_MS later, usually has.
      firstPollAfterMs: 0,
      maxPolls: Number(process.env.MYINVOIS_MAX_POLLS ?? 100),
      slowIntervalMs: Number(process.env.MYINVOIS_STALE_POLL_MS ?? 300_000),
    },
    // Documents submitted and buyers' rejections asked before #8 (the two aggregates' streams) go on as reports (`cli migrate`).
    carryOvers: [myInvoisCarryOver(ruleSetId), myInvoisRejectionCarryOver(ruleSetId)],
    // A submission's answer is Submit Documents' (its verdict comes by poll), a cancellation's Cancel Document's.
    waitMs: Number(process.env.MYINVOIS_WAIT_MS ?? 5_000),
  },
  // Self-billed copies use PINT MY's selfbilling customization (pint-my-codes.ts).
  peppol: { ...pintMyIds.billing, ruleSetId: 'pint-my:billing:1.3.1' },
  // Malaysian suppliers hear MyInvois's verdicts on their documents and receive over Peppol as participants.
  webhookEvents: [...PEPPOL_RECEIVED_NAMES, ...MYINVOIS_EVENT_NAMES],
  // One per document whose state a report event changes (webhooks.ts).
  reportWebhooks: myInvoisReportWebhookSources,
  // Its documents through the pipeline (codec.ts): submitted several at once by its own routes, read and cancelled by the pipeline's.
  documents: myInvoisDocuments,
  // The document as people read it, from the document MyInvois validated, with the validation link's QR once Valid (printable.ts, #49).
  printable: myInvoisPrintable,
  // Onboarded by its own route (apps/gateway/src/areas/myinvois); here for what a change may take (revise.ts).
  onboarding: myInvoisOnboarding,
  events: {
    name: 'area:my',
    area: 'my',
    // The streams of before #8 (`myinvois-<id>`, `myinvois-rejection-<id>`), read by the carry-overs only: no new event, no projector.
    streams: { myinvois: 'documents' },
    projectors: {},
    migrations: [...myInvoisMigrations, ...myInvoisReportingMigrations],
  },
};
