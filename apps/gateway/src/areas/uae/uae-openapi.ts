/**
 * The UAE routes in the OpenAPI (issue 10: every route with an example; #47: every field and answer
 * described). The document is validated by class-validator DTOs (libs/areas/src/uae/schema.ts), but the
 * schema generated from them cannot say what they take (a field required on a credit note only,
 * `payment_terms` as a text or a list, the body at the root or under `document`), so its schema here
 * lists the seed's fields with their PINT AE terms and refers to the area README for every optional
 * block; the examples are libs/areas/src/uae/examples.ts.
 */
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { uae } from '@einvoice/areas';
import { dateTimeField, nullable, statusAnswer, uuidField } from '../../http/openapi-answers';

const examples = uae.uaeExamples;
/** The README's tax invoice. */
export const uaeDocumentExample = examples.document.first.value;

const text = (description: string, example: unknown, more: SchemaObject = {}): SchemaObject => ({ type: 'string', description, example, ...more });
/** Amounts and quantities are decimal strings; a bare number is taken too and becomes its decimal string. */
const decimal = (description: string, example: string): SchemaObject => ({ oneOf: [{ type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' }, { type: 'number' }], description, example });
const date = (description: string, example: string): SchemaObject => ({ type: 'string', format: 'date', description, example });

const receivingParty: SchemaObject = {
  type: 'object',
  description: 'The buyer (IBG-07; on a self-billed 389 / 261, the seller).',
  required: ['peppol_id', 'legal_name', 'street_address'],
  properties: {
    peppol_id: text('Its Peppol participant id, `<ICD>:<id>` (IBT-049): where the document is delivered.', '0235:1345678901'),
    legal_name: text('Its registered name (IBT-044).', 'Abu Dhabi Buyer LLC'),
    street_address: text('Street of its address (IBT-050).', 'Khalifa Street 9'),
    city: text('City (IBT-052).', 'Abu Dhabi'),
    emirates_code: text(`Emirate (IBT-054): ${uae.EMIRATES.join(', ')} for an AE address, the foreign subdivision as text otherwise.`, 'AUH'),
    country_code: text('ISO 3166-1 alpha-2 country (IBT-055); AE when absent.', 'AE'),
    trn: text('Its 15-digit TRN (IBT-048), when VAT-registered.', '134567890123003'),
    legal_id: {
      type: 'object',
      description: 'Its legal registration (IBT-047): `scheme` TL, CL, EID, PAS or CD, `authority` who issued it.',
      properties: { id: { type: 'string' }, scheme: { type: 'string', enum: ['TL', 'CL', 'EID', 'PAS', 'CD'] }, authority: { type: 'string' } },
      example: { id: 'TL-556677', scheme: 'TL', authority: 'Abu Dhabi Department of Economic Development' },
    },
    identifiers: {
      type: 'array',
      description: 'Other identifiers (IBT-046) with their scheme.',
      items: { type: 'object', properties: { id: { type: 'string' }, scheme_id: { type: 'string' } } },
      example: [{ id: '5790000435968', scheme_id: '0088' }],
    },
  },
  example: examples.document.first.value.receiving_party,
};

const line: SchemaObject = {
  type: 'object',
  description: 'An invoice or credit note line (IBG-25); every other line field (price discount, item ids, HS / SAC codes, AED amounts): area README "Names".',
  required: ['item_name', 'quantity', 'unit_code', 'unit_price'],
  properties: {
    line_id: text('Line number (IBT-126); 1, 2… when left out.', '1'),
    item_name: text('Item name (IBT-153).', 'Widget'),
    item_description: text('Item description (IBT-154); the name when left out (ibr-125-ae).', 'Blue widget, 40 mm'),
    quantity: decimal('Invoiced quantity (IBT-129).', '10'),
    unit_code: text('UN/ECE Recommendation 20 unit (IBT-130).', 'H87'),
    unit_price: decimal('Net unit price (IBT-146), in the document currency.', '100.00'),
    line_amount: decimal('Line net amount (IBT-131); quantity × price − allowances + charges when left out.', '1000.00'),
    tax_category: text('VAT category (IBT-151): S standard, Z zero, E exempt, O out of scope, AE reverse charge, N; mandatory except on an 81.', 'S', { enum: ['S', 'Z', 'E', 'O', 'AE', 'N'] }),
    tax_percentage: decimal('VAT rate in percent (IBT-152); 5 for S when left out.', '5'),
    commodity_code: text('BTAE-13: G goods, S services, B both.', 'G', { enum: ['G', 'S', 'B'] }),
    allowance_charges: { type: 'array', items: { type: 'object' }, description: 'Line allowances and charges (IBG-27/28): `charge_indicator`, `amount`, `reason`, `reason_code`.', example: [{ charge_indicator: false, amount: '50.00', reason: 'Discount' }] },
  },
  example: examples.document.first.value.lines[0],
};

const paymentMeans: SchemaObject = {
  type: 'object',
  required: ['type_code'],
  properties: {
    type_code: text('UNCL 4461 payment means (IBT-081): 30 credit transfer (needs payment_account_id, ibr-192-ae), 54/55 card, 10 cash…', '30', { enum: ['1', '10', '20', '21', '30', '49', '54', '55', '68'] }),
    payment_account_id: text('The account paid to, an IBAN for a credit transfer (IBT-084).', 'AE070331234567890123456'),
    payment_account_name: text('Its name (IBT-085).', 'Gulf Widgets LLC'),
    // cac:CardAccount needs both once it is rendered (UBL 2.1 XSD, #44).
    card: {
      type: 'object',
      description: 'The card paid with (IBG-18).',
      required: ['primary_account_number', 'network_id'],
      properties: { primary_account_number: { type: 'string', example: 'XXXXXXXXXXXX1234' }, network_id: { type: 'string', example: 'VISA' }, holder_name: { type: 'string', example: 'Omar Haddad' } },
      example: { primary_account_number: 'XXXXXXXXXXXX1234', network_id: 'VISA' },
    },
  },
  example: examples.document.first.value.payment_means[0],
};

export const uaeDocumentSchema: SchemaObject = {
  title: 'UaeDocument',
  type: 'object',
  description:
    'A PINT AE document (seed 001; every field and rule: libs/areas/src/uae/README.md), at the root or under `document`. Checked in two phases: the fields, '
    + 'then the rendered UBL against the PINT AE rules (errors carry the official rule id, e.g. ibr-190-ae). The Unified API takes the same document plus `country` (AE).',
  required: ['document_identifier', 'issue_date', 'document_type', 'document_currency', 'receiving_party', 'lines'],
  properties: {
    country: text('Unified API only, and required there: the country whose rules apply (AE).', 'AE', { enum: ['AE'] }),
    document_identifier: text('The document number (IBT-001), unique per participant and financial year: a reused one is a 409.', 'INV-1764651600'),
    issue_date: date('Issue date (IBT-002).', '2026-07-01'),
    issue_time: text('Issue time (IBT-168), `HH:MM:SS` with an optional offset.', '10:30:00+04:00'),
    document_type: text('UNCL 1001 type (IBT-003): 380 tax invoice, 480 commercial invoice, 389 self-billed invoice, 381 tax credit note, 81 out-of-scope credit note, 261 self-billed credit note.', '380', { enum: ['380', '480', '381', '81', '389', '261'] }),
    document_currency: text('ISO 4217 currency (IBT-005); not AED: give the AED totals too.', 'AED'),
    credit_note_reason_code: text('Why a credit note (BTAE-03); required on a 381.', 'DL8.61.1.B', { enum: ['DL8.61.1.A', 'DL8.61.1.B', 'DL8.61.1.C', 'DL8.61.1.D', 'DL8.61.1.E', 'VD'] }),
    due_date: date('Payment due date (IBT-009).', '2026-07-31'),
    flags: {
      type: 'object',
      additionalProperties: { type: 'boolean' },
      description: 'The transaction type (BTAE-02): is_ftz, is_deemed, is_margin, is_summary, is_continuous, is_dab, is_ecommerce, is_export; absent ones are false.',
      example: { is_export: false },
    },
    receiving_party: receivingParty,
    issuing_party: {
      type: 'object',
      description: 'Overrides the registered participant\'s trading name, address, TRN or legal id on this document (never its Peppol id or legal name).',
      example: { trading_name: 'Gulf Widgets' },
    },
    payment_means: { type: 'array', items: paymentMeans, description: 'Payment instructions (IBG-16).', example: examples.document.first.value.payment_means },
    lines: { type: 'array', minItems: 1, items: line, description: 'The lines, at least one.', example: examples.document.first.value.lines },
    allowance_charges: {
      type: 'array',
      items: { type: 'object' },
      description: 'Document allowances and charges (IBG-20/21): `charge_indicator`, `amount`, `reason`, `reason_code`, `tax_category`, `tax_percentage`.',
      example: [{ charge_indicator: false, amount: '100.00', reason: 'Volume discount', tax_category: 'S', tax_percentage: '5' }],
    },
    tax_totals: {
      type: 'array',
      items: { type: 'object' },
      description: 'The VAT breakdown (IBG-23) as sent: `tax_category`, `tax_rate`, `taxable_amount`, `tax_amount`; derived from the lines when left out.',
      example: [{ tax_category: 'S', tax_rate: '5', taxable_amount: '1000.00', tax_amount: '50.00' }],
    },
    invoice_totals: {
      type: 'object',
      description: 'Document totals (IBG-22), fill-missing-only: a stated value is used, an omitted one derived.',
      example: { line_extension_amount: '1000.00', taxable_amount: '1000.00', payable_amount: '1050.00' },
    },
    total_tax_amount_in_aed: decimal('A foreign-currency document\'s VAT in AED (IBT-111).', '220.35'),
    total_amount_with_tax_in_aed: decimal('A foreign-currency document\'s total with VAT in AED (BTAE-20).', '4627.35'),
    document_references: {
      type: 'array',
      items: { type: 'object' },
      description: 'Preceding invoices (with `issue_date`: IBG-03) and supporting documents with a URI or embedded content (returned as `attachments`).',
      example: [{ document_identifier: 'INV-1764651600', issue_date: '2026-07-01' }],
    },
  },
  example: uaeDocumentExample,
};

const DOCUMENT_ID = '5b0e7c59-6a7f-4f7e-9d55-2f8a1f0c1c11';
const CURSOR = 'NzQ4MjEuMTI';
const success = text('`success`.', 'success');

/** `POST /v1/participants`' 201. */
export const participantSchema = statusAnswer(
  success,
  {
    data: {
      type: 'object',
      properties: {
        participant_id: uuidField('The participant\'s id: the `{participant_id}` of its other routes.', '0f9a7b2e-3c1d-4e5f-8a9b-1c2d3e4f5a6b'),
        peppol_id: text('Its Peppol id as registered here.', '0235:1794625038'),
      },
    },
  },
  { data: { participant_id: '0f9a7b2e-3c1d-4e5f-8a9b-1c2d3e4f5a6b', peppol_id: '0235:1794625038' } },
);

const trackStatus = (description: string, values: string[], example: string): SchemaObject => ({
  type: 'object',
  description,
  properties: { status: { type: 'string', enum: values, example } },
  additionalProperties: true,
});

const reporting = trackStatus('The FTA reporting track: queued, then reported (`reported_at`) or failed (`error`).', ['queued', 'reported', 'failed'], 'reported');
const exchange = trackStatus('The Peppol delivery track: processing, then delivered (the receiver\'s MLS in `mls`) or failed (`error`; a receiver\'s rejection with its `reason_code`).', ['processing', 'delivered', 'failed'], 'delivered');

export const acceptedExample = {
  status: 'success',
  data: { document_id: DOCUMENT_ID, document_identifier: 'INV-1764651600', status: 'accepted', reporting: { status: 'queued' }, exchange: { status: 'processing' } },
};

/** A submission's 202. */
export const acceptedSchema = statusAnswer(
  success,
  {
    data: {
      type: 'object',
      properties: {
        document_id: uuidField('Our id of the document: read it with GET documents/{document_id}.', DOCUMENT_ID),
        document_identifier: text('Its number as sent.', 'INV-1764651600'),
        status: text('`accepted`: both validation phases passed; delivery and reporting follow.', 'accepted'),
        reporting,
        exchange,
      },
    },
  },
  acceptedExample,
);

/** `…/documents/validate`'s 200. */
export const validSchema = statusAnswer(
  success,
  {
    message: text('`Document is valid.`', 'Document is valid.'),
    data: { type: 'object', properties: { document_identifier: text('Its number, now taken.', 'INV-1764651603') } },
  },
  { message: 'Document is valid.', data: { document_identifier: 'INV-1764651603' } },
);

const recordData = {
  document_id: DOCUMENT_ID,
  document_identifier: 'INV-1764651600',
  direction: 'outgoing',
  document_type: '380',
  issue_date: '2026-07-01',
  status: 'completed',
  reporting: { status: 'reported', reported_at: '2026-07-01T10:00:03.120Z' },
  exchange: { status: 'delivered', mls: { code: 'AP', received_at: '2026-07-01T10:00:01.480Z' } },
  attachments: [{ index: 1, filename: 'timesheet.pdf', mime_code: 'application/pdf', size_bytes: 48213 }],
  created_at: '2026-07-01T10:00:00.950Z',
};

export const recordExample = { status: 'success', data: { ...recordData, document: uaeDocumentExample } };

const recordProperties: Record<string, SchemaObject> = {
  document_id: uuidField('Our id of the document.', DOCUMENT_ID),
  document_identifier: text('Its number.', 'INV-1764651600'),
  direction: text('outgoing: sent by the participant; incoming: received for it over Peppol.', 'outgoing', { enum: ['outgoing', 'incoming'] }),
  document_type: text('Its type code.', '380'),
  issue_date: date('Its issue date.', '2026-07-01'),
  status: text('Summary of both tracks: accepted (under way), completed (reported and delivered), attention (one failed).', 'completed', { enum: ['accepted', 'completed', 'attention'] }),
  reporting,
  exchange,
  attachments: {
    type: 'array',
    description: 'Its embedded attachments, described (read one with GET …/attachments/{index}).',
    items: { type: 'object', properties: { index: { type: 'integer' }, filename: { type: 'string' }, mime_code: { type: 'string' }, size_bytes: { type: 'integer' } } },
    example: recordData.attachments,
  },
  created_at: dateTimeField('When it was accepted (or received).', recordData.created_at),
};

/** `GET …/documents/{document_id}`'s 200. */
export const recordSchema = statusAnswer(
  success,
  {
    data: {
      type: 'object',
      properties: { ...recordProperties, document: { type: 'object', description: 'The document as accepted (attachments\' contents replaced by their description).', example: uaeDocumentExample } },
    },
  },
  recordExample,
);

/** `GET …/documents`' 200. */
export const recordListSchema = statusAnswer(
  success,
  {
    data: { type: 'array', description: 'Oldest first, without `document`.', items: { type: 'object', properties: recordProperties } },
    next_since_id: nullable({ type: 'string' }, { description: 'The `since_id` of the next page (the last document here; the one sent when caught up); null: none yet.', example: DOCUMENT_ID }),
  },
  { data: [recordData], next_since_id: DOCUMENT_ID },
);

export const eventsExample = {
  status: 'success',
  data: { direction: 'outgoing' },
  events: [{
    id: CURSOR,
    type: 'document.delivered',
    document_id: DOCUMENT_ID,
    document_identifier: 'INV-1764651600',
    direction: 'outgoing',
    status: 'accepted',
    reporting: { status: 'queued' },
    exchange: { status: 'delivered' },
    created_at: '2026-07-01T10:00:01.500Z',
  }],
  next_cursor: CURSOR,
};

const direction: SchemaObject = { type: 'object', properties: { direction: text('The feed: outgoing or incoming.', 'outgoing', { enum: ['outgoing', 'incoming'] }) } };

/** `GET …/events`' 200. */
export const eventsSchema = statusAnswer(
  success,
  {
    data: direction,
    events: {
      type: 'array',
      description: 'In the order they were written.',
      items: {
        type: 'object',
        properties: {
          id: text('The event id: a cursor of this feed (opaque).', CURSOR),
          type: text('What happened.', 'document.delivered', { enum: ['document.accepted', 'document.received', 'document.reported', 'document.delivered', 'document.failed'] }),
          document_id: { type: 'string', format: 'uuid', example: DOCUMENT_ID },
          document_identifier: nullable({ type: 'string' }, { example: 'INV-1764651600' }),
          direction: { type: 'string', enum: ['outgoing', 'incoming'] },
          status: { type: 'string', enum: ['accepted', 'completed', 'attention'] },
          reporting,
          exchange,
          created_at: { type: 'string', format: 'date-time' },
        },
      },
      example: eventsExample.events,
    },
    next_cursor: nullable({ type: 'string' }, { description: 'The `cursor` of the next page (the last event here; the one sent when caught up).', example: CURSOR }),
  },
  eventsExample,
);

/** `…/events/position`'s and `…/events/ack`'s 200. */
export const positionSchema = statusAnswer(
  success,
  {
    data: {
      type: 'object',
      properties: {
        ...direction.properties,
        acked: nullable({ type: 'string' }, { description: 'The last event acknowledged; null: never.', example: CURSOR }),
      },
    },
  },
  { data: { direction: 'outgoing', acked: CURSOR } },
);

/** `…/events/ack`'s body. */
export const acknowledgeSchema: SchemaObject = {
  type: 'object',
  required: ['direction', 'cursor'],
  properties: {
    direction: text('The feed: sent / outgoing or received / incoming.', 'outgoing', { enum: ['sent', 'outgoing', 'received', 'incoming'] }),
    cursor: text('The id of the last event processed.', CURSOR),
  },
};
