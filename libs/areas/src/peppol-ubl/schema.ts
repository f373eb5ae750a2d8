/**
 * Request DTOs of the Belgium/Germany/Singapore area, field for field as the seed
 * (002, "Belgium, Germany, Singapore (same shapes)"), plus the optional fields Peppol needs
 * that the seed does not carry (README "Our additions"). Limits are the seed's.
 */
import { JSONSchema } from 'class-validator-jsonschema';
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
  @JSONSchema({ description: 'The identifier\'s scheme: `BE:VAT` or `BE:KBO` in Belgium, `DE:VAT` or `DE:LWID` (Leitweg-ID) in Germany, `SG:UEN` (and optionally `SG:GST`) in Singapore, `PL:NIP` in Poland; the area says which it requires. Each becomes a Peppol participant id of the supplier (VAT: BT-31, legal id: BT-30, endpoint: BT-34).', example: 'BE:VAT' })
  @Text(20) scheme: string;
  @JSONSchema({ description: 'The identifier in the scheme\'s format, check digits included (a Belgian number\'s last two digits are 97 minus the first eight modulo 97); spaces and dots are removed, letters upper-cased.', example: 'BE1073906202' })
  @Text(50) id: string;
}

/** Body of `POST /{be|de|sg}/einvoice/onboard`. */
export class OnboardingBody {
  @JSONSchema({ description: 'The supplier\'s registered (legal) name: BT-27 Seller name (cac:PartyLegalEntity/cbc:RegistrationName).', example: 'Brussels Widgets NV' })
  @Text(300) registered_name: string;
  @JSONSchema({ description: 'The supplier\'s tax and legal identifiers, at least one of the schemes the area requires. Each one registers the supplier as a Peppol participant of this access point (409 when another account registered it already); they never change afterwards.', example: [{ scheme: 'BE:VAT', id: 'BE1073906202' }] })
  @NestedList(() => OnboardingIdentifier, { min: 1 }) identifiers: OnboardingIdentifier[];
  @JSONSchema({ description: 'BT-37 Seller city (cac:PostalAddress/cbc:CityName); German domestic invoices need it (DE-R-003).', example: 'Brussels' })
  @Text(50, { optional: true }) city?: string;
  @JSONSchema({ description: 'BT-35 Seller address line 1 (cbc:StreetName); `NA` if unavailable. Singapore GST invoices need it (BR-106-GST-SG).', example: 'Rue de la Loi 16' })
  @Text(150, { optional: true }) street?: string;
  @JSONSchema({ description: 'BT-39 Seller country subdivision (cbc:CountrySubentity): a region, state or county; `NA` if unavailable.', example: 'Brussels-Capital' })
  @Text(150, { optional: true }) county?: string;
  @JSONSchema({ description: 'BT-40 Seller country code, ISO 3166-1 alpha-2 (BR-09 requires it).', example: 'BE' })
  @Country() country: string;
  @JSONSchema({ description: 'BT-42 Seller contact telephone number; German domestic invoices need it (DE-R-006).', example: '+3225551234' })
  @Text(20, { optional: true }) contact_number?: string;
  @JSONSchema({ description: 'BT-38 Seller post code (cbc:PostalZone); German domestic invoices (DE-R-004) and Singapore GST invoices (BR-106-GST-SG) need it.', example: '1040' })
  @Text(10, { optional: true }) postal_code?: string;
  @JSONSchema({ description: 'BT-41 Seller contact point (a person or department); German domestic invoices need it (DE-R-005).', example: 'Accounts receivable' })
  @Text(100, { optional: true }) contact_name?: string;
  @JSONSchema({ description: 'BT-43 Seller contact e-mail address; German domestic invoices need it (DE-R-007).', example: 'billing@widgets.example' })
  @Text(200, { optional: true }) contact_email?: string;
}

/** `CustomerParty.address`. */
export class CustomerAddress {
  @JSONSchema({ description: 'BT-50 Buyer address line 1 (cbc:StreetName); `NA` if unavailable.', example: 'Meir 1' })
  @Text(150) Street: string;
  @JSONSchema({ description: 'BT-53 Buyer post code (cbc:PostalZone).', example: '2000' })
  @Text(10) ZipCode: string;
  @JSONSchema({ description: 'BT-52 Buyer city (cbc:CityName).', example: 'Antwerpen' })
  @Text(50) City: string;
  @JSONSchema({ description: 'BT-55 Buyer country code, ISO 3166-1 alpha-2: together with the line\'s tax type it decides whether a supply is domestic, intra-community or an export.', example: 'BE' })
  @Country() Country: string;
}

/** `CustomerParty.Identifiers[]`: the first one addresses the buyer over Peppol (BT-49). */
export class CustomerIdentifier {
  @JSONSchema({ description: 'An area scheme (`BE:VAT`, `BE:KBO`, `DE:VAT`, `DE:LWID`, `SG:UEN`, `SG:GST`, `PL:NIP`) or a raw ISO 6523 / EAS code such as `0088` (GLN) or `9914` (Austrian VAT).', example: 'BE:VAT' })
  @Text(20) Scheme: string;
  @JSONSchema({ description: 'The buyer\'s identifier in that scheme, checked as the scheme defines it (check digits included for area schemes).', example: 'BE0202239951' })
  @Text(50) ID: string;
}

