/**
 * The request-body examples of the Malaysian routes in the OpenAPI document (#47). `first` is the
 * README's first document ("Malaysia (MyInvois)") with its fresh-per-run values made concrete: the TIN
 * C47190385260 (C + 10 digits + 0, used by no test: its PINT MY participant 0230:C47190385260 is global
 * to a database) and the document ID.
 */
import type { RequestExamples } from '../shared/examples';

const buyer = {
  LegalName: 'Syarikat Pembeli Bhd', CustomerTIN: 'C20880050010', CustomerBRN: '199901012345', CityName: 'Petaling Jaya',
  AddressLines: ['Jalan Jalan 20'], PostalZone: '47500', CountrySubentityCode: '10', CountryCode: 'MYS', Telephone: '+60312345678',
};

const serviceTax = { TaxType: '02', TaxRate: 0.06 };

const firstInvoice = {
  ID: 'INV-1764651600', IssueDate: '2026-03-15', IssueTime: '10:30:00Z', InvoiceTypeCode: '01',
  CustomerParty: buyer,
  InvoiceLines: [{ Description: 'Widget', InvoicedQuantity: 2, PriceAmount: 50, LineTaxes: [serviceTax], ClassificationCode: ['022'] }],
};

/** An export to a foreign buyer, in US dollars: the rate to MYR is mandatory, service tax not applicable. */
const foreignCurrencyInvoice = {
  ID: 'INV-1764651601', IssueDate: '2026-03-15', IssueTime: '11:00:00Z', InvoiceTypeCode: '01',
  DocumentCurrencyCode: 'USD', TaxExchangeRate: '4.4720', Incoterms: 'FOB',
  CustomerParty: {
    LegalName: 'Acme Inc', CustomerTIN: 'EI00000000020', CustomerPassport: 'A1234567', CityName: 'Seattle',
    AddressLines: ['900 Winslow Way E'], PostalZone: '98110', CountrySubentityCode: '17', CountryCode: 'USA', Telephone: '+12065550100',
  },
  InvoiceLines: [{ Description: 'Palm oil testing kit', InvoicedQuantity: 3, PriceAmount: 200, LineTaxes: [{ TaxType: '06' }], ClassificationCode: ['022'] }],
  InvoiceTotal: 600,
};

/** A credit note (02) taking back one widget of the first invoice, by the uuid MyInvois gave it. */
const creditNote = {
  ID: 'CN-1764651602', IssueDate: '2026-03-16', IssueTime: '09:15:00Z', InvoiceTypeCode: '02',
  InvoiceDocumentReference: [{ UUID: 'F9D425P6DS7D8IU4A8R5EY2K10', InternalID: 'INV-1764651600' }],
  CustomerParty: buyer,
  InvoiceLines: [{ Description: 'Widget returned', InvoicedQuantity: 1, PriceAmount: 50, LineTaxes: [serviceTax], ClassificationCode: ['022'] }],
  InvoiceTotal: 53,
};

export const myInvoisExamples = {
  onboard: {
    first: {
      summary: 'A retailer (the README\'s first document)',
      description: 'A business with its BRN and SST number; its TIN also makes it the PINT MY Peppol participant 0230:C47190385260 here.',
      value: {
        registered_name: 'Kedai Runcit Maju Sdn Bhd', tin_number: 'C47190385260',
        other_ids: { brn: '202001234567', sst: 'W10-1808-32000001' },
        msic_code: '47111', industry: 'Retail sale in non-specialized stores', city: 'Kuala Lumpur',
        street: 'Lot 66, Bangunan Merdeka, Persiaran Jaya', state: '14', country: 'MYS',
        contact_number: '+60123456789', client_id: 'my-client-id', client_secret: 'my-client-secret',
      },
    },
    individual: {
      summary: 'A Malaysian individual, not SST-registered',
      value: {
        registered_name: 'Ahmad bin Ismail', tin_number: 'IG21136626090', other_ids: { nric: '770625015324', sst: 'NA' },
        msic_code: '01131', industry: 'Growing of leafy or stem vegetables', city: 'Kluang', street: 'Kampung Baru',
        state: '01', country: 'MYS', contact_number: '+60197654321', client_id: 'ahmad-client-id', client_secret: 'ahmad-client-secret',
      },
    },
  },
  validateTin: {
    brn: { summary: 'A buyer\'s TIN against its business registration number', value: { tin_number: 'C20880050010', id_type: 'BRN', id_value: '199901012345' } },
    nric: { summary: 'An individual\'s TIN against its MyKad number', value: { tin_number: 'IG21136626090', id_type: 'NRIC', id_value: '770625015324' } },
  },
  invoice: {
    first: { summary: 'One invoice with 6 % service tax (the README\'s first document)', value: firstInvoice },
    foreignCurrency: { summary: 'An export in US dollars to a foreign buyer', description: 'TaxExchangeRate is MYR per USD; the foreign buyer\'s TIN is EI00000000020.', value: foreignCurrencyInvoice },
    creditNote: { summary: 'A credit note adjusting a validated invoice', value: creditNote },
  },
  bulk: {
    twoDocuments: { summary: 'Two documents in one submission', description: 'Each is accepted or rejected on its own.', value: [firstInvoice, foreignCurrencyInvoice] },
  },
  consolidated: {
    dailyReceipts: {
      summary: 'A day\'s receipts to the general public',
      value: {
        ID: 'CON-20260315', IssueDate: '2026-03-15', IssueTime: '23:30:00Z', InvoiceTypeCode: '01',
        CustomerParty: { LegalName: 'General Public', CustomerTIN: 'EI00000000010', CityName: 'NA', AddressLines: ['NA'], CountrySubentityCode: '17', CountryCode: 'MYS', Telephone: 'NA' },
        InvoiceLines: [{ Description: 'Receipts RCPT-000101 to RCPT-000187', InvoicedQuantity: 1, PriceAmount: 4520.5, LineTaxes: [serviceTax], ClassificationCode: ['004'] }],
      },
    },
  },
  selfBilled: {
    smallholder: {
      summary: 'Produce bought from an individual smallholder',
      description: 'The onboarded supplier is the buyer and issues the document for the seller in SupplierParty.',
      value: {
        ID: 'SB-1764651603', IssueDate: '2026-03-15', IssueTime: '08:00:00Z', InvoiceTypeCode: '01',
        SupplierParty: {
          LegalName: 'Pekebun Kecil Ahmad', SupplierTIN: 'IG21136626090', SupplierNRIC: '770625015324', CityName: 'Kluang',
          AddressLines: ['Kampung Baru'], CountrySubentityCode: '01', CountryCode: 'MYS', Telephone: '+60197654321',
        },
        InvoiceLines: [{ Description: 'Fresh kangkung', InvoicedQuantity: 40, UOM: 'KGM', PriceAmount: 3.5, LineTaxes: [{ TaxType: '06' }], ClassificationCode: ['022'] }],
      },
    },
  },
  cancel: {
    wrongBuyer: { summary: 'Issued to the wrong buyer', value: { reason: 'Issued to the wrong buyer; replaced by INV-1764651604' } },
  },
  reject: {
    notOrdered: { summary: 'Goods never ordered', value: { reason: 'Goods not ordered: no purchase order matches this invoice' } },
  },
} satisfies Record<string, RequestExamples>;
