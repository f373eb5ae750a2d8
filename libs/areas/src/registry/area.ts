/**
 * The contract of an area: what the gateway, the workers, the projections, the topics and the
 * migrations learn about a country (or network) from its folder. Pure data and functions, no
 * framework (docs/adding-an-area.md walks through adding one).
 */
import type { AppError, AuthorityErrorData, EventPlugin, SupplierProfile } from '@einvoice/domain';
import type { AuthorityAnswer, AuthorityConnector, BatchPolicy, ConnectorQuery, PollPolicy, ReportCarryOver } from './authority';
import type { PrintableCapability } from './printable';
import type { AreaReportWebhooks, AreaWebhooks } from './webhooks';

/**
 * A versioned rule set: `<specification>:<document family>:<version>`, e.g. `pint-ae:billing:2026.5`
 * (phive-rules style). Recorded on every document and event an area produces, so a document can
 * always be re-validated against the rules it was accepted under.
 */
export type RuleSetId = `${string}:${string}:${string}`;

/** A rendered legal document: its exact bytes, what they are, and their SHA-256 (hex). */
export interface RenderedDocument {
  readonly bytes: string;
  readonly mediaType: 'application/xml' | 'application/json';
  readonly sha256: string;
  /**
   * Files the document embeds, when `bytes` carries it without their contents (UAE: PINT AE attachments
   * up to 20 MiB each, which would otherwise travel in every event): the pipeline stores them once
   * (`document_attachments`) in the submission's transaction, and the XML read puts them back.
   */
  readonly attachments?: readonly DocumentAttachment[];
}

/** One embedded file of a rendered document, by its place (from 1) among the document's embedded objects. */
export interface DocumentAttachment {
  readonly index: number;
  readonly filename: string;
  readonly mimeCode: string;
  readonly bytes: Buffer;
}

/** An area's Peppol layer: which UBL customization it renders and which document types it routes. */
export interface PeppolLayer {
  /** BT-24 of what it sends. */
  readonly customizationId: string;
  /** BT-23. */
  readonly profileId: string;
  /** The rule set its UBL passes (official Schematron in shared/conformance). */
  readonly ruleSetId: RuleSetId;
}

/**
 * How an area reaches its tax authority, if it has one: the connector the reporting worker drives,
 * and how the HTTP answer relates to the authority's (`sync`: the answer carries the authority's
 * result, within a bounded wait; `poll`: accepted now, the result later; `none`: no authority).
 */
export interface AuthorityBinding {
  readonly answer: AuthorityAnswer;
  /** When its connector answers `final: false`: how the verdict is polled for (default DEFAULT_POLL_POLICY). */
  readonly poll?: PollPolicy;
  /** Set when the authority takes reports in batches per issuer (its connector then has `submitBatch`). */
  readonly batch?: BatchPolicy;
  /** Made once per process with what it needs to keep state (the sandbox's tables). */
  readonly connector?: (deps: { readonly query: ConnectorQuery; readonly env: NodeJS.ProcessEnv }) => AuthorityConnector;
  /**
   * Set when what the area's models before the reporting pipeline recorded is carried onto it (`cli
   * migrate`), each carry-over once per stack, in this order (MyInvois: its submissions, its buyers' rejections).
   */
  readonly carryOvers?: readonly ReportCarryOver[];
  /**
   * How long a request about one of its documents (a submission, a cancellation) waits for the authority's
   * answer before a 202: default AUTHORITY_WAIT_MS where `answer` is `sync`, no wait otherwise. MyInvois
   * (`poll`: its verdict comes later) waits MYINVOIS_WAIT_MS for Submit Documents' and Cancel Document's answers.
   */
  readonly waitMs?: number;
}

// Defined with the connector that receives it (authority.ts); named here too, where areas have always found it.
export type { ConnectorQuery };

