/** The examples of `/v1/documents` in the OpenAPI document: a Belgian invoice delivered over Peppol, a Polish one reported to KSeF. */

const belgian = {
  id: '0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a',
  area: 'be',
  supplier_id: '5b0d2a3c-8f3e-4a57-9a51-1c1f2b8e7d10',
  direction: 'outgoing',
  number: 'INV-2026-0042',
  type: 'Invoice',
  issue_date: '2026-11-25',
  currency: 'EUR',
  total: '121.00',
  status: 'delivered',
  authority: { status: 'none' },
  exchange: { status: 'delivered' },
  created_at: '2026-11-25T10:30:00.000Z',
  updated_at: '2026-11-25T10:30:02.000Z',
};

const polish = {
  ...belgian,
  id: '7a1d9e40-2b6c-4f3a-8e5d-3c2b1a0f9e8d',
  area: 'pl',
  supplier_id: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
  number: 'FV/2026/11/7',
  currency: 'PLN',
  total: '288',
  status: 'reported',
  authority: { status: 'reported', reference: '5260250274-20261125-0100A0B0C0D0-E1' },
  exchange: { status: 'none' },
  created_at: '2026-11-25T10:29:00.000Z',
};

export const documentListExample = { status: 'success', data: [belgian, polish], has_more: true };

export const documentDetailExample = {
  status: 'success',
  data: {
    ...belgian,
    timeline: [
      { type: 'accepted', at: '2026-11-25T10:30:00.000Z', detail: { track: 'exchange', receiver: '0208:0843766574' } },
      { type: 'delivered', at: '2026-11-25T10:30:02.000Z', detail: { track: 'exchange', message_id: 'b5c1e2d3-4f5a-4b6c-8d7e-9f0a1b2c3d4e@einvoice', channel: 'remote', mls: { responseCode: 'AP', receivedAt: '2026-11-25T10:30:02.000Z' } } },
    ],
    links: { document: '/be/einvoice/get-document/0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a', xml: '/be/einvoice/get-document/0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a/xml', supplier_header: 'supplier_uuid' },
  },
};
