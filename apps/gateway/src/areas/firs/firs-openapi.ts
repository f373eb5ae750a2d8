/**
 * How the OpenAPI document shows the Nigerian routes' answers (#47), as the area builds them
 * (libs/areas/src/firs/codec.ts `respond`, definition.ts `record` and `present`): the README's first
 * document, signed by the sandbox.
 */
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { dateTimeField, nullable, onboardedAnswer, statusAnswer, statusField, successAnswer, uuidField } from '../../http/openapi-answers';
import { participantIdField, participantIdHeader } from '../reporting-openapi';

const participantId = '7c2e4f10-9a3b-4d5e-8f61-2b3c4d5e6f70';
const documentId = '019ad0d2-3b4c-7e5f-8a61-4c2d9e0f1a2b';
export const FIRS_IRN_EXAMPLE = 'INV1764547200-6997D6BB-20261125';
const qrCode =
  'vzKfBIry1nsBMYPl6J0FLqttuKexcMbjILQ1RlqFzpNhnCvCYCPVyfpUnVcmOLWvZNa6rPWhCV2VTGpad+2TMs8ZVmZHNl503CmZXDjprM02kG6pmhbMPzCzcw11/EQlIb8m92Cw3tMpvfx5dBqnfw9Yc4EVTuBWH9lbFIQMTcMfnu+cjuz2ZxfFN9p8DFZb4PeowNZxYZJmk/gX6eL6hChq6ANdKh5wFeo6vQuBZF6BOqGUlrfyycso/wmntEwbTQTLAv8lDZc14kfVFmUIDxhU57joinYbam2ItS++KGDdmRV+Uu6mqnDXYq1T4MvQmhpBpMhZAijJHyYsjj65aQ==';

export const firsParticipantHeader = participantIdHeader(participantId);

export const firsIrnParam = {
  name: 'irn',
  description: 'The invoice\'s IRN as generate answered it (`<document_identifier without non-alphanumerics>-<service id>-<YYYYMMDD>`), or its `id`.',
  example: FIRS_IRN_EXAMPLE,
};

/** `POST /api/auth/taxpayer/login`'s 201. */
export const firsOnboardedSchema = onboardedAnswer('Taxpayer logged in to FIRS and onboarded.', {
  supplier_name: { type: 'string', description: 'Its `party_name` (else its TIN).', example: 'Lagos Trading Ltd' },
  participant_id: participantIdField(participantId),
});

const signedResponse = { code: 201, data: { ok: true } };
const party = (name: string, tin: string, email: string, address: Record<string, string>, more: Record<string, string> = {}) => ({
  party_name: name, tin, email, ...more, postal_address: address,
});

const invoiceExample = {
  id: documentId,
  irn: FIRS_IRN_EXAMPLE,
  businessId: 'b6a1c9d2-3e4f-4a5b-8c7d-9e0f1a2b3c4d',
  invoiceReference: 'INV-1764547200',
  issueDate: '2026-11-25',
  dueDate: '2026-12-25',
  issueTime: '17:59:04',
  invoiceTypeCode: '380',
  paymentStatus: 'PENDING',
  note: null,
  taxPointDate: null,
  documentCurrencyCode: 'NGN',
  taxCurrencyCode: 'NGN',
  accountingCost: null,
  buyerReference: null,
  orderReference: null,
  actualDeliveryDate: null,
  paymentTermsNote: null,
  accountingSupplierParty: party('Lagos Trading Ltd', '64721593-0001', 'billing@lagostrading.example',
    { street_name: '12 Marina', city_name: 'Lagos', postal_zone: '101001', country: 'NG' },
    { telephone: '+2348012345678', business_description: 'Wholesale of electronics' }),
  accountingCustomerParty: party('Abuja Buyer Ltd', '87654321-0001', 'ap@abujabuyer.example', { street_name: '1 Garki', city_name: 'Abuja', postal_zone: '900001', country: 'NG' }),
  lineExtensionAmount: '300.00',
  taxExclusiveAmount: '300.00',
  taxInclusiveAmount: '322.50',
  payableAmount: '322.50',
  status: 'SIGNED',
  authorityResponse: signedResponse,
  createdAt: '2026-11-25T16:59:04.120Z',
  updatedAt: '2026-11-25T16:59:04.870Z',
  invoiceLines: [{
    id: `${documentId}-1`, invoiceId: documentId, hsnCode: 'CC-001', productCategory: 'Electronics',
    discountRate: '0.00', discountAmount: '0.00', feeRate: '0.00', feeAmount: '0.00', invoicedQuantity: '3', lineExtensionAmount: '300.00',
    item: { name: 'Router', description: 'Wi-Fi router' }, price: { price_amount: 100, base_quantity: 1, price_unit: 'NGN per 1' },
  }],
};

const nullableText = (description: string, example: string | null) => nullable({ type: 'string' }, { description, example });
const amount = (description: string, example: string): SchemaObject => ({ type: 'string', description: `${description}, 2 decimals.`, example });