/** The buyer (BG-7). */
export class CustomerParty {
  @JSONSchema({ description: 'BT-44 Buyer name (cac:PartyLegalEntity/cbc:RegistrationName).', example: 'Antwerp Buyer BV' })
  @Text(300) RegisteredName: string;
  @JSONSchema({ description: 'BG-8 Buyer postal address.', example: { Street: 'Meir 1', ZipCode: '2000', City: 'Antwerpen', Country: 'BE' } })
  @Nested(() => CustomerAddress) address: CustomerAddress;
  @JSONSchema({ description: 'The buyer\'s identifiers. The first one addresses the document over Peppol (BT-49 Buyer electronic address, the receiver\'s participant id); a VAT one becomes BT-48 Buyer VAT identifier, a legal one BT-47.', example: [{ Scheme: 'BE:VAT', ID: 'BE0202239951' }] })
  @NestedList(() => CustomerIdentifier, { min: 1 }) Identifiers: CustomerIdentifier[];
}

/** `InvoiceLines[].TaxType`. */
export class LineTaxType {
  @JSONSchema({ description: 'BT-152 Invoiced item VAT/GST rate, as a percentage (21 for 21 %, not 0.21); 0 for zero-rated, exempt, reverse-charge, intra-community and export lines.', example: 21 })
  @Num() TaxRate: number;
  @JSONSchema({ description: 'The line\'s taxation, mapped to its VAT category (BT-151, UNCL5305: `standard` S, `zero` Z, `exempt` E, `reverse_charge` AE, `intra_community` K, `export` G, `outside_scope` O; Singapore\'s PINT SG categories SR, ZR, ES33, NG...).', example: 'standard' })
  @OneOf(taxTypes) TaxType: TaxTypeName;
  /** Country whose VAT/GST applies; must be the area's (rules.ts). */
  @JSONSchema({ description: 'The country whose VAT/GST applies, ISO 3166-1 alpha-2: the area\'s own (BE, DE, SG, PL).', example: 'BE' })
  @Country() TaxCountry: string;
  @JSONSchema({ description: 'BT-120 VAT exemption reason text; required for `exempt` in Belgium and Germany (BR-E-10), a default text is used for the other categories that need one.', example: 'Exempt under Article 44 of the Belgian VAT Code' })
  @Text(300, { optional: true }) TaxExemptionReason?: string;
}

/** One invoice line (BG-25). */
export class InvoiceLine {
  @JSONSchema({ description: 'BT-153 Item name (cac:Item/cbc:Name).', example: 'Consulting' })
  @Text(300) Description: string;
  @JSONSchema({ description: 'BT-146 Item net price, excluding VAT/GST, per unit, in the document currency.', example: 100 })
  @Num() PriceAmount: number;
  @JSONSchema({ description: 'BT-129 Invoiced quantity (unit C62, one); 1 when absent. The line net amount (BT-131) is PriceAmount × InvoicedQuantity.', example: 1 })
  @Num({ optional: true }) InvoicedQuantity?: number;
  @JSONSchema({ description: 'The line\'s VAT/GST: rate, category and country (BG-30 Line VAT information).', example: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } })
  @Nested(() => LineTaxType) TaxType: LineTaxType;
}

/** Preceding invoice reference (BG-3): the invoice a credit note corrects. */
export class BillingReference {
  @JSONSchema({ description: 'BT-25 Preceding invoice reference: the number (BT-1) of the invoice this credit note corrects.', example: 'INV-2026-0042' })
  @Text(50) ID: string;
  @JSONSchema({ description: 'BT-26 Preceding invoice issue date, YYYY-MM-DD.', example: '2026-03-01' })
  @DateText({ optional: true }) IssueDate?: string;
}

/** Payment instructions (BG-16); needed by DE-R-001 for domestic German invoices. */
export class PaymentMeans {
  @JSONSchema({ description: 'BT-81 Payment means type code, UNCL4461: `58` SEPA credit transfer, `30` credit transfer, `31` debit transfer, `42` payment to bank account, `10` in cash, `20` cheque, `1` not defined, `97` clearing between partners, `ZZZ` mutually defined.', example: '58' })
  @OneOf(paymentMeansCodes) Code: string;
  @JSONSchema({ description: 'BT-84 Payment account identifier: the IBAN (or account number) to pay to; required for credit transfers (`30`, `58`).', example: 'BE71096123456769' })
  @Text(34, { optional: true }) AccountID?: string;
  @JSONSchema({ description: 'BT-85 Payment account name.', example: 'Brussels Widgets NV' })
  @Text(200, { optional: true }) AccountName?: string;
}

