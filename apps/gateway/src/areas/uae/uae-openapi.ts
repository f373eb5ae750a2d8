/**
 * The UAE document in the OpenAPI (issue 10: every route with an example). The document is validated
 * by class-validator DTOs (libs/areas/src/uae/schema.ts), but the schema generated from them cannot say
 * what they take (a quantity as a decimal string or a number, `payment_terms` as a text or a list, a
 * field required on a credit note only), so its schema here lists the header fields and refers to the
 * area README for the rest; the example is a complete tax invoice.
 */
export const uaeDocumentExample = {
  document_identifier: 'INV-2026-0001',
  issue_date: '2026-07-01',
  document_type: '380',
  document_currency: 'AED',
  due_date: '2026-07-31',
  flags: {},
  receiving_party: {
    peppol_id: '0235:1345678901',
    legal_name: 'Abu Dhabi Buyer LLC',
    street_address: 'Khalifa Street 9',
    city: 'Abu Dhabi',
    emirates_code: 'AUH',
    country_code: 'AE',
    trn: '134567890123003',
  },
  payment_means: [{ type_code: '30', payment_account_id: 'AE070331234567890123456' }],
  lines: [{ item_name: 'Widget', quantity: '10', unit_code: 'H87', unit_price: '100.00', tax_category: 'S', tax_percentage: '5' }],
};

export const uaeDocumentSchema = {
  title: 'UaeDocument',
  type: 'object',
  description: 'A PINT AE document (seed 001; every field and rule: libs/areas/src/uae/README.md). At the root or under `document`.',
  required: ['document_identifier', 'issue_date', 'document_type', 'document_currency', 'receiving_party', 'lines'],
  properties: {
    document_identifier: { type: 'string' },
    issue_date: { type: 'string', format: 'date' },
    issue_time: { type: 'string', example: '10:30:00' },
    document_type: { type: 'string', enum: ['380', '480', '381', '81', '389', '261'] },
    document_currency: { type: 'string', example: 'AED' },
    credit_note_reason_code: { type: 'string', enum: ['DL8.61.1.A', 'DL8.61.1.B', 'DL8.61.1.C', 'DL8.61.1.D', 'DL8.61.1.E', 'VD'] },
    flags: { type: 'object', additionalProperties: { type: 'boolean' } },
    receiving_party: { type: 'object' },
    issuing_party: { type: 'object' },
    payment_means: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type_code'],
        properties: {
          type_code: { type: 'string', enum: ['1', '10', '20', '21', '30', '49', '54', '55', '68'] },
          payment_account_id: { type: 'string' },
          payment_account_name: { type: 'string' },
          // cac:CardAccount needs both once it is rendered (UBL 2.1 XSD, #44).
          card: {
            type: 'object',
            required: ['primary_account_number', 'network_id'],
            properties: { primary_account_number: { type: 'string', example: 'XXXXXXXXXXXX1234' }, network_id: { type: 'string', example: 'VISA' }, holder_name: { type: 'string' } },
          },
        },
      },
    },
    lines: { type: 'array', items: { type: 'object' } },
    allowance_charges: { type: 'array', items: { type: 'object' } },
    tax_totals: { type: 'array', items: { type: 'object' } },
    invoice_totals: { type: 'object' },
    document_references: { type: 'array', items: { type: 'object' } },
  },
  example: uaeDocumentExample,
};

export const acceptedExample = {
  status: 'success',
  data: { document_id: '5b0e7c59-6a7f-4f7e-9d55-2f8a1f0c1c11', document_identifier: 'INV-2026-0001', status: 'accepted', reporting: { status: 'queued' }, exchange: { status: 'processing' } },
};

export const recordExample = {
  status: 'success',
  data: {
    document_id: '5b0e7c59-6a7f-4f7e-9d55-2f8a1f0c1c11',
    document_identifier: 'INV-2026-0001',
    direction: 'outgoing',
    document_type: '380',
    issue_date: '2026-07-01',
    status: 'completed',
    reporting: { status: 'reported', reported_at: '2026-07-01T10:00:03.120Z' },
    exchange: { status: 'delivered', mls: { code: 'AP', received_at: '2026-07-01T10:00:01.480Z' } },
    attachments: [{ index: 1, filename: 'timesheet.pdf', mime_code: 'application/pdf', size_bytes: 48213 }],
    created_at: '2026-07-01T10:00:00.950Z',
    document: uaeDocumentExample,
  },
};

export const eventsExample = {
  status: 'success',
  data: { direction: 'outgoing' },
  events: [{
    id: 'NzQ4MjEuMTI',
    type: 'document.delivered',
    document_id: '5b0e7c59-6a7f-4f7e-9d55-2f8a1f0c1c11',
    document_identifier: 'INV-2026-0001',
    direction: 'outgoing',
    status: 'accepted',
    reporting: { status: 'queued' },
    exchange: { status: 'delivered' },
    created_at: '2026-07-01T10:00:01.500Z',
  }],
  next_cursor: 'NzQ4MjEuMTI',
};
