/**
 * The three variants of the Peppol area as data (STYLE.md: format variants are a few lines,
 * not copies). Everything country-specific the code consults lives here.
 */
import { bisDocumentTypes, DocumentType, sgDocumentTypes } from './document-types';
import type { TaxTypeName } from './schema';
import { bisCategories, sgCategories, TaxCategory } from './tax';

/** Area codes served by this module. */
export type PeppolAreaCode = 'be' | 'de' | 'sg';

/** One variant: Peppol BIS Billing 3.0 (BE, DE) or PINT SG (SG). */
export interface AreaProfile {
  /** be, de, sg; or an area whose documents go over Peppol as a copy (pl: the Peppol copy of a KSeF invoice). */
  readonly code: PeppolAreaCode | 'pl';
  /** ISO 3166-1 alpha-2 of the area; the only accepted `TaxCountry`. */
  readonly country: string;
  readonly defaultCurrency: string;
  /** Schemes accepted at onboarding, in the order preferred for the seller EndpointID (BT-34). */
  readonly identifierSchemes: readonly string[];
  /** At least one of these must be onboarded (seed: BE:VAT or BE:KBO...). */
  readonly requiredSchemes: readonly string[];
  readonly documentTypes: readonly DocumentType[];
  readonly taxCategories: Partial<Record<TaxTypeName, TaxCategory>>;
  /** cac:TaxScheme/cbc:ID. */
  readonly taxSchemeId: 'VAT' | 'GST';
  /** BT-24. */
  readonly customizationId: string;
  /** BT-23. */
  readonly profileId: string;
  /** Accounting currency the authority wants tax totals in when invoicing in another currency (BR-113-GST-SG). */
  readonly taxCurrency?: string;
  /** Official rule set the rendered XML must pass (test oracle). */
  readonly ruleSet: 'peppol-bis-3' | 'pint-sg';
}

/** Peppol BIS Billing 3.0, as BE and DE use it (and Poland's Peppol copies). */
export const bis = {
  defaultCurrency: 'EUR',
  documentTypes: bisDocumentTypes,
  taxCategories: bisCategories,
  taxSchemeId: 'VAT',
  customizationId: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
  profileId: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
  ruleSet: 'peppol-bis-3',
} as const;

/** The three profiles by area code. */
export const profiles: Readonly<Record<PeppolAreaCode, AreaProfile>> = {
  be: { ...bis, code: 'be', country: 'BE', identifierSchemes: ['BE:KBO', 'BE:VAT'], requiredSchemes: ['BE:VAT', 'BE:KBO'] },
  de: { ...bis, code: 'de', country: 'DE', identifierSchemes: ['DE:VAT', 'DE:LWID'], requiredSchemes: ['DE:VAT', 'DE:LWID'] },
  sg: {
    code: 'sg', country: 'SG', defaultCurrency: 'SGD', identifierSchemes: ['SG:UEN', 'SG:GST'], requiredSchemes: ['SG:UEN'],
    documentTypes: sgDocumentTypes, taxCategories: sgCategories, taxSchemeId: 'GST',
    // From the official PINT SG 1.4.1 examples (BT-24, BT-23).
    customizationId: 'urn:peppol:pint:billing-1@sg-1', profileId: 'urn:peppol:bis:billing',
    taxCurrency: 'SGD', ruleSet: 'pint-sg',
  },
};