/** A document an area accepted: what the platform needs of it, and the area's own payload for its connector. */
export interface ParsedDocument {
  /** The caller's document number, unique per supplier while alive. */
  readonly number: string;
  readonly type: string;
  /** The caller's fields after defaults (GET shows them). */
  readonly fields: Record<string, unknown>;
  /**
   * The amount payable (decimal text) where the area computes it rather than reads it from `fields` (UAE,
   * MyInvois: from the lines when the body states none): the account-wide list's `total` (`documents.total`).
   */
  readonly total?: string;
  /** What the area's connector needs beyond the rendered document (opaque to the platform). */
  readonly payload?: Record<string, unknown>;
  /** The rule set this document passed, where its type decides it (UAE: billing or self-billing); default the area's. */
  readonly ruleSetId?: RuleSetId;
  /**
   * The document as its authority is sent it, when `parse` rendered it already because its rules read
   * the rendering (UAE: the PINT AE rules run on the UBL): the pipeline then does not call `render`.
   */
  readonly rendered?: RenderedDocument;
  /**
   * An earlier document of the same supplier this one is about (Spain: the invoice a cancellation
   * record cancels), by its number and, when given, fields its own must contain: 404 when there is none.
   */
  readonly refersTo?: { readonly number?: string; readonly id?: string; readonly fields?: Record<string, unknown> };
}

/** The earlier document a new one refers to, as `resolve` sees it. */
export interface ReferencedDocument {
  readonly documentId: string;
  readonly number: string;
  readonly type: string;
  /** Its report's state: pending | processing | reported | rejected | invalid | cancelling | cancelled. */
  readonly state: string;
  readonly fields: Record<string, unknown>;
  /** What its authority answered, once it did. */
  readonly receipt: Record<string, unknown> | null;
}

/** A body's class-validator DTO: what the OpenAPI document shows of it (its schema by the class's name). */
export type BodyClass = abstract new (...args: never[]) => object;

/** How an area reads and renders the documents the generic routes take (apps/gateway/src/pipeline). */
export interface DocumentCodec {
  /** The DTO `parse` validates, where the pipeline's own routes serve the area (no controller of its own). */
  readonly bodyClass?: BodyClass;
  /**
   * Validates a body (schema, then every rule, with the onboarded supplier). `variant` names the
   * route when an area takes several kinds of body (Spain: `generate`, `rectify`). `documentId` is
   * the id the document will have, for an area that renders while it validates (the UBL's UUID);
   * absent where a body is only checked.
   * @throws AppError validation listing every issue
   */
  parse(body: unknown, supplier: SupplierProfile, variant?: string, documentId?: string): ParsedDocument;
  /**
   * The legal document as sent to the authority: set by every area that reports, unless its records
   * chain (`chain` renders them). An area with no authority leaves it out (its `exchange` renders what
   * travels over Peppol).
   */
  render?(document: ParsedDocument, supplier: SupplierProfile, documentId: string): RenderedDocument;
  /** Set when each record chains on the issuer's previous one (`render` is then not used). */
  readonly chain?: ChainCodec;
  /**
   * Completes a document that refers to an earlier one (`refersTo`) with what that one says (Jordan: a
   * credit note takes its original's lines, prices and total), or refuses it (a validation error).
   */
  resolve?(document: ParsedDocument, referenced: ReferencedDocument, supplier: SupplierProfile): ParsedDocument;
  /**
   * The document's Peppol copy for the buyer, when the caller asked for one (Poland: `transport_mode:
   * peppol`): sent by the reporting worker once the authority accepts the document for good, never
   * before (a buyer must not hold a copy of a document the authority refused). Its rules are checked
   * by `parse` (a copy that cannot be rendered is a 400 at submission).
   */
  peppolCopy?(document: ParsedDocument, supplier: SupplierProfile, documentId: string): PeppolCopy | undefined;
  /** The body field holding the document number, named by a duplicate's 409 (default `ID`). */
  readonly numberField?: string;
  /** How its routes about one document find it besides by the supplier's document id (`DocumentLookup`). */
  readonly lookup?: DocumentLookup;
  /**
   * Its own wording of the pipeline's refusals where its API has its own codes and messages (Malaysia:
   * `MYINVOIS.NOT_CANCELLABLE`, `MYINVOIS.CANCEL_REFUSED`), or `'answer'` where its API answers the
   * authority's refusal of a submission as a result (Argentina: AFIP's `Resultado: "R"`, HTTP 200, shaped
   * by `present(view, 'answer')`); `undefined` keeps the pipeline's.
   */
  refusal?(refusal: DocumentRefusal): AppError | 'answer' | undefined;
  /**
   * The HTTP answer when the area shapes its own (Spain: 200 with the record's uuid and QR, while the
   * authority hears of it later); default: 202 with where to read the outcome, or the `sync` answer.
   */
  respond?(accepted: { readonly documentId: string; readonly number: string; readonly answer?: Record<string, unknown> }): { readonly statusCode: 200 | 202; readonly body: unknown };
  /**
   * The GET body when the area shapes its own (default `{status: 'success', data: view}`); `variant` names the
   * route (Poland: `status`, `retrieve`), or `pending`: the 202 of a cancellation the authority has not answered yet.
   */
  present?(view: ReportedDocumentView, variant?: string): unknown;
}

