/**
 * How the OpenAPI document shows the Malaysian routes' answers (#47): their schemas with examples of
 * what the code answers (libs/areas/src/myinvois answers.ts, present.ts; supplier-participant.ts),
 * kept beside the controllers so that they stay lists of routes.
 */
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { dateTimeField, nullable, statusAnswer, uuidField } from '../../http/openapi-answers';

const DOCUMENT_ID = '0193a4f2-7c1e-7d4b-9a55-2f8a1f0c1c11';
const UUID = 'F9D425P6DS7D8IU4A8R5EY2K10';
const SUBMISSION_UID = 'HJSD135P2S7D8IU4A8R5EY2K10';
const NUMBER = 'INV-1764651600';

const text = (description: string, example: unknown): SchemaObject => ({ type: 'string', description, example });

/** MyInvois's error in its own shape (SDK "Standard error response"), `details` its nested errors. */
const myInvoisError: SchemaObject = {
  type: 'object',
  description: 'MyInvois\'s error in its own shape.',
  properties: {
    code: text('MyInvois\'s (or this service\'s) error code.', 'CF321'),
    message: text('What is wrong.', 'Issuance date time value of the document is too old that cannot be submitted.'),
    target: nullable({ type: 'string' }, { description: 'The document, or the field, it is about.', example: NUMBER }),
    propertyPath: nullable({ type: 'string' }, { description: 'Where in the document.', example: 'Invoice.IssueDate' }),
    details: nullable({ type: 'array', items: { type: 'object' } }, { description: 'Nested errors, same shape.', example: null }),
  },
  example: { code: 'CF321', message: 'Issuance date time value of the document is too old that cannot be submitted.', target: NUMBER, propertyPath: 'Invoice.IssueDate', details: null },
};

const success = (description: string): SchemaObject => ({ type: 'string', description, example: 'success' });

/** `POST /api/einvoice/onboard`'s 201. */
export const onboardedSchema = statusAnswer(
  success('`success`.'),
  {
    message: text('`Supplier onboarded.`, or says that its TIN\'s Peppol participant was registered here already (for another supplier) and was not registered again.', 'Supplier onboarded.'),
    data: {
      type: 'object',
      properties: { supplier_uuid: uuidField('The supplier\'s id: the `supplier_uuid` header of its other routes.', '0f8e8b1c-6a57-4d57-9d5e-2f0f3c1d9a11') },
    },
  },
  { message: 'Supplier onboarded.', data: { supplier_uuid: '0f8e8b1c-6a57-4d57-9d5e-2f0f3c1d9a11' } },
);

/** `POST /api/einvoice/validate-tin`'s 200. */
export const tinValidSchema = statusAnswer(
  success('`success`: MyInvois knows the TIN with this id (otherwise 404 MYINVOIS.TIN_NOT_FOUND).'),
  { message: text('What was checked.', 'TIN C20880050010 is valid for BRN 199901012345.') },
  { message: 'TIN C20880050010 is valid for BRN 199901012345.' },
);

const documentRef: SchemaObject = { type: 'object', properties: { uuid: text('MyInvois\'s uuid of the document.', UUID), invoiceCodeNumber: text('Its `ID`.', NUMBER) } };

