/**
 * Request-body examples of the Belgian, German and Singaporean routes in the OpenAPI document (#47).
 * `first` is README.md's first document of the area (```sh example=be / de / sg) with one concrete value
 * where the README makes one fresh per run: check-digit-valid identifiers no test uses, since the
 * e2e test onboards them and a Peppol participant id is registered once in the database.
 */
import type { RequestExamples } from '../shared/examples';
import type { PeppolAreaCode } from './profiles';

/** The examples of one area's bodies, by operation. */
export interface PeppolAreaExamples {
  /** `POST /{area}/einvoice/onboard`. */
  readonly onboard: RequestExamples;
  /** `POST /{area}/einvoice/generate/invoice`. */
  readonly invoice: RequestExamples;
}

/** BE + 1073906202: an enterprise number of the newer 1… series (no test draws one), its last two digits 97 − (10739062 mod 97). */
const BE_VAT = 'BE1073906202';
/** DE + 27461938 + its ISO 7064 MOD 11,10 check digit 4. */
const DE_VAT = 'DE274619384';
/** A local company's UEN, nine digits and a letter, past the range the tests and the README draw from (199000000–202599999). */
const SG_UEN = '202604178W';

const belgium: PeppolAreaExamples = {
  onboard: {
    first: {
      summary: 'A Belgian supplier by its VAT number (README, the first document)',
      value: {
        registered_name: 'Brussels Widgets NV', identifiers: [{ scheme: 'BE:VAT', id: BE_VAT }],
        street: 'Rue de la Loi 16', city: 'Brussels', country: 'BE',
      },
    },
    vatAndEnterpriseNumber: {
      summary: 'With its enterprise number and a contact',
      description: 'Two identifiers, two Peppol participants of the supplier: 9925 (VAT) and 0208 (enterprise number).',
      value: {
        registered_name: 'Brussels Widgets NV',
        identifiers: [{ scheme: 'BE:VAT', id: BE_VAT }, { scheme: 'BE:KBO', id: BE_VAT.slice(2) }],
        street: 'Rue de la Loi 16', city: 'Brussels', postal_code: '1040', country: 'BE',
        contact_name: 'Accounts receivable', contact_number: '+3225551234', contact_email: 'billing@widgets.example',
      },
    },
  },
  invoice: {
    first: {
      summary: 'An invoice at 21 % to a Belgian buyer (README, the first document)',
      value: {
        ID: 'INV-1773532800', DocumentType: '380', IssueDate: '2026-03-15',
        CustomerParty: {
          RegisteredName: 'Antwerp Buyer BV',
          address: { Street: 'Meir 1', ZipCode: '2000', City: 'Antwerpen', Country: 'BE' },
          Identifiers: [{ Scheme: 'BE:VAT', ID: 'BE0202239951' }],
        },
        InvoiceLines: [{ Description: 'Consulting', PriceAmount: 100, InvoicedQuantity: 1, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } }],
        TotalIncludingVat: 121,
      },
    },
    creditNote: {
      summary: 'A credit note correcting that invoice',
      description: 'DocumentType 381 is rendered as a UBL CreditNote; BillingReference (BG-3) names the invoice it corrects.',
      value: {
        ID: 'CN-2026-0007', DocumentType: '381', IssueDate: '2026-03-20',
        CustomerParty: {
          RegisteredName: 'Antwerp Buyer BV',
          address: { Street: 'Meir 1', ZipCode: '2000', City: 'Antwerpen', Country: 'BE' },
          Identifiers: [{ Scheme: 'BE:VAT', ID: 'BE0202239951' }],
        },
        InvoiceLines: [{ Description: 'Consulting (2 hours not worked)', PriceAmount: 50, InvoicedQuantity: 1, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } }],
        TotalIncludingVat: 60.5,
        BillingReference: { ID: 'INV-1773532800', IssueDate: '2026-03-15' },
        Note: 'Two hours invoiced in error.',
      },
    },
    twoRatesWithPayment: {
      summary: 'Two VAT rates, a due date and SEPA payment details',
      value: {
        ID: 'INV-2026-0043', DocumentType: '380', IssueDate: '2026-03-15', DueDate: '2026-04-14', BuyerReference: 'PO-88123',
        PaymentTerms: '30 days net', PaymentMeans: { Code: '58', AccountID: 'BE71096123456769', AccountName: 'Brussels Widgets NV' },
        CustomerParty: {
          RegisteredName: 'Antwerp Buyer BV',
          address: { Street: 'Meir 1', ZipCode: '2000', City: 'Antwerpen', Country: 'BE' },
          Identifiers: [{ Scheme: 'BE:VAT', ID: 'BE0202239951' }],
        },
        InvoiceLines: [
          { Description: 'Consulting', PriceAmount: 100, InvoicedQuantity: 3, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } },
          { Description: 'Printed manual', PriceAmount: 25, InvoicedQuantity: 2, TaxType: { TaxRate: 6, TaxType: 'reduced', TaxCountry: 'BE' } },
        ],
        TotalIncludingVat: 416,
      },
    },
  },
};

