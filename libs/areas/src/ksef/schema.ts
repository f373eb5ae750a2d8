/**
 * Request bodies of the Polish area (seed 002 "Poland"; decisions in README.md). The invoice is the
 * seed's table field for field (the BE/DE/SG shape), with the correction's fields the issue decided
 * (`CorrectedInvoice`, `CorrectionReason`) and an exemption's legal basis (`ExemptionReason`).
 */
import { Matches } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { CustomerParty } from '../peppol-ubl/schema';
import { OnboardingBody } from '../peppol-ubl/schema';
import { Country, CurrencyCode, DateText, Nested, NestedList, Num, OneOf, Text } from '../shared/fields';
import { KSEF_NUMBER, SELLER_NIP } from './examples';
import { TAX_TYPES } from './rates';

/**
 * `POST /pl/einvoice/onboard`'s fields as FA(3) uses them (Podmiot1, the seller). The body is the
 * BE/DE/SG one (peppol-ubl/schema.ts, whose texts name the UBL terms): these Polish texts and examples
 * replace them in this schema only, merged over the inherited fields by class-validator-jsonschema.
 */
const PODMIOT1_FIELDS = {
  registered_name: { description: 'The supplier\'s registered name: FA(3) Podmiot1/DaneIdentyfikacyjne/Nazwa of its invoices (and BT-27 of their Peppol copies).', example: 'Sprzedawca Sp. z o.o.' },
  identifiers: {
    description: 'Its identifiers: one with scheme `PL:NIP` (10 digits, check digit verified; `526-025-02-74` and `PL5260250274` are read as 5260250274), which becomes FA(3) Podmiot1/DaneIdentyfikacyjne/NIP and the seller 9945:PL<NIP> of Peppol copies. One supplier per NIP and account (409 SUPPLIER.EXISTS).',
    example: [{ scheme: 'PL:NIP', id: SELLER_NIP }],
  },
  street: { description: 'Street and number: FA(3) Podmiot1/Adres/AdresL1 (the city when absent or `NA`).', example: 'ul. Prosta 1' },
  city: { description: 'City: FA(3) Podmiot1/Adres/AdresL2, after the postal code.', example: 'Warszawa' },
  postal_code: { description: 'Postal code (`00-001`): FA(3) Podmiot1/Adres/AdresL2, before the city.', example: '00-001' },
  county: { description: 'Voivodeship or county: not in FA(3); BT-39 of Peppol copies.', example: 'mazowieckie' },
  country: { description: 'Must be PL (a KSeF supplier is established in Poland): FA(3) Podmiot1/Adres/KodKraju.', example: 'PL' },
  contact_number: { description: 'A telephone number: not in FA(3); BT-42 of Peppol copies.', example: '+48 22 123 45 67' },
  contact_name: { description: 'A contact person: not in FA(3); BT-41 of Peppol copies.', example: 'Anna Kowalska' },
  contact_email: { description: 'A contact e-mail: not in FA(3); BT-43 of Peppol copies.', example: 'faktury@sprzedawca.example' },
  ksef_token: {
    description: 'Live mode only: the supplier\'s KSeF authorisation token (generated in KSeF for its NIP), with which the reporting worker opens its KSeF sessions. Sealed at rest, never answered; send it again by onboarding to replace it.',
    example: '20251126-EC-2F1A0B3C4D-5E6F7A8B9C-1D|nip-9473182653|a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9',
  },
};

/** `POST /pl/einvoice/onboard`: the BE/DE/SG onboarding body, identifiers with scheme `PL:NIP`. */
@JSONSchema({ properties: PODMIOT1_FIELDS })
export class KsefOnboardingBody extends OnboardingBody {
  /** Live mode: the supplier's KSeF authorisation token, sealed at rest, never returned. */
  @Text(1000, { optional: true }) ksef_token?: string;
}

