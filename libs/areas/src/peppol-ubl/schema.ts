/**
 * Request DTOs of the Belgium/Germany/Singapore area, field for field as the seed
 * (002, "Belgium, Germany, Singapore (same shapes)"), plus the optional fields Peppol needs
 * that the seed does not carry (README "Our additions"). Limits are the seed's.
 */
import { Country, CurrencyCode, DateText, Nested, NestedList, Num, OneOf, Text } from '../shared/fields';
import type { SupplierProfile } from '@einvoice/domain';

/** The taxation of one line, as the client names it; mapped to a UNCL5305 / PINT SG category per area (tax.ts). */
export const taxTypes = [
  'standard', 'reduced', 'zero', 'exempt', 'reverse_charge', 'intra_community', 'export', 'outside_scope', 'not_registered',
] as const;
/** One of {@link taxTypes}. */
export type TaxTypeName = (typeof taxTypes)[number];

/** UNCL4461 payment means our renderer supports (BT-81); card and direct-debit codes need data we do not take. */
export const paymentMeansCodes = ['1', '10', '20', '30', '31', '42', '58', '97', 'ZZZ'] as const;

/** `identifiers[]` element of the onboarding body. */
export class OnboardingIdentifier {
  /** `BE:VAT`, `BE:KBO`, `DE:VAT`, `DE:LWID`, `SG:UEN` (or `SG:GST`); checked per area in identifiers.ts. */
  @Text(20) scheme: string;
  @Text(50) id: string;
}

/** Body of `POST /{be|de|sg}/einvoice/onboard`. */
export class OnboardingBody {
  /** BT-27 Seller name. */
  @Text(300) registered_name: string;
  @NestedList(() => OnboardingIdentifier, { min: 1 }) identifiers: OnboardingIdentifier[];
  /** BT-37. */
  @Text(50, { optional: true }) city?: string;
  /** BT-35; `NA` if unavailable. */
  @Text(150, { optional: true }) street?: string;
  /** BT-39; `NA` if unavailable. */
  @Text(150, { optional: true }) county?: string;
  /** BT-40. Mandatory here although the seed leaves it open: Peppol requires the seller country (BR-09). */
  @Country() country: string;
  /** BT-42. */
  @Text(20, { optional: true }) contact_number?: string;
  /** BT-38 (addition): required by DE-R-004 for domestic German invoices and BR-106-GST-SG. */
  @Text(10, { optional: true }) postal_code?: string;
  /** BT-41 (addition): required by DE-R-005 for domestic German invoices. */
  @Text(100, { optional: true }) contact_name?: string;
  /** BT-43 (addition): required by DE-R-007 for domestic German invoices. */
  @Text(200, { optional: true }) contact_email?: string;
}

/** `CustomerParty.address`. */
export class CustomerAddress {
  /** BT-50; `NA` if unavailable. */
  @Text(150) Street: string;
  /** BT-53. */
  @Text(10) ZipCode: string;
  /** BT-52. */
  @Text(50) City: string;
  /** BT-55. */
  @Country() Country: string;
}

/** `CustomerParty.Identifiers[]`: the first one addresses the buyer over Peppol (BT-49). */
export class CustomerIdentifier {
  /** An area scheme (`BE:VAT`...) or a raw ISO 6523 / EAS code such as `0088`. */
  @Text(20) Scheme: string;
  @Text(50) ID: string;
}

/** The buyer (BG-7). */
export class CustomerParty {
  /** BT-44. */
  @Text(300) RegisteredName: string;
  @Nested(() => CustomerAddress) address: CustomerAddress;
  @NestedList(() => CustomerIdentifier, { min: 1 }) Identifiers: CustomerIdentifier[];
}

