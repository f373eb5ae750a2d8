/**
 * How the OpenAPI document shows the Polish answers (#47), as the platform's onboarding and
 * libs/areas/src/ksef/definition.ts (`respond`, `present`) and the access-code sharing
 * (pipeline/document-shares.ts) build them, kept beside the controller so that it stays a list of routes.
 */
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { onboardedAnswer, successAnswer, uuidField } from '../../http/openapi-answers';

const SUPPLIER = '0f8e8b1c-6a57-4d57-9d5e-2f0f3c1d9a11';
const DOCUMENT = '01938a7e-5c2b-7d41-9f3e-6a1b2c3d4e5f';
const KSEF_NUMBER = '9473182653-20261125-0100001AF629-7D';
const QR_LINK = 'https://qr-test.ksef.mf.gov.pl/invoice/9473182653/25-11-2026/Xq3kq8lH0mY0Zr1aYb4Qv5lS2cJk7nWm1oPzR9tE6uA';

const documentId = uuidField('The gateway\'s id of the invoice: status/{document_id}, retrieve/{document_id} and access-code/send take it.', DOCUMENT);

/** `POST /pl/einvoice/onboard`'s 201. */
export const ksefOnboardedSchema = onboardedAnswer('Supplier onboarded.', {
  supplier_uuid: uuidField('The supplier\'s id: send it as the supplier_uuid header of its invoices.', SUPPLIER),
});

/** `POST generate/invoice`'s 202. */
export const ksefSubmittedSchema = successAnswer(
  {
    data: {
      type: 'object',
      required: ['DocumentID', 'Status'],
      properties: { DocumentID: documentId, Status: { type: 'string', enum: ['Submitted'], description: 'Taken: KSeF\'s verdict comes later (status/{document_id}).', example: 'Submitted' } },
    },
  },
  { data: { DocumentID: DOCUMENT, Status: 'Submitted' } },
);

/** What status and retrieve share: the verdict, KSeF's number or reason, and where a Peppol copy is. */
const verdictProperties: Record<string, SchemaObject> = {
  DocumentID: documentId,
  Status: { type: 'string', enum: ['Submitted', 'Accepted', 'Rejected'], description: '`Submitted` until KSeF\'s verdict, then `Accepted` (with KsefNumber) or `Rejected` (with Reason).', example: 'Accepted' },
  KsefNumber: { type: 'string', description: 'Accepted only: the number KSeF gave the invoice, {seller NIP}-{acceptance date}-{12 hex}-{CRC-8}.', example: KSEF_NUMBER },
  Reason: {
    type: 'object',
    description: 'Rejected only: KSeF\'s code and message (e.g. 450 semantics, 440 duplicate).',
    properties: { code: { type: 'string', example: '450' }, message: { type: 'string', example: 'Błąd weryfikacji semantyki dokumentu faktury' } },
  },
  Peppol: {
    type: 'object',
    description: 'transport_mode peppol only: where the Peppol BIS 3.0 copy to the buyer is.',
    properties: {
      DeliveryStatus: {
        type: 'string',
        enum: ['AwaitingKsef', 'Withheld', 'Scheduled', 'Delivered', 'Failed'],
        description: '`AwaitingKsef` until KSeF\'s verdict, `Withheld` when KSeF rejected (the copy never leaves), then `Scheduled`, `Delivered` or `Failed`.',
        example: 'Delivered',
      },
      DeliveryFailure: { type: 'object', description: 'Failed only: why.', properties: { code: { type: 'string', example: 'PEPPOL.RECEIVER_NOT_FOUND' }, message: { type: 'string' } } },
    },
  },
};

/** `GET status/{document_id}`'s 200. */
export const ksefStatusSchema = successAnswer(
  { data: { type: 'object', required: ['DocumentID', 'Status'], properties: verdictProperties } },
  { data: { DocumentID: DOCUMENT, Status: 'Accepted', KsefNumber: KSEF_NUMBER, Peppol: { DeliveryStatus: 'Delivered' } } },
);

/** `GET retrieve/{document_id}`'s and `shared/{code}`'s 200. */
export const ksefInvoiceSchema = successAnswer(
  {
    data: {
      type: 'object',
      required: ['DocumentID', 'ID', 'DocumentType', 'IssueDate', 'DocumentCurrencyCode', 'TotalIncludingVat', 'CustomerParty', 'Status'],
      properties: {
        ...verdictProperties,
        ID: { type: 'string', description: 'The invoice number (FA(3) P_2).', example: 'FV/1764662400' },
        DocumentType: { type: 'string', enum: ['Invoice', 'CorrectionInvoice'], example: 'Invoice' },
        IssueDate: { type: 'string', format: 'date', description: 'FA(3) P_1.', example: '2026-11-25' },
        DocumentCurrencyCode: { type: 'string', description: 'FA(3) KodWaluty (PLN when the invoice named none).', example: 'PLN' },
        TotalIncludingVat: { type: 'number', description: 'FA(3) P_15.', example: 246 },
        CustomerParty: {
          type: 'object',
          description: 'The buyer as sent (FA(3) Podmiot2): its name and address.',
          properties: {
            RegisteredName: { type: 'string', example: 'Nabywca S.A.' },
            address: { type: 'object', properties: { Street: { type: 'string' }, ZipCode: { type: 'string' }, City: { type: 'string' }, Country: { type: 'string' } } },
          },
        },
        QrLink: {
          type: 'string',
          format: 'uri',
          description: 'KSeF\'s verification link (KOD I): /invoice/{seller NIP}/{issue date DD-MM-YYYY}/{SHA-256 of the FA(3) XML, Base64URL}, on qr-test.ksef.mf.gov.pl in the sandbox.',
          example: QR_LINK,
        },
      },
    },
  },
  {
    data: {
      DocumentID: DOCUMENT, ID: 'FV/1764662400', DocumentType: 'Invoice', IssueDate: '2026-11-25', DocumentCurrencyCode: 'PLN', TotalIncludingVat: 246,
      CustomerParty: { RegisteredName: 'Nabywca S.A.', address: { Street: 'ul. Krzywa 2', ZipCode: '30-001', City: 'Kraków', Country: 'PL' } },
      Status: 'Accepted', KsefNumber: KSEF_NUMBER, Peppol: { DeliveryStatus: 'Delivered' }, QrLink: QR_LINK,
    },
  },
);

/** `POST access-code/send`'s 200. */
export const accessCodeSentSchema = successAnswer(
  { message: { type: 'string', description: 'To whom the code went and when it expires.' } },
  { message: `The access code to document ${DOCUMENT} was sent to ksiegowosc@nabywca.example; it expires at 2026-11-28T10:15:02.000Z.` },
);