/** A refusal of the pipeline's routes about one document, which an area may word its own way (`DocumentCodec.refusal`). */
export type DocumentRefusal =
  /** The authority refused a submission the answer waited for (400 with its codes). */
  | { readonly kind: 'authority_refused'; readonly view: ReportedDocumentView }
  /** No such document of the supplier (404). */
  | { readonly kind: 'not_found'; readonly id: string }
  /** It cannot be cancelled in its state (409): not accepted for good, or a cancellation in flight. */
  | { readonly kind: 'not_cancellable'; readonly view: ReportedDocumentView }
  /** The authority refused to cancel it (409): `view.cancellation.error` says why. */
  | { readonly kind: 'cancellation_refused'; readonly view: ReportedDocumentView }
  /** It asked for no Peppol copy (404). */
  | { readonly kind: 'no_peppol_copy'; readonly view: ReportedDocumentView };

/**
 * Records chained per issuer (VeriFactu's huella): the gateway keeps one chain stream per area and
 * issuer (libs/domain/src/authority-report/chain.ts) and asks the area for the next record with the
 * last one's link; a request that loses the race to the chain is linked again on the winner.
 */
export interface ChainCodec {
  /** What does not depend on the chain (Spain: the QR image), made once before the record is linked. */
  prepare?(document: ParsedDocument, supplier: SupplierProfile): Promise<Record<string, unknown>>;
  /** The next record, linked on `previous` (cheap: a request that loses the race to the chain links again). */
  link(
    document: ParsedDocument,
    supplier: SupplierProfile,
    next: { readonly documentId: string; readonly previous?: Record<string, unknown>; readonly at: Date; readonly prepared?: Record<string, unknown> },
  ): Promise<ChainedDocument>;
}

export interface ChainedDocument {
  readonly document: RenderedDocument;
  /** What the connector needs (replaces the parsed payload). */
  readonly payload: Record<string, unknown>;
  /** What the next record of the chain needs of this one. */
  readonly link: Record<string, unknown>;
  /** Fields of the area's own answer (`respond`). */
  readonly answer?: Record<string, unknown>;
  /** Fields the record adds to the caller's (GET shows them: VeriFactu's huella, the previous one, the generation time). */
  readonly fields?: Record<string, unknown>;
}

/** A Peppol copy as the platform sends it (libs/domain `PeppolCopyData`). */
export interface PeppolCopy {
  /** The Peppol document type (BIS 3.0: `Invoice` or `CreditNote`'s UBL type code). */
  readonly documentType: string;
  readonly senderParticipantId: string;
  readonly receiverParticipantId: string;
  /** UBL 2.1. */
  readonly xml: string;
}

/** How an area's routes about one document (reads, the file as sent, an access code, an amendment) find it. */
export interface DocumentLookup {
  /**
   * Also by a field (besides our id): of the document's `fields` (Nigeria: its `irn`; the one not refused,
   * else the latest), or of the authority's `receipt` (Malaysia: MyInvois's `uuid`; the caller's number
   * then finds it too: the supplier's latest such document it issued).
   */
  readonly alsoBy?: { readonly field: string; readonly of: 'fields' | 'receipt' };
  /**
   * By id within the tenant alone: the supplier header is optional there and, when sent, must be the
   * document's supplier (another's: 404, as an unknown id). Poland: seed 002 lists only `x-svc-auth-key` on them.
   */
  readonly byIdAlone?: boolean;
}