/** The submission answer of the four submit routes: 200 once MyInvois answered for every document, else 202. */
export const submissionSchema = statusAnswer(
  text('`submitted`.', 'submitted'),
  {
    data: {
      type: 'object',
      properties: {
        submissionId: uuidField('This service\'s id of the submission (one request).', '6c1f0d2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f'),
        submissionResponse: {
          type: 'object',
          description: 'MyInvois\'s "Submit Documents" answer (seed 000), plus the documents it has not answered for yet.',
          properties: {
            submissionUid: nullable({ type: 'string' }, { description: 'MyInvois\'s submission uid; null while it has not answered.', example: SUBMISSION_UID }),
            acceptedDocuments: { type: 'array', items: documentRef, description: 'Taken by MyInvois, which now validates them: read their state with GET documents/{id}.', example: [{ uuid: UUID, invoiceCodeNumber: NUMBER }] },
            rejectedDocuments: {
              type: 'array',
              description: 'Refused, by this service\'s checks or by MyInvois, each with its error.',
              items: { type: 'object', properties: { invoiceCodeNumber: text('Its `ID`.', 'INV-1764651601'), error: nullable(myInvoisError) } },
              example: [],
            },
            pendingDocuments: {
              type: 'array',
              description: 'Not answered for by MyInvois within MYINVOIS_WAIT_MS (a 202): the reporting worker goes on; poll `href`.',
              items: { type: 'object', properties: { documentId: text('Our id of the document.', DOCUMENT_ID), invoiceCodeNumber: text('Its `ID`.', NUMBER), href: text('Where it is read.', `/api/einvoice/documents/${DOCUMENT_ID}`) } },
              example: [],
            },
          },
        },
      },
    },
  },
  {
    data: { submissionId: '6c1f0d2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f', submissionResponse: { submissionUid: SUBMISSION_UID, acceptedDocuments: [{ uuid: UUID, invoiceCodeNumber: NUMBER }], rejectedDocuments: [], pendingDocuments: [] } },
  },
);

/** The 202 of a submission MyInvois has not answered yet. */
export const submissionPendingExample = {
  status: 'submitted',
  data: {
    submissionId: '6c1f0d2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f',
    submissionResponse: { submissionUid: null, acceptedDocuments: [], rejectedDocuments: [], pendingDocuments: [{ documentId: DOCUMENT_ID, invoiceCodeNumber: NUMBER, href: `/api/einvoice/documents/${DOCUMENT_ID}` }] },
  },
};

const documentView = {
  documentId: DOCUMENT_ID,
  invoiceCodeNumber: NUMBER,
  kind: 'invoice',
  state: 'valid',
  uuid: UUID,
  longId: 'LIJAF97HJJKH8298KHADH09908570FDKK9S2LSIUHB377373',
  submissionUid: SUBMISSION_UID,
  error: null,
  validatedAt: '2026-03-15T10:30:04.000Z',
  rejectedByBuyer: null,
  peppol: { documentId: DOCUMENT_ID, deliveryStatus: 'Delivered', reason: null },
  createdAt: '2026-03-15T10:30:01.120Z',
  updatedAt: '2026-03-15T10:30:06.480Z',
};

const at = (description: string, example: string | null): SchemaObject => nullable({ type: 'string', format: 'date-time' }, { description, example });

/** `GET /api/einvoice/documents/{id}`'s 200, and a cancellation's 200 / 202 (`status: pending`, with `href`). */
export const documentSchema = statusAnswer(
  { type: 'string', enum: ['success', 'pending'], description: '`pending`: a cancellation MyInvois has not answered yet (202); poll `data.href`.', example: 'success' },
  {
    data: {
      type: 'object',
      properties: {
        documentId: text('Our id of the document.', DOCUMENT_ID),
        invoiceCodeNumber: text('Its `ID`.', NUMBER),
        kind: { type: 'string', enum: ['invoice', 'consolidated', 'self-billed'], description: 'Which route submitted it.', example: 'invoice' },
        state: {
          type: 'string',
          enum: ['pending', 'submitted', 'rejected', 'valid', 'invalid', 'cancelling', 'cancelled', 'rejected_by_buyer'],
          description: 'pending: not yet submitted; submitted: MyInvois validates it; rejected: refused at submission; valid / invalid: MyInvois\'s verdict; cancelling / cancelled; rejected_by_buyer: still valid, its buyer asked to reject it.',
          example: 'valid',
        },
        uuid: nullable({ type: 'string' }, { description: 'MyInvois\'s uuid of it, once submitted.', example: UUID }),
        longId: nullable({ type: 'string' }, { description: 'MyInvois\'s longId once valid: with the uuid, its validation link (QR code).', example: documentView.longId }),
        submissionUid: nullable({ type: 'string' }, { description: 'MyInvois\'s submission uid.', example: SUBMISSION_UID }),
        error: nullable(myInvoisError, { description: 'MyInvois\'s refusal or verdict (a refused cancellation\'s error first), else null.', example: null }),
        validatedAt: at('When MyInvois found it valid.', '2026-03-15T10:30:04.000Z'),
        rejectedByBuyer: nullable({ type: 'object', properties: { reason: { type: 'string' }, requestedAt: { type: 'string', format: 'date-time' } } }, {
          description: 'Its buyer\'s request to reject it: cancel it within 72 h of validation, or leave it valid.',
          example: null,
        }),
        peppol: nullable({ type: 'object', properties: { documentId: { type: 'string' }, deliveryStatus: { type: 'string', enum: ['awaiting_validation', 'Scheduled', 'Delivered', 'Failed', 'withheld'] }, reason: nullable(myInvoisError) } }, {
          description: 'Its PINT MY copy (transport_mode: peppol): awaiting_validation until MyInvois says valid, then its delivery; withheld, with `reason`, when it never leaves. Null without a copy.',
          example: documentView.peppol,
        }),
        createdAt: dateTimeField('When it was submitted here.', documentView.createdAt),
        updatedAt: dateTimeField('When its state last changed.', documentView.updatedAt),
        href: text('With `status: pending` only: where to poll.', `/api/einvoice/documents/${DOCUMENT_ID}`),
      },
    },
  },
  { data: documentView },
);

