/**
 * How the OpenAPI document shows the Jordanian routes' answers (#47), as the area builds them
 * (libs/areas/src/jofotara/codec.ts `respond`, definition.ts `present`): the README's first document,
 * cleared by the sandbox.
 */
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { nullable, onboardedAnswer, successAnswer, uuidField } from '../../http/openapi-answers';
import { participantIdField, participantIdHeader } from '../reporting-openapi';

const participantId = '5b0d2a3c-8f3e-4a57-9a51-1c1f2b8e7d10';
const uuid = '019ad0c4-5e21-7c3a-9b8e-2f41d6a0c7e5';
const qrCode =
  'ARNBbW1hbiBTdGF0aW9uZXJ5IENvAggyMDgxNzM2NAMKMjAyNi0xMS0yNQQGMTEuNjAwBQUxLjYwMAYkMDE5YWQwYzQtNWUyMS03YzNhLTliOGUtMmY0MWQ2YTBjN2U1Byw3YVBPaFVpZkdYYkNORVZFUGxFNHM4SDlyOWtjejEvMEJlbE9CeHRsblVZPQ==';

export const jofotaraParticipantHeader = participantIdHeader(participantId);

export const jofotaraUuidParam = {
  name: 'uuid',
  description: 'The invoice\'s or credit note\'s `uuid` as generate answered it (its `cbc:UUID`, JoFotara\'s `EINV_INV_UUID`).',
  example: uuid,
};

/** `POST /jo/supplier/onboard`'s 201. */
export const jofotaraOnboardedSchema = onboardedAnswer('Supplier onboarded.', {
  supplier_name: { type: 'string', description: 'Its registered name as stored.', example: 'Amman Stationery Co' },
  participant_id: participantIdField(participantId),
});

/** `generate`'s and `generate/credit-note`'s 200: JoFotara cleared it. */
export const jofotaraClearedSchema = successAnswer(
  {
    message: {
      type: 'object',
      required: ['uuid', 'qr_code'],
      properties: {
        uuid: uuidField('The document\'s `cbc:UUID` (JoFotara\'s `EINV_INV_UUID`): the id the read routes take.', uuid),
        qr_code: nullable({ type: 'string' }, { description: 'JoFotara\'s QR (`EINV_QR`), base64 text to print on the invoice as a QR code.', example: qrCode }),
      },
    },
  },
  { message: { uuid, qr_code: qrCode } },
);

const totals: SchemaObject = {
  type: 'object',
  description: 'Its totals in JOD, 3 decimals (`LegalMonetaryTotal`, `TaxTotal`).',
  properties: {
    tax_exclusive_amount: { type: 'string', description: 'Σ price × quantity, before discounts (`TaxExclusiveAmount`).', example: '10.000' },
    discount_total: { type: 'string', description: 'Σ the lines\' discounts (`AllowanceTotalAmount`).', example: '0.000' },
    tax_total: { type: 'string', description: 'The tax, special tax included (`TaxTotal/TaxAmount`).', example: '1.600' },
    tax_inclusive_amount: { type: 'string', description: '`TaxInclusiveAmount`.', example: '11.600' },
    payable_amount: { type: 'string', description: '`PayableAmount`.', example: '11.600' },
  },
};

const invoiceExample = {
  uuid,
  kind: 'invoice',
  invoice_ref_number: 'INV-1764547200',
  payment_method: 'cash',
  buyer_details: { buyer_name: 'Irbid Buyer', buyer_tin: '87654321', city_code: 'JO-IR' },
  lineitems: [{ description: 'Pen', quantity: 4, tax_exclusive_price: 2.5, tax_percentage: 0.16, tax_category: 'Standard' }],
  issue_date: '2026-11-25',
  issue_time: '10:30:00',
  icv: 1,
  totals: { tax_exclusive_amount: '10.000', discount_total: '0.000', tax_total: '1.600', tax_inclusive_amount: '11.600', payable_amount: '11.600' },
  jofotara_status: 'SUBMITTED',
  jofotara_number: 'EIN00001',
  qr_code: qrCode,
};

/** `GET /jo/einvoice/invoices/{uuid}`'s 200. */
export const jofotaraDocumentSchema = successAnswer(
  {
    data: {
      type: 'object',
      description: 'The document as sent (an invoice\'s or a credit note\'s fields), with what the service and JoFotara added.',
      properties: {
        uuid: { type: 'string', format: 'uuid', example: uuid },
        kind: { type: 'string', enum: ['invoice', 'credit_note'], example: 'invoice' },
        invoice_ref_number: { type: 'string', description: 'An invoice\'s number.', example: 'INV-1764547200' },
        payment_method: { type: 'string', enum: ['cash', 'receivable'], description: 'An invoice\'s.', example: 'cash' },
        buyer_details: { type: 'object', additionalProperties: true, description: 'An invoice\'s buyer, as sent.', example: invoiceExample.buyer_details },
        lineitems: { type: 'array', items: { type: 'object', additionalProperties: true }, description: 'An invoice\'s lines, as sent.', example: invoiceExample.lineitems },
        credit_note_ref_number: { type: 'string', description: 'A credit note\'s number.', example: 'CN-1764547200' },
        original_uuid: { type: 'string', description: 'A credit note\'s invoice.', example: uuid },
        reason: { type: 'string', description: 'A credit note\'s reason.', example: 'One pen returned damaged.' },
        returned_lines: { type: 'array', items: { type: 'object', additionalProperties: true }, description: 'A credit note\'s returned lines, as sent.', example: [{ line: 1, quantity: 1 }] },
        issue_date: { type: 'string', example: '2026-11-25' },
        issue_time: { type: 'string', description: 'Written `HH:MM:SS`, as in the XML.', example: '10:30:00' },
        icv: { type: 'integer', description: 'The invoice counter of the supplier\'s device (1, 2, 3…): the `ICV` AdditionalDocumentReference.', example: 1 },
        totals,
        jofotara_status: {
          type: 'string',
          enum: ['PENDING', 'SUBMITTED', 'ALREADY_SUBMITTED', 'NOT_SUBMITTED'],
          description: 'PENDING: not answered yet; SUBMITTED (ALREADY_SUBMITTED for a resend JoFotara recognised): cleared; NOT_SUBMITTED: refused, see `errors`.',
          example: 'SUBMITTED',
        },
        jofotara_number: { type: 'string', description: 'JoFotara\'s number for it (`EINV_NUM`), once cleared.', example: 'EIN00001' },
        qr_code: { type: 'string', description: 'JoFotara\'s QR (`EINV_QR`), once cleared.', example: qrCode },
        errors: {
          type: 'array',
          description: 'Why JoFotara refused it: its `EINV_CODE` and message each.',
          items: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } },
          example: [{ code: 'taxRate', message: 'Line 1: 15 is not a general-sales tax rate (1, 2, 3, 4, 5, 7, 8, 10, 16).' }],
        },
      },
    },
  },
  { data: invoiceExample },
);
