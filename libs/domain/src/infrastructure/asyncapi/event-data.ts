/**
 * The data of every event type the platform appends, by its `type`: the one input of
 * `npm run event-schemas` (scripts/generate-event-schemas.mjs), which turns it into the JSON Schemas
 * of event-schemas.json with ts-json-schema-generator. Types only: nothing here runs at run time.
 */
import type {
  AuthorityReportAcceptedData,
  AuthorityReportAmendedData,
  AuthorityReportAmendmentRefusedData,
  AuthorityReportAmendmentRequestedData,
  AuthorityReportAttemptedData,
  AuthorityReportAttemptTurnedAwayData,
  AuthorityReportBuyerRejectedData,
  AuthorityReportCancellationRefusedData,
  AuthorityReportCancellationRequestedData,
  AuthorityReportCancelledData,
  AuthorityReportEvent,
  AuthorityReportInvalidatedData,
  AuthorityReportPeppolCopyWithheldData,
  AuthorityReportPolledData,
  AuthorityReportRejectedData,
  AuthorityReportRequestedData,
  AuthorityReportValidatedData,
} from '../../authority-report/events';
import type { EventMetadata } from '../../events';
import type { DocumentChainEvent, DocumentChainedData } from '../../authority-report/chain';
import type { DocumentDeliveredData, DocumentDeliveryFailedData, DocumentEvent, DocumentReceivedData, DocumentSentData, DocumentSubmittedData } from '../../document/events';
import type { ParticipantEvent, ParticipantKycCompletedData, ParticipantRegistrationData, SmlChangeData } from '../../participant/events';
import type { SupplierDeactivatedData, SupplierEvent, SupplierOnboardedData, SupplierUpdatedData } from '../../supplier/events';
import type { PeppolTransmissionEvent, PeppolTransmissionFailedData, PeppolTransmissionRequestedData, PeppolTransmissionSentData } from '../../transmission/events';

/** Every event of the platform's plug-ins (core and reporting: event-registry.ts). */
export type PlatformEvent = DocumentEvent | PeppolTransmissionEvent | SupplierEvent | ParticipantEvent | AuthorityReportEvent | DocumentChainEvent;

/**
 * Each event type's data, by the kind of stream it is appended to (`document-<id>`...; the registry
 * routes a kind, or a type of its own, to its topic), written out: the generator does not follow a
 * mapped type with `as` keys. `EventDataCoversEveryEvent` below makes a missing, extra or different
 * entry a compile error.
 */
export interface EventDataByStreamKind {
  document: {
    DocumentSubmitted: DocumentSubmittedData;
    DocumentSent: DocumentSentData;
    DocumentDelivered: DocumentDeliveredData;
    DocumentDeliveryFailed: DocumentDeliveryFailedData;
    DocumentReceived: DocumentReceivedData;
  };
  transmission: {
    PeppolTransmissionRequested: PeppolTransmissionRequestedData;
    PeppolTransmissionSent: PeppolTransmissionSentData;
    PeppolTransmissionFailed: PeppolTransmissionFailedData;
  };
  supplier: {
    SupplierOnboarded: SupplierOnboardedData;
    SupplierUpdated: SupplierUpdatedData;
    SupplierDeactivated: SupplierDeactivatedData;
  };
  participant: {
    ParticipantRegistered: ParticipantRegistrationData;
    ParticipantKycRequested: ParticipantRegistrationData & { readonly methods: readonly string[] };
    ParticipantKycCompleted: ParticipantKycCompletedData;
    SmlActivationRequested: SmlChangeData;
    SmlActivated: SmlChangeData;
    SmlDeactivationRequested: SmlChangeData;
    SmlDeactivated: SmlChangeData;
  };
  report: {
    AuthorityReportRequested: AuthorityReportRequestedData;
    AuthorityReportAttempted: AuthorityReportAttemptedData;
    AuthorityReportAttemptTurnedAway: AuthorityReportAttemptTurnedAwayData;
    AuthorityReportAccepted: AuthorityReportAcceptedData;
    AuthorityReportRejected: AuthorityReportRejectedData;
    AuthorityReportPolled: AuthorityReportPolledData;
    AuthorityReportValidated: AuthorityReportValidatedData;
    AuthorityReportInvalidated: AuthorityReportInvalidatedData;
    AuthorityReportCancellationRequested: AuthorityReportCancellationRequestedData;
    AuthorityReportCancelled: AuthorityReportCancelledData;
    AuthorityReportCancellationRefused: AuthorityReportCancellationRefusedData;
    AuthorityReportAmendmentRequested: AuthorityReportAmendmentRequestedData;
    AuthorityReportAmended: AuthorityReportAmendedData;
    AuthorityReportAmendmentRefused: AuthorityReportAmendmentRefusedData;
    AuthorityReportBuyerRejected: AuthorityReportBuyerRejectedData;
    AuthorityReportPeppolCopyWithheld: AuthorityReportPeppolCopyWithheldData;
  };
  chain: {
    DocumentChained: DocumentChainedData;
  };
}

/** What `npm run event-schemas` generates: the envelope's metadata and each event type's data, by stream kind. */
export interface EventSchemaSource {
  metadata: EventMetadata;
  streams: EventDataByStreamKind;
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type AllStreams = UnionToIntersection<EventDataByStreamKind[keyof EventDataByStreamKind]>;
/** Compiles only while EventDataByStreamKind names exactly the platform's event types, each with its data. */
export type EventDataCoversEveryEvent = Assert<Same<{ [T in keyof AllStreams]: AllStreams[T] }, { [E in PlatformEvent as E['type']]: E['data'] }>>;
