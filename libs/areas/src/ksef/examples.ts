/**
 * Request-body examples of the Polish routes in the OpenAPI document (#47). The `first` ones are the
 * README's first document (```sh example=pl) with a concrete number in place of `FV/$(date +%s)`. The
 * supplier's NIP is check-digit valid and used by no test: KSeF (and the sandbox) key invoices and send
 * limits by the seller's NIP across accounts. Only the README's operations (onboard, generate) have a
 * `first`: the e2e test sends those in order.
 */
import type { RequestExamples } from '../shared/examples';

/** The supplier the examples onboard. */
export const SELLER_NIP = '9473182653';
/** A KSeF number of one of its invoices, CRC-8 valid (ksef-number.ts). */
export const KSEF_NUMBER = `${SELLER_NIP}-20261125-0100001AF629-7D`;

const supplier = {
  registered_name: 'Sprzedawca Sp. z o.o.',
  identifiers: [{ scheme: 'PL:NIP', id: SELLER_NIP }],
  street: 'ul. Prosta 1',
  city: 'Warszawa',
  postal_code: '00-001',
  country: 'PL',
};
const buyer = {
  RegisteredName: 'Nabywca S.A.',
  address: { Street: 'ul. Krzywa 2', ZipCode: '30-001', City: 'Kraków', Country: 'PL' },
  Identifiers: [{ Scheme: 'PL:NIP', ID: '1234563218' }],
};
const standard = { TaxRate: 23, TaxType: 'standard', TaxCountry: 'PL' };

const onboard: RequestExamples = {
  first: { summary: 'A Polish supplier (sandbox KSeF)', value: supplier },
  live: {
    summary: 'With its KSeF token and contact (live mode)',
    description: 'The token opens the supplier\'s KSeF sessions; it is sealed at rest and never answered.',
    value: {
      ...supplier,
      contact_name: 'Anna Kowalska',
      contact_email: 'faktury@sprzedawca.example',
      contact_number: '+48 22 123 45 67',
      ksef_token: `20251126-EC-2F1A0B3C4D-5E6F7A8B9C-1D|nip-${SELLER_NIP}|a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9`,
    },
  },
};

const generate: RequestExamples = {
  first: {
    summary: 'A VAT invoice at 23 %',
    value: {
      ID: 'FV/1764662400',
      DocumentType: 'Invoice',
      IssueDate: '2026-11-25',
      CustomerParty: buyer,
      InvoiceLines: [{ Description: 'Usługa doradcza', PriceAmount: 100, InvoicedQuantity: 2, TaxType: standard }],
      TotalIncludingVat: 246,
    },
  },
  correction: {
    summary: 'A correction (KOR) of an invoice KSeF numbered',
    description: 'A discount on FV/2026/11/0001: the line states what is taken away (negative quantity); 381 credit note in a Peppol copy.',
    value: {
      ID: 'FK/2026/11/0001',
      DocumentType: 'CorrectionInvoice',
      IssueDate: '2026-11-28',
      CustomerParty: buyer,
      InvoiceLines: [{ Description: 'Rabat na usługę doradczą', PriceAmount: 10, InvoicedQuantity: -2, TaxType: standard }],
      TotalIncludingVat: -24.6,
      CorrectedInvoice: { ID: 'FV/2026/11/0001', KsefNumber: KSEF_NUMBER, IssueDate: '2026-11-25' },
      CorrectionReason: 'Rabat posprzedażowy 10%',
    },
  },
  reducedAndExempt: {
    summary: 'A reduced-rate line and an exempt line',
    description: 'The exempt line (FA(3) zw) needs the legal basis of the exemption (P_19A).',
    value: {
      ID: 'FV/2026/11/0002',
      DocumentType: 'Invoice',
      IssueDate: '2026-11-26',
      CustomerParty: buyer,
      InvoiceLines: [
        { Description: 'Catering', PriceAmount: 100, TaxType: { TaxRate: 8, TaxType: 'reduced', TaxCountry: 'PL' } },
        { Description: 'Szkolenie zawodowe', PriceAmount: 50, TaxType: { TaxRate: 0, TaxType: 'exempt', TaxCountry: 'PL' } },
      ],
      TotalIncludingVat: 158,
      ExemptionReason: 'art. 43 ust. 1 pkt 29 ustawy o VAT',
    },
  },
  euroWithVat: {
    summary: 'A VAT invoice at 23 % in euros, its VAT in PLN too',
    description: 'ExchangeRate: PLN per euro (art. 31a); the FA(3) carries it on the line (KursWaluty) and the VAT in PLN, 46.00 × 4.2345 = 194.79 (P_14_1W).',
    value: {
      ID: 'FV/2026/11/0004',
      DocumentType: 'Invoice',
      IssueDate: '2026-11-26',
      DocumentCurrencyCode: 'EUR',
      ExchangeRate: 4.2345,
      CustomerParty: buyer,
      InvoiceLines: [{ Description: 'Usługa doradcza', PriceAmount: 100, InvoicedQuantity: 2, TaxType: standard }],
      TotalIncludingVat: 246,
    },
  },
  euroToGermany: {
    summary: 'A service to a German company, in euros',
    description: 'The buyer named by its VAT number (FA(3) KodUE DE + NrVatUE); taxed where the buyer is (np II).',
    value: {
      ID: 'FV/2026/11/0003',
      DocumentType: 'Invoice',
      IssueDate: '2026-11-26',
      DocumentCurrencyCode: 'EUR',
      CustomerParty: {
        RegisteredName: 'Käufer GmbH',
        address: { Street: 'Friedrichstraße 10', ZipCode: '10117', City: 'Berlin', Country: 'DE' },
        Identifiers: [{ Scheme: 'DE:VAT', ID: 'DE136695976' }],
      },
      InvoiceLines: [{ Description: 'Consulting services', PriceAmount: 1000, TaxType: { TaxRate: 0, TaxType: 'not_subject_services', TaxCountry: 'PL' } }],
      TotalIncludingVat: 1000,
    },
  },
};

const accessCode: RequestExamples = {
  accountant: {
    summary: 'Share an invoice with the buyer\'s accountant',
    value: { document_id: '01938a7e-5c2b-7d41-9f3e-6a1b2c3d4e5f', recipient_email: 'ksiegowosc@nabywca.example' },
  },
};

/** By operation: `onboard`, `generate`, `accessCode`. */
export const ksefExamples = { onboard, generate, accessCode } as const;