/** A document as the generic read shows it (`DocumentCodec.present` may reshape it). */
export interface ReportedDocumentView {
  readonly documentId: string;
  readonly documentNumber: string;
  readonly documentType: string;
  /** pending | processing | reported | rejected | invalid | cancelling | cancelled */
  readonly state: string;
  readonly ruleSetId: string;
  /** The authority's receipt, once it answered. */
  readonly authority: Record<string, unknown> | null;
  /** The authority's refusal. */
  readonly error: AuthorityErrorData | null;
  readonly fields: Record<string, unknown>;
  /** SHA-256 (hex) of the document as rendered, when the area renders one. */
  readonly sha256: string | null;
  /** The Peppol copy's delivery, once it was released (`DocumentSubmitted`): Scheduled, Sent (live Peppol: its MLS to come), Delivered or Failed with why. */
  readonly peppol?: { readonly deliveryStatus: string; readonly failure?: { readonly code: string; readonly message: string } } | null;
  /** Set when its report asked for a Peppol copy (`DocumentCodec.peppolCopy`); `withheld`: why it never leaves, when it does not. */
  readonly peppolCopy?: { readonly withheld: AuthorityErrorData | null };
  /** A cancellation asked of the authority: its reason, and the authority's refusal when it refused. */
  readonly cancellation?: { readonly reason: string; readonly error: AuthorityErrorData | null } | null;
  /** When the authority validated it, where a verdict follows its acceptance (MyInvois). */
  readonly validatedAt?: string;
  /** The authority told that the buyer asked to reject it (MyInvois): still accepted, its issuer may cancel it. */
  readonly buyerRejection?: { readonly reason: string; readonly requestedAt: string };
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * Delivers over Peppol: an area whose documents themselves travel to their buyer over Peppol (BE, DE,
 * SG; UAE, which reports them too). The pipeline registers a supplier's participants with this access
 * point in its onboarding's transaction, and records each accepted document's delivery (its
 * `DocumentSubmitted`: the exchange track, which the delivery worker takes) in the submission's
 * transaction, with the document's report when the area has an authority (`authority.answer` not
 * `none`). A copy sent only once the authority accepted the document is `DocumentCodec.peppolCopy`.
 */
export interface PeppolExchange {
  /**
   * The supplier's Peppol participant ids (`iso6523-actorid-upis::<icd>:<value>`), registered with this
   * access point at onboarding (an id registered here already is a 409); the first sends its documents.
   */
  participantIds(profile: SupplierProfile): readonly string[];
  /**
   * The document as it travels. `rendered` is what the authority is sent, when the area reports too,
   * so that a document whose UBL both take is rendered once.
   */
  envelope(document: ParsedDocument, supplier: SupplierProfile, documentId: string, rendered?: RenderedDocument): PeppolEnvelope;
  /**
   * Set when its authority must also hear of the documents its suppliers RECEIVE over Peppol (UAE: the
   * buyer's access point reports too, C3): the connector payload of the received copy's report, which
   * the delivery worker requests with the delivery to a supplier hosted here.
   */
  receivedReport?(received: { readonly receiverParticipantId: string; readonly senderParticipantId: string }): Record<string, unknown>;
}

/** A document as it travels over Peppol. */
export interface PeppolEnvelope {
  /** UBL 2.1, as delivered (and as the document's XML read shows it when no authority was sent one). */
  readonly xml: string;
  /** The buyer's participant id; null when the buyer has none (its delivery then fails, `DOCUMENT.NO_RECEIVER`). */
  readonly receiverParticipantId: string | null;
}

/** How an area onboards a supplier through the generic routes. */
export interface OnboardingCodec {
  /** The DTO `parse` validates, where the pipeline's own routes serve the area (no controller of its own). */
  readonly bodyClass?: BodyClass;
  /** Validates an onboarding body into the supplier's profile. @throws AppError validation */
  parse(body: unknown): SupplierProfile;
  /** The 201 body when the area shapes its own (default `{status, message, data: {supplier_uuid}}`). */
  respond?(supplierId: string, profile: SupplierProfile): unknown;
  /**
   * What of the (valid) body must be kept secret for the authority (Spain: the issuer's certificate and
   * key): sealed (SECRETS_KEY) into `supplier_secrets` by name in the onboarding's transaction, never
   * in the profile, an event, a log or an answer; the area's connector reads them back (`SupplierSecrets`).
   */
  secrets?(body: unknown): Readonly<Record<string, string>> | undefined;
  /** What of an onboarded supplier its area lets change (`PATCH /v1/suppliers/{id}`, #47); absent: nothing. */
  readonly revise?: SupplierRevision;
}

