import type { StoredDocument } from '../registry/printable';
import { VERIFACTU_LEGEND, verifactuPrintable } from './printable';
import { QR_SIZE_MM } from './qr';

const qr_link = 'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=F-1&fecha=25-11-2026&importe=121.00';
const stored = (reportState: string): StoredDocument => ({
  id: 'x', number: 'F-1', type: 'F1', direction: 'outgoing', receipt: null, reportState, renderedSha256: null, xml: null, createdAt: '2026-11-25T10:00:00Z',
  fields: { document_identifier: 'F-1', issue_date: '2026-11-25', invoice_type: 'F1', description: 'Consulting', recipient: { nif: 'B00000000', name: 'Cliente SA' }, taxlines: [{ tax_base: 100, tax_rate: 21, repercutida_quota: '21.00' }], total_amount: '121.00', tax_total: '21.00', qr_link },
  supplier: { registeredName: 'Empresa de Pruebas SL', identifiers: [{ scheme: 'ES:NIF', id: '89890001K' }], country: 'ES' },
});

describe('#49 a VERI*FACTU invoice as people read it', () => {
  it('prints the record\'s ValidarQR link at the top, 40 mm, «QR tributario:» above and the legend below (AEAT, section 3)', () => {
    const view = verifactuPrintable().build(stored('pending'));
    expect(view.mark).toEqual({ kind: 'qr', payload: qr_link, caption: ['QR tributario:'], legend: [VERIFACTU_LEGEND], sizeMm: QR_SIZE_MM, placement: 'top' });
    expect(view).toMatchObject({ number: 'F-1', totals: { currency: 'EUR', tax: '21.00', payable: '121.00' }, buyer: { name: 'Cliente SA' }, issuer: { name: 'Empresa de Pruebas SL', identifiers: [{ label: 'NIF', value: '89890001K' }] } });
  });

  it('prints in its place that the AEAT refused the record', () => {
    expect(verifactuPrintable().build(stored('rejected')).mark).toMatchObject({ kind: 'pending' });
  });
});