/** The stored invoice (the seed's record, camelCase, money as strings). */
const invoiceSchema: SchemaObject = {
  type: 'object',
  description: 'The invoice as stored: every field the seed lists, `null` where the service has no value for it.',
  properties: {
    id: uuidField('Its id in this service (the read route takes it as well as the IRN).', documentId),
    irn: { type: 'string', description: 'Its IRN, validated and signed by FIRS.', example: FIRS_IRN_EXAMPLE },
    businessId: { type: 'string', description: 'The supplier\'s FIRS business id, from its login.', example: invoiceExample.businessId },
    invoiceReference: { type: 'string', description: 'Its `document_identifier`.', example: 'INV-1764547200' },
    issueDate: { type: 'string', example: '2026-11-25' },
    dueDate: nullableText('Its `due_date`.', '2026-12-25'),
    issueTime: { type: 'string', description: '`HH:MM:SS`.', example: '17:59:04' },
    invoiceTypeCode: { type: 'string', example: '380' },
    paymentStatus: { type: 'string', enum: ['PENDING', 'PAID', 'CANCELED'], description: 'As sent, then as the payment-status route changed it at FIRS.', example: 'PENDING' },
    paymentReference: { type: 'string', description: 'The payment\'s reference, once the payment-status route gave one.', example: 'TRF-20261210-0042' },
    note: nullableText('Its `note`.', null),
    taxPointDate: nullableText('Not kept (always null).', null),
    documentCurrencyCode: { type: 'string', example: 'NGN' },
    taxCurrencyCode: { type: 'string', example: 'NGN' },
    accountingCost: nullableText('Not kept (always null).', null),
    buyerReference: nullableText('Its `buyer_reference`.', null),
    orderReference: nullableText('Not kept (always null).', null),
    actualDeliveryDate: nullableText('The end of its `invoice_delivery_period`.', null),
    paymentTermsNote: nullableText('Not kept (always null).', null),
    accountingSupplierParty: { type: 'object', additionalProperties: true, description: 'The supplier as sent to FIRS, from its onboarding.', example: invoiceExample.accountingSupplierParty },
    accountingCustomerParty: { type: 'object', additionalProperties: true, description: 'The buyer as sent.', example: invoiceExample.accountingCustomerParty },
    lineExtensionAmount: amount('Σ the lines', '300.00'),
    taxExclusiveAmount: amount('The lines − allowances + charges', '300.00'),
    taxInclusiveAmount: amount('Tax exclusive + taxes', '322.50'),
    payableAmount: amount('What the buyer pays', '322.50'),
    status: { type: 'string', enum: ['PENDING_SIGNATURE', 'SIGNED', 'REJECTED'], description: 'SIGNED once FIRS signed it; REJECTED when FIRS refused it (`authorityResponse` says why).', example: 'SIGNED' },
    authorityResponse: nullable({ type: 'object', additionalProperties: true }, { description: 'FIRS\'s answer to the signing (`{code: 201, data: {ok: true}}`), or its refusal `{code, message}`.', example: signedResponse }),
    createdAt: { type: 'string', format: 'date-time', example: invoiceExample.createdAt },
    updatedAt: { type: 'string', format: 'date-time', example: invoiceExample.updatedAt },
    invoiceLines: {
      type: 'array',
      description: 'Its lines: codes and amounts (strings, 2 decimals), the item and price as sent.',
      items: { type: 'object', additionalProperties: true },
      example: invoiceExample.invoiceLines,
    },
  },
};

/** `POST /api/invoice/generate`'s 200: the seed's full response, once FIRS signed. */
export const firsSignedSchema = statusAnswer(
  statusField('submitted'),
  {
    data: {
      type: 'object',
      required: ['irn', 'authority_response', 'qr_code', 'steps_completed', 'message', 'invoice', 'timestamp'],
      properties: {
        irn: { type: 'string', description: 'The IRN FIRS validated and signed.', example: FIRS_IRN_EXAMPLE },
        authority_response: { type: 'object', additionalProperties: true, description: 'FIRS\'s answer to `invoice/sign`.', example: signedResponse },
        qr_code: { type: 'string', description: 'The QR content: `{"irn": "<IRN>.<unix time>", "certificate": …}` encrypted with FIRS\'s public key (RSA PKCS#1 v1.5), base64.', example: qrCode },
        steps_completed: { type: 'array', items: { type: 'string', enum: ['irn_validation', 'invoice_validation', 'invoice_signing', 'database_storage'] }, example: ['irn_validation', 'invoice_validation', 'invoice_signing', 'database_storage'] },
        message: { type: 'string', example: 'Invoice IRN validated, invoice validated, signed by FIRS and stored.' },
        invoice: invoiceSchema,
        timestamp: dateTimeField('When this answer was made.', '2026-11-25T16:59:04.912Z'),
      },
    },
  },
  {
    data: {
      irn: FIRS_IRN_EXAMPLE, authority_response: signedResponse, qr_code: qrCode, steps_completed: ['irn_validation', 'invoice_validation', 'invoice_signing', 'database_storage'],
      message: 'Invoice IRN validated, invoice validated, signed by FIRS and stored.', invoice: invoiceExample, timestamp: '2026-11-25T16:59:04.912Z',
    },
  },
);

/** `GET /api/invoice/{irn}`'s and the payment-status route's 200: the stored invoice and its QR. */
export const firsInvoiceSchema = successAnswer(
  {
    data: {
      ...invoiceSchema,
      properties: { ...invoiceSchema.properties, qrCode: { type: 'string', description: 'Its QR content, once signed (as generate\'s `qr_code`).', example: qrCode } },
    },
  },
  { data: { ...invoiceExample, qrCode } },
);
