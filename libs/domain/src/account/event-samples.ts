/**
 * A realistic event of each catalogue type (#48): the examples of the OpenAPI and AsyncAPI documents and
 * the body of `POST /v1/webhooks/{id}/test`. Each is what `accountEventOf` makes of a stored row as the
 * trigger records it after that step of a document of a real area (a Belgian invoice delivered over Peppol,
 * a German one refused by its receiver, a Polish one accepted by KSeF, a Jordanian one refused by
 * JoFotara...), so a sample cannot say anything the real events would not.
 */
import { type AccountEvent, type AccountEventRow, type AccountEventType, accountEventOf } from './events';

const AT = '2026-11-25T10:30:02.000Z';

/** The rows, as `account_events` stores them right after the step the type names. */
const SAMPLE_ROWS: Readonly<Record<AccountEventType, AccountEventRow>> = {
  'document.accepted': {
    id: '3f1b6a2e-8c4d-4e5f-9a6b-7c8d9e0f1a2b',
    type: 'document.accepted',
    tenant_id: '00000000-0000-4000-8000-000000000001',
    area: 'be',
    supplier_id: '5b0d2a3c-8f3e-4a57-9a51-1c1f2b8e7d10',
    document_id: '0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a',
    document_number: 'INV-2026-0042',
    direction: 'outgoing',
    report_state: null,
    delivery_status: 'Scheduled',
    peppol_copy: null,
    receipt: null,
    authority: null,
    delivery: null,
    created_at: '2026-11-25T10:30:00.000Z',
  },
  'document.delivered': {
    id: '8e2c4a6b-1d3f-4b5a-8c7d-9e0f1a2b3c4d',
    type: 'document.delivered',
    tenant_id: '00000000-0000-4000-8000-000000000001',
    area: 'be',
    supplier_id: '5b0d2a3c-8f3e-4a57-9a51-1c1f2b8e7d10',
    document_id: '0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a',
    document_number: 'INV-2026-0042',
    direction: 'outgoing',
    report_state: null,
    delivery_status: 'Delivered',
    peppol_copy: null,
    receipt: null,
    authority: null,
    delivery: {
      channel: 'remote',
      messageId: 'b5c1e2d3-4f5a-4b6c-8d7e-9f0a1b2c3d4e@einvoice',
      mls: { responseCode: 'AP', receivedAt: AT },
      receiverParticipantId: '0208:0843766574',
      receivedDocumentId: null,
    },
    created_at: AT,
  },
  'document.delivery_failed': {
    id: 'c4d5e6f7-0a1b-4c2d-8e3f-4a5b6c7d8e9f',
    type: 'document.delivery_failed',
    tenant_id: '00000000-0000-4000-8000-000000000001',
    area: 'de',
    supplier_id: '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
    document_id: 'd1e2f3a4-b5c6-4d7e-8f9a-0b1c2d3e4f5a',
    document_number: 'RE-2026-1187',
    direction: 'outgoing',
    report_state: null,
    delivery_status: 'Failed',
    peppol_copy: null,
    receipt: null,
    authority: null,
    delivery: {
      failure: { code: 'PEPPOL.REJECTED_BY_RECEIVER', message: 'BR-DE-15: The element "Buyer reference" (BT-10) must be provided.' },
      mls: { responseCode: 'RE', receivedAt: AT, reasonCode: 'BV', description: 'BR-DE-15: The element "Buyer reference" (BT-10) must be provided.' },
      attempts: null,
      receiverParticipantId: '0204:991-01234-56',
    },
    created_at: AT,
  },
  'document.reported': {
    id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
    type: 'document.reported',
    tenant_id: '00000000-0000-4000-8000-000000000001',
    area: 'pl',
    supplier_id: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
    document_id: '7a1d9e40-2b6c-4f3a-8e5d-3c2b1a0f9e8d',
    document_number: 'FV/2026/11/7',
    direction: 'outgoing',
    report_state: 'reported',
    delivery_status: null,
    peppol_copy: false,
    receipt: null,
    authority: {
      validatedAt: AT,
      receipt: { referenceNumber: '20261125-EE-2B3C4D5E6F-7A8B9C0D1E-2F', ksefNumber: '5260250274-20261125-0100A0B0C0D0-E1' },
    },
    delivery: null,
    created_at: AT,
  },
  'document.report_failed': {
    id: '9b0c1d2e-3f4a-4b5c-8d6e-7f8a9b0c1d2e',
    type: 'document.report_failed',
    tenant_id: '00000000-0000-4000-8000-000000000001',
    area: 'jo',
    supplier_id: '4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a',
    document_id: 'e5f6a7b8-c9d0-4e1f-8a2b-3c4d5e6f7a8b',
    document_number: 'JO-2026-0311',
    direction: 'outgoing',
    report_state: 'rejected',
    delivery_status: null,
    peppol_copy: false,
    receipt: null,
    authority: {
      answeredAt: AT,
      error: {
        code: 'JOFOTARA.REJECTED',
        message: 'JoFotara refused the invoice.',
        details: [
          { code: 'E0023', message: 'The seller tax number is not registered.', path: 'AccountingSupplierParty.PartyTaxScheme.CompanyID' },
          { code: 'E0105', message: 'The invoice total does not equal the sum of its lines.', path: 'LegalMonetaryTotal.PayableAmount' },
        ],
      },
    },
    delivery: null,
    created_at: AT,
  },
  'document.cancelled': {
    id: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b',
    type: 'document.cancelled',
    tenant_id: '00000000-0000-4000-8000-000000000001',
    area: 'my',
    supplier_id: '6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c',
    document_id: 'a9b8c7d6-e5f4-4a3b-9c2d-1e0f9a8b7c6d',
    document_number: 'MY-INV-2026-0088',
    direction: 'outgoing',
    report_state: 'cancelled',
    delivery_status: null,
    peppol_copy: false,
    receipt: null,
    authority: {
      validatedAt: '2026-11-25T09:12:40.000Z',
      cancellationReason: 'Wrong buyer TIN',
      cancellationError: null,
      cancelledAt: AT,
      receipt: { uuid: 'F9D425P6DS7D8IU', longId: 'LIJAF97HJJKH8298KHADH09908570FDKK9S2LSIUHB377373' },
    },
    delivery: null,
    created_at: AT,
  },
  'document.rejected': {
    id: '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
    type: 'document.rejected',
    tenant_id: '00000000-0000-4000-8000-000000000001',
    area: 'my',
    supplier_id: '6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c',
    document_id: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
    document_number: 'MY-INV-2026-0091',
    direction: 'outgoing',
    report_state: 'reported',
    delivery_status: null,
    peppol_copy: false,
    receipt: null,
    authority: {
      validatedAt: '2026-11-25T09:40:11.000Z',
      buyerRejection: { reason: 'Goods returned: order cancelled', requestedAt: AT },
      receipt: { uuid: 'K2M7Q9R3T5V8X1Z', longId: 'QWE12RTY34UIO56PAS78DFG90HJK12LZX34CVB56NM78QWE90' },
    },
    delivery: null,
    created_at: AT,
  },
  'document.received': {
    id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
    type: 'document.received',
    tenant_id: '00000000-0000-4000-8000-000000000001',
    area: 'sg',
    supplier_id: '8a9b0c1d-2e3f-4a4b-8c5d-6e7f8a9b0c1d',
    document_id: 'f0e1d2c3-b4a5-4968-8778-695a4b3c2d1e',
    document_number: 'SG-INV-77120',
    direction: 'incoming',
    report_state: null,
    delivery_status: 'Delivered',
    peppol_copy: null,
    receipt: null,
    authority: null,
    delivery: null,
    created_at: AT,
  },
};

/** The stored row a sample is made of (the schemas' unit test reads them). */
export const sampleAccountEventRow = (type: AccountEventType): AccountEventRow => SAMPLE_ROWS[type];

/**
 * A realistic event of `type`, as `GET /v1/events` and an account webhook carry it. `overrides` replaces
 * envelope fields: a test send gives it a new `id` (its own de-duplication key) and `created_at` (now).
 */
export function sampleAccountEvent(type: AccountEventType, overrides: Partial<Pick<AccountEvent, 'id' | 'created_at'>> = {}): AccountEvent {
  return { ...accountEventOf(SAMPLE_ROWS[type]), ...overrides };
}