/** A cancellation MyInvois has not answered yet. */
export const cancellingExample = { status: 'pending', data: { ...documentView, state: 'cancelling', href: `/api/einvoice/documents/${DOCUMENT_ID}` } };
/** A cancellation MyInvois recorded. */
export const cancelledExample = { status: 'success', data: { ...documentView, state: 'cancelled', peppol: { ...documentView.peppol }, updatedAt: '2026-03-15T12:00:02.000Z' } };

const rejection = { uuid: '3RGMW1VH2TKP5S2GDE9F0H8J10', state: 'rejected', reason: 'Goods not ordered: no purchase order matches this invoice', requestedAt: '2026-03-15T12:00:00.000Z', answeredAt: '2026-03-15T12:00:01.500Z', error: null };

/** `POST /api/einvoice/received/{uuid}/reject`'s 200 / 202 and `GET …/rejection`'s 200. */
export const rejectionSchema = statusAnswer(
  { type: 'string', enum: ['success', 'pending'], description: '`pending` (202): MyInvois has not answered yet; poll `data.href`.', example: 'success' },
  {
    data: {
      type: 'object',
      properties: {
        uuid: text('MyInvois\'s uuid of the received document.', rejection.uuid),
        state: { type: 'string', enum: ['requested', 'rejected', 'refused'], description: 'requested: sent to MyInvois; rejected: MyInvois recorded it (the issuer may now cancel); refused: MyInvois refused it (`error`).', example: 'rejected' },
        reason: text('The reason given.', rejection.reason),
        requestedAt: dateTimeField('When it was asked.', rejection.requestedAt),
        answeredAt: at('When MyInvois answered.', rejection.answeredAt),
        error: nullable(myInvoisError, { description: 'MyInvois\'s refusal (state refused), else null.', example: null }),
        href: text('With `status: pending` only: where to poll.', `/api/einvoice/received/${rejection.uuid}/rejection`),
      },
    },
  },
  { data: rejection },
);

/** A rejection MyInvois has not answered yet. */
export const rejectionPendingExample = {
  status: 'pending',
  data: { uuid: rejection.uuid, state: 'requested', reason: rejection.reason, requestedAt: rejection.requestedAt, href: `/api/einvoice/received/${rejection.uuid}/rejection` },
};

/** A file answer as sent, with its SHA-256 (`Repr-Digest`, `X-Document-Hash`). */
export const digestHeaders = {
  'Repr-Digest': { description: 'RFC 9530: `sha-256=:<base64 of the SHA-256 of the body>:`', schema: { type: 'string', example: 'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:' } },
  'X-Document-Hash': { description: 'The same SHA-256 in lower-case hex (the MyInvois `documentHash` form)', schema: { type: 'string', example: '5f8f04f6a3a892aaabbddb6cf273894493773960d4a325b105fee46eef4304f1' } },
};


/** The `supplier_uuid` header. */
export const supplierHeaderDescription = 'The supplier\'s id its onboarding answered (`data.supplier_uuid`); another account\'s or an unknown one: 404.';
