/** Public API of libs/areas. */
export * from './shared/validate';
export * from './shared/money';
export { peppolAreas } from './peppol/area';
export type { PeppolArea } from './peppol/area';
export type { AreaProfile, PeppolAreaCode } from './peppol/profiles';
export { profiles as peppolProfiles } from './peppol/profiles';
export * from './peppol/schema';
export type { DocumentType } from './peppol/document-types';
export type { TaxCategory } from './peppol/tax';
export { participantIdFor, peppolEndpointFor, identifierSchemes } from './peppol/identifiers';
export { computeTotals } from './peppol/totals';
export type { Totals, TaxGroup, LineTotal } from './peppol/totals';
export { checkInvoice } from './peppol/rules';
export * from './peppol-participants';
export * as myinvois from './myinvois';
export * from './registry';
export { toyDefinition } from './toy';
export * from './myinvois/domain';