export class KsefLineTaxType {
  /** A percentage: 23, 8, 5 or 0 (README.md "Tax types"). */
  @JSONSchema({ description: 'The VAT rate in percent, as the TaxType takes it: standard 23, reduced 8 or 5, every other type 0 (else 400 KSEF.TAX_RATE naming the rates it takes).', example: 23 })
  @Num() TaxRate!: number;
  @JSONSchema({
    description: 'The line\'s taxation, with TaxRate the FA(3) rate P_12 (and the P_13_x/P_14_x totals it is summed into): standard 23; reduced 8 or 5; zero `0 KR`; intra_eu `0 WDT`; export `0 EX`; exempt `zw` (needs ExemptionReason); reverse_charge `oo`; not_subject `np I`; not_subject_services `np II`.',
    example: 'standard',
  })
  @OneOf(TAX_TYPES) TaxType!: string;
  /** Must be PL. */
  @JSONSchema({ description: 'The country whose VAT applies: PL (else 400 KSEF.TAX_COUNTRY).', example: 'PL' })
  @Country() TaxCountry!: string;
}

/** One FA(3) FaWiersz. */
export class KsefInvoiceLine {
  @JSONSchema({ description: 'What is sold: FA(3) P_7 (name of the goods or service).', example: 'Usługa doradcza' })
  @Text(300) Description!: string;
  /** Net unit price (P_9A). */
  @JSONSchema({ description: 'The net unit price (without VAT), in the invoice currency: FA(3) P_9A; the line\'s net P_11 is it times the quantity, rounded to the grosz.', example: 100 })
  @Num() PriceAmount!: number;
  /** Default 1. */
  @JSONSchema({ description: 'The quantity, in pieces (P_8A `szt.`): FA(3) P_8B; default 1. Negative in a correction that takes away.', example: 2 })
  @Num({ optional: true }) InvoicedQuantity?: number;
  @JSONSchema({ description: 'The line\'s VAT: its rate (FA(3) P_12).', example: { TaxRate: 23, TaxType: 'standard', TaxCountry: 'PL' } })
  @Nested(() => KsefLineTaxType) TaxType!: KsefLineTaxType;
}

/** The invoice a correction corrects: its number, date and, once KSeF numbered it, its KSeF number. */
export class CorrectedInvoice {
  @JSONSchema({ description: 'The corrected invoice\'s number (its ID): FA(3) DaneFaKorygowanej/NrFaKorygowanej.', example: 'FV/2026/11/0001' })
  @Text(50) ID!: string;
  @JSONSchema({
    description: 'The corrected invoice\'s KSeF number, once KSeF numbered it (status and retrieve show it): FA(3) NrKSeF 1 and NrKSeFFaKorygowanej; absent, the correction says it has none (NrKSeFN 1).',
    example: KSEF_NUMBER,
  })
  @Text(35, { optional: true })
  @Matches(/^\d{10}-\d{8}-[0-9A-F]{12}-[0-9A-F]{2}$/, { message: 'must be a KSeF number such as 5265877635-20250826-0100001AF629-AF' })
  KsefNumber?: string;
  @JSONSchema({ description: 'The corrected invoice\'s issue date (yyyy-mm-dd): FA(3) DaneFaKorygowanej/DataWystFaKorygowanej.', example: '2026-11-25' })
  @DateText() IssueDate!: string;
}

