/**
 * The Malaysian area's registry entry (LHDN MyInvois, seed 000): its routes, its authority (which
 * answers asynchronously: the submission's verdict comes from polling Get Submission), its PINT MY
 * Peppol layer, its webhook names, and its events, read models and tables.
 */
import { type EventProjector, PEPPOL_RECEIVED_NAMES } from '@einvoice/domain';
import { type MyInvoisRejectionEvent, type MyInvoisSubmissionEvent, myInvoisDocumentsSubmittedSchema } from './domain';
import type { AreaDefinition } from '../registry/area';
import { documentVersion } from './document-tree';
import { myInvoisMigrations } from './migrations';
import { pintMyIds } from './pint-my-codes';
import { myInvoisConstraintErrors, projectMyInvoisDocuments } from './read-models/documents';
import { projectMyInvoisRejections } from './read-models/rejections';
import { myInvoisReportingMigrations } from './reporting';
import { MYINVOIS_EVENT_NAMES, myInvoisReportWebhookSources, myInvoisWebhookSources } from './webhooks';

const documents: EventProjector = projectMyInvoisDocuments;
const rejections: EventProjector = projectMyInvoisRejections;

/** Every MyInvois event and what it updates (`null`: history only, no read model). */
const projectors: Record<MyInvoisSubmissionEvent['type'] | MyInvoisRejectionEvent['type'], EventProjector | null> = {
  MyInvoisDocumentsSubmitted: documents,
  MyInvoisSubmissionAttempted: null,
  MyInvoisSubmissionDeferred: documents,
  MyInvoisSubmissionAccepted: documents,
  MyInvoisSubmissionRejected: documents,
  MyInvoisSubmissionPolled: documents,
  MyInvoisDocumentValidated: documents,
  MyInvoisDocumentInvalidated: documents,
  MyInvoisDocumentCancellationRequested: documents,
  MyInvoisDocumentCancelled: documents,
  MyInvoisDocumentCancellationRefused: documents,
  MyInvoisDocumentRejectedByBuyer: documents,
  MyInvoisPeppolCopyWithheld: documents,
  MyInvoisBuyerRejectionRequested: rejections,
  MyInvoisBuyerRejectionRecorded: rejections,
  MyInvoisBuyerRejectionRefused: rejections,
};

/** Malaysia. */
export const myInvoisDefinition: AreaDefinition = {
  code: 'my',
  name: 'Malaysia',
  // MyInvois document types, the version rendered (document-tree.ts `documentVersion`).
  ruleSetId: `myinvois:document:${documentVersion}`,
  routePrefix: 'api/einvoice',
  authority: { answer: 'poll' },
  // Self-billed copies use PINT MY's selfbilling customization (pint-my-codes.ts).
  peppol: { ...pintMyIds.billing, ruleSetId: 'pint-my:billing:1.3.1' },
  // Malaysian suppliers hear MyInvois's verdicts on their documents and receive over Peppol as participants.
  webhookEvents: [...PEPPOL_RECEIVED_NAMES, ...MYINVOIS_EVENT_NAMES],
  webhooks: myInvoisWebhookSources,
  // Its documents' report events (generic pipeline, #8), once MyInvois reports through it.
  reportWebhooks: myInvoisReportWebhookSources,
  events: {
    name: 'area:my',
    area: 'my',
    // Submissions (`myinvois-<id>`) and buyers' rejections (`myinvois-rejection-<id>`): the reporting worker's topic.
    streams: { myinvois: 'documents' },
    projectors,
    constraintErrors: myInvoisConstraintErrors,
    migrations: [...myInvoisMigrations, ...myInvoisReportingMigrations],
    schemas: { MyInvoisDocumentsSubmitted: myInvoisDocumentsSubmittedSchema },
  },
};
