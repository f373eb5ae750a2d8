/** The pure core of the UAE area (README.md): phase 1 field validation and PINT AE rendering. */
export { parseUaeDocument, uaeSchemaMessage, unifiedCountryIssues, type UaeDocument, type UaeDocumentType } from './document';
export { transactionTypeCode } from './flags';
export { renderUae, uaeUblDocument, type RenderedUae, type UaeAttachment, type UaeIssuer } from './render';
export { pintAe, uaeDocumentKind, uaeDocumentTypeId, type UaeDocumentKind } from './specification';
export { computeUaeTotals, type UaeTotals } from './totals';
export { uaeDefinition } from './definition';
export { uaeDocuments, uaeExchange, uaeNumberParts, uaeOnboarding, uaeParticipantId, uaeValidAnswer } from './codec';
export { EMIRATES, UAE_TIN_SCHEME, UaeParticipantBody, financialYearOf, parseUaeParticipant, uaeDetailsOf, uaeIssuerOf, type UaeParticipantDetails } from './participant';
export { uaeExamples } from './examples';
export { checkUaeRules, selfBillingPairingIssues, type UaeRuleIssue } from './rules';