const germany: PeppolAreaExamples = {
  onboard: {
    first: {
      summary: 'A German supplier with the contact XRechnung wants (README, the first document)',
      value: {
        registered_name: 'Berliner Teile GmbH', identifiers: [{ scheme: 'DE:VAT', id: DE_VAT }],
        street: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117', country: 'DE',
        contact_number: '+49301234567', contact_name: 'Erika Muster', contact_email: 'billing@teile.example',
      },
    },
  },
  invoice: {
    first: {
      summary: 'An intra-community supply to an Austrian buyer, VAT 0 % (README, the first document)',
      value: {
        ID: 'RE-1773532800', DocumentType: '380', IssueDate: '2026-03-15', DueDate: '2026-04-14',
        CustomerParty: {
          RegisteredName: 'Wiener Käufer GmbH',
          address: { Street: 'Graben 1', ZipCode: '1010', City: 'Wien', Country: 'AT' },
          Identifiers: [{ Scheme: '9914', ID: 'ATU12345678' }],
        },
        InvoiceLines: [{ Description: 'Schrauben', PriceAmount: 12.5, InvoicedQuantity: 4, TaxType: { TaxRate: 0, TaxType: 'intra_community', TaxCountry: 'DE' } }],
        TotalIncludingVat: 50,
      },
    },
    domestic: {
      summary: 'A domestic invoice at 19 % with the payment details German rules want',
      description: 'Seller and buyer in Germany: PaymentMeans is required (DE-R-001), and so are the supplier\'s city, post code and contact in its onboarding (DE-R-003 to DE-R-007).',
      value: {
        ID: 'RE-2026-0815', DocumentType: '380', IssueDate: '2026-03-15', DueDate: '2026-04-14', PaymentTerms: 'Zahlbar innerhalb 30 Tagen netto',
        PaymentMeans: { Code: '58', AccountID: 'DE02120300000000202051', AccountName: 'Berliner Teile GmbH' },
        CustomerParty: {
          RegisteredName: 'Hamburger Handel AG',
          address: { Street: 'Jungfernstieg 7', ZipCode: '20354', City: 'Hamburg', Country: 'DE' },
          Identifiers: [{ Scheme: 'DE:VAT', ID: 'DE136695976' }],
        },
        InvoiceLines: [{ Description: 'Schrauben M8', PriceAmount: 0.4, InvoicedQuantity: 500, TaxType: { TaxRate: 19, TaxType: 'standard', TaxCountry: 'DE' } }],
        TotalIncludingVat: 238,
      },
    },
  },
};

const singapore: PeppolAreaExamples = {
  onboard: {
    first: {
      summary: 'A Singapore supplier by its UEN (README, the first document)',
      value: {
        registered_name: 'Lion City Pte Ltd', identifiers: [{ scheme: 'SG:UEN', id: SG_UEN }],
        street: '1 Raffles Place', city: 'Singapore', postal_code: '048616', country: 'SG',
      },
    },
  },
  invoice: {
    first: {
      summary: 'A tax invoice, GST 9 %, in SGD (README, the first document)',
      value: {
        ID: 'SG-1773532800', DocumentType: 'Invoice', IssueDate: '2026-03-15',
        CustomerParty: {
          RegisteredName: 'Marina Buyer Pte Ltd',
          address: { Street: '10 Pasir Panjang Road', ZipCode: '117438', City: 'Singapore', Country: 'SG' },
          Identifiers: [{ Scheme: 'SG:UEN', ID: '201912345K' }],
        },
        InvoiceLines: [{ Description: 'Cloud hosting', PriceAmount: 200, InvoicedQuantity: 1, TaxType: { TaxRate: 9, TaxType: 'standard', TaxCountry: 'SG' } }],
        TotalIncludingVat: 218,
      },
    },
    creditNote: {
      summary: 'A credit note: its reason in Note (BR-111-GST-SG)',
      value: {
        ID: 'SG-CN-0012', DocumentType: 'CreditNote', IssueDate: '2026-03-20', Note: 'Hosting credited for the outage of 17 March.',
        BillingReference: { ID: 'SG-1773532800', IssueDate: '2026-03-15' },
        CustomerParty: {
          RegisteredName: 'Marina Buyer Pte Ltd',
          address: { Street: '10 Pasir Panjang Road', ZipCode: '117438', City: 'Singapore', Country: 'SG' },
          Identifiers: [{ Scheme: 'SG:UEN', ID: '201912345K' }],
        },
        InvoiceLines: [{ Description: 'Cloud hosting credit', PriceAmount: 20, InvoicedQuantity: 1, TaxType: { TaxRate: 9, TaxType: 'standard', TaxCountry: 'SG' } }],
        TotalIncludingVat: 21.8,
      },
    },
    foreignCurrency: {
      summary: 'An invoice in USD: GST also stated in SGD (BR-113-GST-SG)',
      description: 'TaxExchangeRate is SGD per USD; the GST total is given in both currencies.',
      value: {
        ID: 'SG-USD-0031', DocumentType: 'Invoice', IssueDate: '2026-03-15', DocumentCurrencyCode: 'USD', TaxExchangeRate: 1.35,
        CustomerParty: {
          RegisteredName: 'Marina Buyer Pte Ltd',
          address: { Street: '10 Pasir Panjang Road', ZipCode: '117438', City: 'Singapore', Country: 'SG' },
          Identifiers: [{ Scheme: 'SG:UEN', ID: '201912345K' }],
        },
        InvoiceLines: [{ Description: 'Software licence', PriceAmount: 1000, InvoicedQuantity: 1, TaxType: { TaxRate: 9, TaxType: 'standard', TaxCountry: 'SG' } }],
        TotalIncludingVat: 1090,
      },
    },
  },
};

/** Each Peppol area's request-body examples (`@ApiBody({ examples })`). */
export const peppolExamples: Readonly<Record<PeppolAreaCode, PeppolAreaExamples>> = { be: belgium, de: germany, sg: singapore };