/** `InvoiceLines[].TaxType`. */
export class LineTaxType {
  /** BT-152, a percentage (21 for 21 %). */
  @Num() TaxRate: number;
  @OneOf(taxTypes) TaxType: TaxTypeName;
  /** Country whose VAT/GST applies; must be the area's (rules.ts). */
  @Country() TaxCountry: string;
  /** BT-120 (addition): required for `exempt` in BE/DE (BR-E-10); defaults per category otherwise. */
  @Text(300, { optional: true }) TaxExemptionReason?: string;
}

/** One invoice line (BG-25). */
export class InvoiceLine {
  /** BT-153 Item name. */
  @Text(300) Description: string;
  /** BT-146 net price excluding VAT. */
  @Num() PriceAmount: number;
  /** BT-129; default 1. */
  @Num({ optional: true }) InvoicedQuantity?: number;
  @Nested(() => LineTaxType) TaxType: LineTaxType;
}

/** Preceding invoice reference (BG-3): the invoice a credit note corrects. */
export class BillingReference {
  /** BT-25. */
  @Text(50) ID: string;
  /** BT-26. */
  @DateText({ optional: true }) IssueDate?: string;
}

/** Payment instructions (BG-16); needed by DE-R-001 for domestic German invoices. */
export class PaymentMeans {
  /** BT-81, UNCL4461: `58` SEPA credit transfer, `30` credit transfer, `10` cash... */
  @OneOf(paymentMeansCodes) Code: string;
  /** BT-84 IBAN or account number; required for credit transfers (30, 58). */
  @Text(34, { optional: true }) AccountID?: string;
  /** BT-85. */
  @Text(200, { optional: true }) AccountName?: string;
}

/** Body of `POST /{be|de|sg}/einvoice/generate/invoice`. */
export class InvoiceBody {
  /** BT-1. */
  @Text(50) ID: string;
  /** BT-3 through the area's table (document-types.ts). */
  @Text(50) DocumentType: string;
  /** BT-2. */
  @DateText() IssueDate: string;
  /** BT-5; defaults to the area's currency (EUR, SGD). */
  @CurrencyCode({ optional: true }) DocumentCurrencyCode?: string;
  @Nested(() => CustomerParty) CustomerParty: CustomerParty;
  @NestedList(() => InvoiceLine, { min: 1 }) InvoiceLines: InvoiceLine[];
  /** BT-112 as the client computed it; must match ours to the cent. */
  @Num() TotalIncludingVat: number;
  /** BT-9 (addition). */
  @DateText({ optional: true }) DueDate?: string;
  /** BT-10 (addition); defaults to `ID` (PEPPOL-EN16931-R003). */
  @Text(200, { optional: true }) BuyerReference?: string;
  /** BT-20 (addition). */
  @Text(300, { optional: true }) PaymentTerms?: string;
  /** BT-22 (addition); the reason for a Singapore credit note (BR-111-GST-SG). */
  @Text(1000, { optional: true }) Note?: string;
  /** BG-3 (addition); mandatory for credit notes. */
  @Nested(() => BillingReference, { optional: true }) BillingReference?: BillingReference;
  /** BG-16 (addition). */
  @Nested(() => PaymentMeans, { optional: true }) PaymentMeans?: PaymentMeans;
  /**
   * (addition) Units of the area's accounting currency per 1 unit of DocumentCurrencyCode.
   * Singapore: required when invoicing GST in a foreign currency (BR-113-GST-SG, BR-53-GST-SG).
   */
  @Num({ optional: true }) TaxExchangeRate?: number;
  /** BT-72 (addition); defaults to IssueDate where a delivery date is required (BR-IC-11). */
  @DateText({ optional: true }) DeliveryDate?: string;
}

/** An invoice body after validation and defaults: currency and quantities filled in. */
export type InvoiceDto = InvoiceBody & { DocumentCurrencyCode: string; BuyerReference: string };

/** The supplier as onboarded (the domain's SupplierProfile), the renderer's seller (BG-4). */
export type Supplier = SupplierProfile;

/** An onboarding body after validation, in the shape the renderer takes. */
export type OnboardingDto = Supplier;