/**
 * A change to an onboarded supplier, in its onboarding body's own field names and checked by the same
 * rules as its onboarding (shared/revise.ts `reviseByOnboarding`): names, address, contacts, the
 * area's optional fields; never its tax identifier (the supplier is that: another one is another supplier).
 */
export interface SupplierRevision {
  /** The onboarding body's fields a change may name. */
  readonly fields: readonly string[];
  /** The profile with `change` (only `fields`; `null` removes an optional one) applied. @throws AppError validation at the body's fields */
  apply(profile: SupplierProfile, change: Readonly<Record<string, unknown>>): SupplierProfile;
}

/** How an area's routes name the supplier (`AreaDefinition.supplierRef`). */
export interface SupplierRef {
  /** The header, as its seed spells it (`participant-id`: seed 002 "Authentication"; `cuit`). */
  readonly header: string;
  /**
   * Set when the header holds one of the supplier's identifiers rather than its id (Argentina: its CUIT):
   * the identifier scheme, and the identifier's check (malformed: 400 at the header).
   */
  readonly identifier?: { readonly scheme: string; normalize(value: string): string; valid(value: string): boolean };
}

/**
 * A larger request body than the gateway's `BODY_LIMIT_BYTES` on the paths that start with one of
 * `pathPrefixes` (no leading slash): one per-path body limit (area-list `bodyLimitFor`), an area's or
 * one of the gateway's own routes' (the AS4 engine's inbound callback).
 */
export interface LargeBodies {
  readonly bytes: number;
  readonly pathPrefixes: readonly string[];
}

/** One area as the registry lists it. */
export interface AreaDefinition {
  /** Lower-case code, the `area` of its suppliers and documents: `be`, `my`. */
  readonly code: string;
  /** For people: `Belgium`. */
  readonly name: string;
  /** The rule set its documents are validated against. */
  readonly ruleSetId: RuleSetId;
  /** Where its routes live (`be/einvoice`, `api/einvoice`); its webhook routes are `<prefix>/webhooks`. */
  readonly routePrefix: string;
  /** Where one of its documents is read, `<documentsPath>/{id}` (default `<routePrefix>/documents`): the link of a 202. */
  readonly documentsPath?: string;
  /**
   * How its routes name the supplier, where not by the seeds' `supplier_uuid` header holding the id
   * onboarding answered (Jordan, Spain, Nigeria, Argentina): errors about the supplier name the header
   * (`supplierHeaderOf`).
   */
  readonly supplierRef?: SupplierRef;
  /** The tax authority, if any (`answer: 'none'` for Peppol-only areas). */
  readonly authority: AuthorityBinding;
  /** Its Peppol layer, if its documents (or copies of them) travel over Peppol. */
  readonly peppol?: PeppolLayer;
  /** Set when its documents themselves travel over Peppol to their buyer, at submission (`PeppolExchange`). */
  readonly exchange?: PeppolExchange;
  /**
   * Webhook event names its suppliers may subscribe to (the body's `EventType`). Every area whose
   * suppliers are Peppol participants hears `PeppolReceived`.
   */
  readonly webhookEvents: readonly string[];
  /** Which of its events produce webhooks, and how (registry/webhooks.ts). */
  readonly webhooks?: AreaWebhooks;
  /**
   * Which events of its documents' reports (the generic AuthorityReport* events, shared by every
   * reporting area) produce webhooks, and how: called for its own documents only (registry/webhooks.ts).
   */
  readonly reportWebhooks?: AreaReportWebhooks;
  /** Onboarding and documents through the platform's generic routes (areas with their own routes leave them out). */
  readonly onboarding?: OnboardingCodec;
  readonly documents?: DocumentCodec;
  /** Its own events, streams, read models and migrations, when it has any beyond the platform's. */
  readonly events?: EventPlugin;
  /** How its documents are printed (`GET /v1/documents/{id}/pdf` and `/html`, #49); absent: those routes answer 404. */
  readonly printable?: PrintableCapability;
  /** A larger request body than the gateway's `BODY_LIMIT_BYTES` on its paths: UAE documents embed attachments (up to 30 MiB). */
  readonly largeBodies?: LargeBodies;
  /** Only for the test suite's own areas: listed when `EINVOICE_TEST_AREAS=1` (area-list/area-list.ts). */
  readonly testOnly?: boolean;
}
