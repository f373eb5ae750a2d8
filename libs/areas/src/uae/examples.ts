/**
 * The request-body examples of the UAE routes in the OpenAPI document (#47). `first` is the README's
 * first document ("United Arab Emirates (PINT AE)") with its fresh-per-run values made concrete: the TIN
 * 1794625038 (used by no test: its Peppol id 0235:1794625038 is global to a database) and the document
 * identifier.
 */
import type { RequestExamples } from '../shared/examples';

const TIN = '1794625038';

const receivingParty = {
  peppol_id: '0235:1345678901', legal_name: 'Abu Dhabi Buyer LLC',
  street_address: 'Khalifa Street 9', city: 'Abu Dhabi', emirates_code: 'AUH', country_code: 'AE',
  trn: '134567890123003',
};

/** The README's tax invoice (380): 10 widgets at 100.00 AED, 5 % VAT, paid by credit transfer. */
const taxInvoice = {
  document_identifier: 'INV-1764651600', issue_date: '2026-07-01', document_type: '380',
  document_currency: 'AED', due_date: '2026-07-31', flags: {},
  receiving_party: receivingParty,
  payment_means: [{ type_code: '30', payment_account_id: 'AE070331234567890123456' }],
  lines: [{ item_name: 'Widget', quantity: '10', unit_code: 'H87', unit_price: '100.00', tax_category: 'S', tax_percentage: '5' }],
};

/** A tax credit note (381) taking back two widgets of the invoice, with its reason (BTAE-03) and the invoice it corrects. */
const creditNote = {
  document_identifier: 'CN-1764651601', issue_date: '2026-07-05', document_type: '381',
  document_currency: 'AED', credit_note_reason_code: 'DL8.61.1.B', flags: {},
  receiving_party: receivingParty,
  document_references: [{ document_identifier: 'INV-1764651600', issue_date: '2026-07-01' }],
  lines: [{ item_name: 'Widget returned', quantity: '2', unit_code: 'H87', unit_price: '100.00', tax_category: 'S', tax_percentage: '5' }],
};

/** An invoice in US dollars: the VAT and the total with VAT also in AED (IBT-111, BTAE-20), the rate derived from them. */
const foreignCurrencyInvoice = {
  ...taxInvoice,
  document_identifier: 'INV-1764651602', document_currency: 'USD',
  lines: [{ item_name: 'Consulting, July', quantity: '8', unit_code: 'HUR', unit_price: '150.00', tax_category: 'S', tax_percentage: '5' }],
  total_tax_amount_in_aed: '220.35', total_amount_with_tax_in_aed: '4627.35',
};

export const uaeExamples = {
  participant: {
    first: {
      summary: 'A VAT-registered company in Dubai (the README\'s first document)',
      description: 'It becomes the Peppol receiver 0235:1794625038 here.',
      value: {
        peppol_id: `0235:${TIN}`, legal_name: 'Gulf Widgets LLC', trn: `${TIN}00003`,
        legal_id: { id: `TL-${TIN}`, scheme: 'TL', authority: 'Dubai Economy and Tourism' },
        street_address: 'Sheikh Zayed Road 1', city: 'Dubai', emirates_code: 'DXB', country_code: 'AE',
      },
    },
    aprilYear: {
      summary: 'A company whose financial year starts on 1 April',
      description: 'Its document identifiers are unique per financial year, April to March.',
      value: {
        peppol_id: '0235:1794625046', legal_name: 'Sharjah Spices Trading LLC', trn: '179462504600003',
        legal_id: { id: 'TL-771204', scheme: 'TL', authority: 'Sharjah Economic Development Department' },
        street_address: 'Al Wahda Street 14', city: 'Sharjah', emirates_code: 'SHJ', country_code: 'AE', financial_year_start: '04-01',
      },
    },
  },
  document: {
    first: { summary: 'A tax invoice (380) to a buyer of another access point (the README\'s first document)', value: taxInvoice },
    creditNote: { summary: 'A tax credit note (381) correcting that invoice', value: creditNote },
    foreignCurrency: { summary: 'A tax invoice in US dollars, with its VAT and total in AED', value: foreignCurrencyInvoice },
  },
  validate: {
    taxInvoice: { summary: 'The same tax invoice, checked without filing (its number is then taken)', value: { ...taxInvoice, document_identifier: 'INV-1764651603' } },
  },
  unifiedDocument: {
    taxInvoice: { summary: 'A tax invoice through the Unified API: the Regional document plus country AE', value: { country: 'AE', ...taxInvoice, document_identifier: 'INV-1764651604' } },
    creditNote: { summary: 'A tax credit note through the Unified API', value: { country: 'AE', ...creditNote } },
  },
  unifiedValidate: {
    taxInvoice: { summary: 'A tax invoice checked through the Unified API', value: { country: 'AE', ...taxInvoice, document_identifier: 'INV-1764651605' } },
  },
  acknowledge: {
    outgoing: { summary: 'The outgoing feed processed through an event', value: { direction: 'outgoing', cursor: 'NzQ4MjEuMTI' } },
  },
} satisfies Record<string, RequestExamples>;
