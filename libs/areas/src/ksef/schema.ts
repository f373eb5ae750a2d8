/**
 * Request bodies of the Polish area (seed 002 "Poland"; decisions in README.md). The invoice is the
 * seed's table field for field (the BE/DE/SG shape), with the correction's fields the issue decided
 * (`CorrectedInvoice`, `CorrectionReason`) and an exemption's legal basis (`ExemptionReason`).
 */
import { Matches } from 'class-validator';
import { CustomerParty } from '../peppol-ubl/schema';
import { OnboardingBody } from '../peppol-ubl/schema';
import { Country, CurrencyCode, DateText, Nested, NestedList, Num, OneOf, Text } from '../shared/fields';
import { TAX_TYPES } from './rates';

/** `POST /pl/einvoice/onboard`: the BE/DE/SG onboarding body, identifiers with scheme `PL:NIP`. */
export class KsefOnboardingBody extends OnboardingBody {
  /** Live mode: the supplier's KSeF authorisation token, sealed at rest, never returned. */
  @Text(1000, { optional: true }) ksef_token?: string;
}

export class KsefLineTaxType {
  /** A percentage: 23, 8, 5 or 0 (README.md "Tax types"). */
  @Num() TaxRate!: number;
  @OneOf(TAX_TYPES) TaxType!: string;
  /** Must be PL. */
  @Country() TaxCountry!: string;
}

export class KsefInvoiceLine {
  @Text(300) Description!: string;
  /** Net unit price (P_9A). */
  @Num() PriceAmount!: number;
  /** Default 1. */
  @Num({ optional: true }) InvoicedQuantity?: number;
  @Nested(() => KsefLineTaxType) TaxType!: KsefLineTaxType;
}

/** The invoice a correction corrects: its number, date and, once KSeF numbered it, its KSeF number. */
export class CorrectedInvoice {
  @Text(50) ID!: string;
  @Text(35, { optional: true })
  @Matches(/^\d{10}-\d{8}-[0-9A-F]{12}-[0-9A-F]{2}$/, { message: 'must be a KSeF number such as 5265877635-20250826-0100001AF629-AF' })
  KsefNumber?: string;
  @DateText() IssueDate!: string;
}

/** `POST /pl/einvoice/generate/invoice`. */
export class KsefInvoiceBody {
  @Text(50) ID!: string;
  @OneOf(['Invoice', 'CorrectionInvoice']) DocumentType!: 'Invoice' | 'CorrectionInvoice';
  @DateText() IssueDate!: string;
  /** Default PLN. */
  @CurrencyCode({ optional: true }) DocumentCurrencyCode?: string;
  @Nested(() => CustomerParty) CustomerParty!: CustomerParty;
  @NestedList(() => KsefInvoiceLine, { min: 1 }) InvoiceLines!: KsefInvoiceLine[];
  @Num() TotalIncludingVat!: number;
  /** CorrectionInvoice only (and required there). */
  @Nested(() => CorrectedInvoice, { optional: true }) CorrectedInvoice?: CorrectedInvoice;
  @Text(256, { optional: true }) CorrectionReason?: string;
  /** The legal basis of exempt (`exempt`) lines, required when there is one (FA(3) P_19A). */
  @Text(256, { optional: true }) ExemptionReason?: string;
}