/** Body of `POST /{be|de|sg}/einvoice/generate/invoice`. */
export class InvoiceBody {
  @JSONSchema({ description: 'BT-1 Invoice number: unique per supplier (409 `DOCUMENT.DUPLICATE_ID` when the supplier already sent one with this number).', example: 'INV-2026-0042' })
  @Text(50) ID: string;
  /** BT-3 through the area's table (document-types.ts). */
  @JSONSchema({ description: 'What the document is: in Belgium and Germany a UNCL1001 code (`380` commercial invoice, `381` credit note, `383` debit note, `386` prepayment invoice... the seed\'s table), in Singapore `Invoice`, `CreditNote` or `DebitNote`. It gives BT-3 and the UBL root (Invoice or CreditNote).', example: '380' })
  @Text(50) DocumentType: string;
  @JSONSchema({ description: 'BT-2 Invoice issue date, YYYY-MM-DD.', example: '2026-03-15' })
  @DateText() IssueDate: string;
  @JSONSchema({ description: 'BT-5 Invoice currency code, ISO 4217; the area\'s currency when absent (EUR in Belgium and Germany, SGD in Singapore). VAT totals are always also given in the area\'s accounting currency (BT-6).', example: 'EUR' })
  @CurrencyCode({ optional: true }) DocumentCurrencyCode?: string;
  @JSONSchema({ description: 'BG-7 Buyer: name, address and identifiers; the first identifier is the receiver on the Peppol network.', example: { RegisteredName: 'Antwerp Buyer BV', address: { Street: 'Meir 1', ZipCode: '2000', City: 'Antwerpen', Country: 'BE' }, Identifiers: [{ Scheme: 'BE:VAT', ID: 'BE0202239951' }] } })
  @Nested(() => CustomerParty) CustomerParty: CustomerParty;
  @JSONSchema({ description: 'BG-25 Invoice lines, at least one.', example: [{ Description: 'Consulting', PriceAmount: 100, InvoicedQuantity: 1, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } }] })
  @NestedList(() => InvoiceLine, { min: 1 }) InvoiceLines: InvoiceLine[];
  @JSONSchema({ description: 'BT-112 Invoice total amount with VAT, as the caller computed it: the lines\' net amounts plus VAT per category (each rounded to the cent, BR-CO-15). It must equal the gateway\'s own total to the cent, else 400 `DOCUMENT.TOTAL_MISMATCH` naming both.', example: 121 })
  @Num() TotalIncludingVat: number;
  @JSONSchema({ description: 'BT-9 Payment due date, YYYY-MM-DD.', example: '2026-04-14' })
  @DateText({ optional: true }) DueDate?: string;
  @JSONSchema({ description: 'BT-10 Buyer reference (a German public buyer\'s Leitweg-ID goes here); the invoice number when absent, since Peppol requires a buyer or order reference (PEPPOL-EN16931-R003).', example: 'PO-88123' })
  @Text(200, { optional: true }) BuyerReference?: string;
  @JSONSchema({ description: 'BT-20 Payment terms, free text.', example: '30 days net' })
  @Text(300, { optional: true }) PaymentTerms?: string;
  @JSONSchema({ description: 'BT-22 Invoice note, free text; a Singapore credit note states its reason here (BR-111-GST-SG).', example: 'Thank you for your business.' })
  @Text(1000, { optional: true }) Note?: string;
  @JSONSchema({ description: 'BG-3 Preceding invoice reference: the invoice a credit note corrects; required for credit notes.', example: { ID: 'INV-2026-0042', IssueDate: '2026-03-01' } })
  @Nested(() => BillingReference, { optional: true }) BillingReference?: BillingReference;
  @JSONSchema({ description: 'BG-16 Payment instructions; German domestic invoices need them (DE-R-001).', example: { Code: '58', AccountID: 'BE71096123456769', AccountName: 'Brussels Widgets NV' } })
  @Nested(() => PaymentMeans, { optional: true }) PaymentMeans?: PaymentMeans;
  /**
   * (addition) Units of the area's accounting currency per 1 unit of DocumentCurrencyCode.
   * Singapore: required when invoicing GST in a foreign currency (BR-113-GST-SG, BR-53-GST-SG).
   */
  @JSONSchema({ description: 'Units of the area\'s accounting currency per one unit of DocumentCurrencyCode, used to state the VAT/GST total in the accounting currency (BT-111). Singapore requires it for GST in a foreign currency (BR-113-GST-SG, BR-53-GST-SG).', example: 1.35 })
  @Num({ optional: true }) TaxExchangeRate?: number;
  @JSONSchema({ description: 'BT-72 Actual delivery date, YYYY-MM-DD; the issue date where a delivery date is required and none is given (intra-community supplies, BR-IC-11).', example: '2026-03-14' })
  @DateText({ optional: true }) DeliveryDate?: string;
}

/** An invoice body after validation and defaults: currency and quantities filled in. */
export type InvoiceDto = InvoiceBody & { DocumentCurrencyCode: string; BuyerReference: string };

/** The supplier as onboarded (the domain's SupplierProfile), the renderer's seller (BG-4). */
export type Supplier = SupplierProfile;

/** An onboarding body after validation, in the shape the renderer takes. */
export type OnboardingDto = Supplier;
