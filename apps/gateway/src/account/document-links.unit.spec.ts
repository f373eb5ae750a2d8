import { findArea } from '@einvoice/areas';
import { type LinkedDocument, linksOf } from './document-links';

const ID = '3c5e7a90-1b2d-4e6f-8a9b-0c1d2e3f4a5b';
const sent = (type = '01', issue_date: string | null = '2026-11-25', number = 'INV-1'): LinkedDocument =>
  ({ id: ID, supplier_id: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b', direction: 'outgoing', number, type, issue_date });
const linksIn = (area: string, document = sent()) => linksOf(findArea(area), document);

describe('#50 a document\'s links: its cancellation where its area has a route for one, its request as accepted', () => {
  it('Malaysia: its own cancel route, the reason written by the caller', () => {
    expect(linksIn('my')).toMatchObject({
      cancel: { method: 'POST', href: `/api/einvoice/documents/${ID}/cancel`, body: {}, fields: ['reason'] },
      request: `/v1/documents/${ID}/request`,
    });
  });

  it('Spain: a cancellation record naming the invoice by number and date; none for a cancellation record itself', () => {
    expect(linksIn('es', sent('F1', '2026-11-20', 'F-2026-0001')).cancel).toEqual({
      method: 'POST', href: '/es/verifactu/cancel', body: { document_identifier: 'F-2026-0001', issue_date: '2026-11-20' }, fields: [],
    });
    expect(linksIn('es', sent('anulacion', '2026-11-20', 'anulación F-2026-0001 2026-11-20')).cancel).toBeNull();
  });

  it('an area the pipeline\'s own routes serve (the toy area): their cancel route', () => {
    expect(linksIn('toy')?.cancel).toEqual({ method: 'POST', href: `/toy/einvoice/documents/${ID}/cancel`, body: {}, fields: ['reason'] });
  });

  it.each(['be', 'de', 'sg', 'ae', 'pl', 'jo', 'ng', 'ar'])('%s: no cancellation (a credit note corrects a document there), its request all the same', (area) => {
    expect(linksIn(area)).toMatchObject({ cancel: null, request: `/v1/documents/${ID}/request` });
  });

  it('a document received: nothing to cancel, no request of the account\'s', () => {
    expect(linksIn('my', { ...sent(), direction: 'incoming' })).toMatchObject({ cancel: null, request: null });
    expect(linksIn('de', { ...sent(), direction: 'incoming' })).toMatchObject({ cancel: null, request: null });
  });
});
