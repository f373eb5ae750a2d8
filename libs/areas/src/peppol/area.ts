/**
 * The registry entry of the Belgium/Germany/Singapore area: one implementation, three
 * profiles (profiles.ts). Pure functions; errors are AppError from @einvoice/domain.
 */
import { validationError } from '@einvoice/domain';
import { validateBody } from '../shared/validate';
import type { DocumentType } from '../peppol-ubl/document-types';
import { checkSupplierIdentifiers, identifierSchemes } from '../peppol-ubl/identifiers';
import { AreaProfile, PeppolAreaCode, profiles } from '../peppol-ubl/profiles';
import { renderDocument } from '../peppol-ubl/render';
import { checkInvoice } from '../peppol-ubl/rules';
import { InvoiceBody, InvoiceDto, OnboardingBody, OnboardingDto, Supplier, TaxTypeName } from '../peppol-ubl/schema';
import type { TaxCategory } from '../peppol-ubl/tax';

/** One Peppol area as the gateway and workers use it. */
export interface PeppolArea {
  readonly code: PeppolAreaCode;
  readonly defaultCurrency: string;
  /** Onboarding identifier schemes accepted in this area. */
  readonly identifierSchemes: readonly string[];
  readonly documentTypes: readonly DocumentType[];
  /** TaxType → category (UNCL5305 for BIS 3, PINT SG GST categories). */
  readonly taxCategories: Partial<Record<TaxTypeName, TaxCategory>>;
  readonly customizationId: string;
  readonly profileId: string;
  readonly profile: AreaProfile;
  /** Validates an onboarding body. @throws AppError validation */
  parseOnboarding(body: unknown): OnboardingDto;
  /**
   * Validates an invoice body (schema, then every business rule) and applies defaults.
   * Pass the onboarded supplier to also run the rules that depend on it (BR-S-02, DE-R-003...).
   * @throws AppError validation listing all issues
   */
  parseInvoice(body: unknown, supplier?: Supplier): InvoiceDto;
  /** UBL 2.1 XML (UTF-8 string) of a parsed invoice. */
  render(dto: InvoiceDto, supplier: Supplier, uuid: string): string;
}

function makeArea(p: AreaProfile): PeppolArea {
  return {
    code: p.code as PeppolAreaCode,
    defaultCurrency: p.defaultCurrency,
    identifierSchemes: p.identifierSchemes,
    documentTypes: p.documentTypes,
    taxCategories: p.taxCategories,
    customizationId: p.customizationId,
    profileId: p.profileId,
    profile: p,
    parseOnboarding(body) {
      const dto = validateBody(OnboardingBody, body);
      const issues = checkSupplierIdentifiers(dto.identifiers, p.identifierSchemes, p.requiredSchemes);
      if (issues.length) throw validationError(issues);
      return {
        registeredName: dto.registered_name,
        identifiers: dto.identifiers.map((i) => ({ scheme: i.scheme, id: identifierSchemes[i.scheme].normalize(i.id) })),
        street: dto.street, city: dto.city, county: dto.county, postalCode: dto.postal_code, country: dto.country,
        contactNumber: dto.contact_number, contactName: dto.contact_name, contactEmail: dto.contact_email,
      };
    },
    parseInvoice(body, supplier) {
      const dto = validateBody(InvoiceBody, body);
      dto.DocumentCurrencyCode ??= p.defaultCurrency;
      // PEPPOL-EN16931-R003: a buyer reference or order reference is mandatory; the document ID stands in.
      dto.BuyerReference ??= dto.ID;
      for (const line of dto.InvoiceLines) line.InvoicedQuantity ??= 1;
      const issues = checkInvoice(p, dto, supplier);
      if (issues.length) throw validationError(issues);
      return dto as InvoiceDto;
    },
    render: (dto, supplier, uuid) => renderDocument(p, dto, supplier, uuid),
  };
}

/** The area registry: `peppolAreas.be`, `.de`, `.sg`. */
export const peppolAreas: Readonly<Record<PeppolAreaCode, PeppolArea>> = {
  be: makeArea(profiles.be),
  de: makeArea(profiles.de),
  sg: makeArea(profiles.sg),
};
