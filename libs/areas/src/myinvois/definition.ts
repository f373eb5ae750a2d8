/**
 * The Malaysian area's registry entry (LHDN MyInvois, seed 000): its routes, its authority (reports of
 * the generic pipeline, #8: a caller's submission is one Submit Documents call, each document's verdict
 * comes from polling Get Submission), its PINT MY Peppol layer, its webhook names, and the events, read
 * model and tables of its buyers' rejections.
 */
import { type EventProjector, PEPPOL_RECEIVED_NAMES } from '@einvoice/domain';
import { type MyInvoisRejectionEvent } from './domain';
import type { AreaDefinition } from '../registry/area';
import { documentVersion } from './document-tree';
import { myInvoisMigrations } from './migrations';
import { pintMyIds } from './pint-my-codes';
import { myInvoisCarryOver, myInvoisReportingConnector, myInvoisReportingMigrations } from './reporting';
import { projectMyInvoisRejections } from './read-models/rejections';
import { MYINVOIS_EVENT_NAMES, myInvoisReportWebhookSources } from './webhooks';

const rejections: EventProjector = projectMyInvoisRejections;

/** Every MyInvois event (its buyers' rejections of documents they received) and what it updates. */
const projectors: Record<MyInvoisRejectionEvent['type'], EventProjector | null> = {
  MyInvoisBuyerRejectionRequested: rejections,
  MyInvoisBuyerRejectionRecorded: rejections,
  MyInvoisBuyerRejectionRefused: rejections,
};

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
    // Documents submitted before #8 (the submission aggregate's streams) go on as reports (`cli migrate`).
    carryOver: myInvoisCarryOver(ruleSetId),
  },
  // Self-billed copies use PINT MY's selfbilling customization (pint-my-codes.ts).
  peppol: { ...pintMyIds.billing, ruleSetId: 'pint-my:billing:1.3.1' },
  // Malaysian suppliers hear MyInvois's verdicts on their documents and receive over Peppol as participants.
  webhookEvents: [...PEPPOL_RECEIVED_NAMES, ...MYINVOIS_EVENT_NAMES],
  // One per document whose state a report event changes (webhooks.ts).
  reportWebhooks: myInvoisReportWebhookSources,
  events: {
    name: 'area:my',
    area: 'my',
    // Buyers' rejections (`myinvois-rejection-<id>`): the reporting worker's topic.
    streams: { myinvois: 'documents' },
    projectors,
    migrations: [...myInvoisMigrations, ...myInvoisReportingMigrations],
  },
};
