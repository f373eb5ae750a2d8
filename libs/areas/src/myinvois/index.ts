/**
 * Public API of the Malaysian area (LHDN MyInvois), re-exported by libs/areas as the namespace
 * `myinvois` (its DTO names — CustomerParty, InvoiceLine, computeTotals... — would clash with
 * the Peppol area's at the top level). The authority connector (./connector) is included as is.
 */
export { myInvoisArea } from './area';
export type { MyInvoisArea, RenderedMyInvois } from './area';
export * from './schema-onboarding';
export * from './schema-document';
export { MyInvoisCode, tinPattern, sstPattern, stateCodePattern, generalPublicTin, isIndividualTin, checkDocument, checkOnboarding, checkSupplierTaxes, checkTinValidation } from './rules';
export { computeTotals, invoiceTotalTolerance } from './totals';
export type { DocumentTotals, LineTotals, LineTaxTotal, TaxTypeTotal } from './totals';
export { documentTree, typeCodeOf, documentVersion } from './document-tree';
export { renderMyInvoisXml } from './render-xml';
export { renderMyInvoisJson, myInvoisJson, toJsonElement } from './render-json';
export type { JsonElement } from './render-json';
export { renderPintMy } from './render-pint-my';
export { pintMyIds, pintMyCategories, pintMyType, PintMyUnsupported } from './pint-my-codes';
export type { PintMyCategoryCode, PintMyType } from './pint-my-codes';
export { alpha2Of, toAlpha2 } from './country-codes';
export { hashDocument } from './hash';
export type { HashedDocument } from './hash';
export { normaliseTime, issueTimePattern } from './fields';
export * from './connector';
// Both define the seed's id_type enum; the request schema's is the one the API exposes.
export type { TinIdType } from './schema-onboarding';
export { prepareSubmission, checkBulkCount, listedFields, requestedIds } from './submission';
export type { PreparedDocument, PreparedSubmission, RejectedDocument, SubmissionOptions } from './submission';
export { supplierOfProfile, supplierProfileOf } from './supplier-profile';
export { myInvoisTransportMode } from './transport-mode';
export type { MyInvoisTransportMode } from './transport-mode';
export { myInvoisDocuments, parseMyInvois, pintMyCopy, renderMyInvois } from './codec';
export { myInvoisDocumentHref, myInvoisRefusal, presentMyInvoisDocument } from './present';
export type { MyInvoisDocumentState } from './present';
export { myInvoisExamples } from './examples';
export { asRequestError, rejectionHref, rejectionRefusal, rejectionView, submissionAnswer } from './answers';
export type { BuyerRejectionRecord, SubmittedDocument } from './answers';
export { pintMyRoute, pintMyParticipantId, supplierParticipantId, genericTins, PINT_MY_ENDPOINT_SCHEME } from './peppol';
export type { PintMyRoute } from './peppol';
export * from './reporting';
export { MYINVOIS_EVENT_NAMES, myInvoisPortalUrl, myInvoisReportWebhookSources, myInvoisValidationLink, myInvoisWebhookBody } from './webhooks';
export type { MyInvoisDocumentChange, MyInvoisEventName } from './webhooks';