/** `POST /pl/einvoice/generate/invoice`. */
export class KsefInvoiceBody {
  @JSONSchema({ description: 'The invoice number: FA(3) P_2, unique per supplier (else 409 DOCUMENT.DUPLICATE_ID); KSeF\'s duplicate key is the seller\'s NIP, the kind and this number.', example: 'FV/2026/11/0001' })
  @Text(50) ID!: string;
  @JSONSchema({ description: 'FA(3) RodzajFaktury: `Invoice` VAT, `CorrectionInvoice` KOR (which needs CorrectedInvoice and CorrectionReason).', example: 'Invoice' })
  @OneOf(['Invoice', 'CorrectionInvoice']) DocumentType!: 'Invoice' | 'CorrectionInvoice';
  @JSONSchema({ description: 'The issue date (yyyy-mm-dd): FA(3) P_1, no later than KSeF\'s acceptance; the verification link (QrLink) names it.', example: '2026-11-25' })
  @DateText() IssueDate!: string;
  /** Default PLN. */
  @JSONSchema({ description: 'ISO 4217 currency of the amounts: FA(3) KodWaluty; default PLN.', example: 'PLN' })
  @CurrencyCode({ optional: true }) DocumentCurrencyCode?: string;
  /** Foreign-currency invoices with VAT at 23, 8 or 5 %: PLN per unit of the currency (art. 31a). */
  @JSONSchema({
    description: 'An invoice in another currency than PLN with VAT at 23, 8 or 5 % states its VAT in PLN too (art. 106e ust. 11): the rate it is converted at, in PLN per unit of DocumentCurrencyCode (art. 31a: the NBP average rate of the last working day before the tax point), up to 6 decimals. FA(3) KursWaluty on each such line and P_14_1W/P_14_2W/P_14_3W, the VAT per rate times the rate rounded to the grosz. Required there (else 400 KSEF.EXCHANGE_RATE); not taken on a PLN invoice.',
    example: 4.2345,
  })
  @Num({ optional: true }) ExchangeRate?: number;
  @JSONSchema({
    description: 'The buyer: FA(3) Podmiot2 (Nazwa, Adres with AdresL1 the street and AdresL2 the postal code and city). Its first identifier is its FA(3) identity: `PL:NIP` (check digit verified) NIP, `<EU country>:VAT` KodUE + NrVatUE, anything else KodKraju + NrID; with transport_mode peppol also its Peppol id.',
    example: { RegisteredName: 'Nabywca S.A.', address: { Street: 'ul. Krzywa 2', ZipCode: '30-001', City: 'Kraków', Country: 'PL' }, Identifiers: [{ Scheme: 'PL:NIP', ID: '1234563218' }] },
  })
  @Nested(() => CustomerParty) CustomerParty!: CustomerParty;
  @JSONSchema({ description: 'The lines: FA(3) FaWiersz, numbered from 1 (NrWierszaFa) in this order.', example: [{ Description: 'Usługa doradcza', PriceAmount: 100, InvoicedQuantity: 2, TaxType: { TaxRate: 23, TaxType: 'standard', TaxCountry: 'PL' } }] })
  @NestedList(() => KsefInvoiceLine, { min: 1 }) InvoiceLines!: KsefInvoiceLine[];
  @JSONSchema({ description: 'The total with VAT: FA(3) P_15. Must equal the lines\' nets plus the VAT computed per rate, to the grosz, else 400 KSEF.TOTAL_MISMATCH naming the expected value.', example: 246 })
  @Num() TotalIncludingVat!: number;
  /** CorrectionInvoice only (and required there). */
  @JSONSchema({ description: 'CorrectionInvoice only, and required there: the invoice it corrects, FA(3) DaneFaKorygowanej.', example: { ID: 'FV/2026/11/0001', KsefNumber: KSEF_NUMBER, IssueDate: '2026-11-25' } })
  @Nested(() => CorrectedInvoice, { optional: true }) CorrectedInvoice?: CorrectedInvoice;
  @JSONSchema({ description: 'CorrectionInvoice only, and required there: why it corrects, FA(3) PrzyczynaKorekty (the note of a Peppol copy).', example: 'Rabat posprzedażowy 10%' })
  @Text(256, { optional: true }) CorrectionReason?: string;
  /** The legal basis of exempt (`exempt`) lines, required when there is one (FA(3) P_19A). */
  @JSONSchema({ description: 'The legal basis of the exemption, required when a line is `exempt` (else 400 KSEF.EXEMPTION_REASON): FA(3) Adnotacje/Zwolnienie/P_19A (BT-120 of a Peppol copy).', example: 'art. 43 ust. 1 pkt 37 ustawy o VAT' })
  @Text(256, { optional: true }) ExemptionReason?: string;
}
