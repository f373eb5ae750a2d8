import type { StoredDocument } from '../registry/printable';
import { afipPrintable } from './printable';
import { authorisedQrLink } from './qr';

const fields = {
  Cuit: 30718394526, CantReg: 1, PtoVta: 1, CbteTipo: 1, Concepto: 1, DocTipo: 80, DocNro: 30712345671, CbteFch: '20261125',
  ImpTotal: 121, ImpTotConc: 0, ImpNeto: 100, ImpOpEx: 0, ImpIVA: 21, ImpTrib: 0, MonId: 'PES', MonCotiz: 1, Iva: [{ Id: 5, BaseImp: 100, Importe: 21 }],
};
const receipt = { Resultado: 'A', CAE: '76543210987654', CAEFchVto: '20261205', CbteDesde: 42, CbteHasta: 42, CbteFch: '20261125' };
const stored = (reportState: string, withReceipt: boolean): StoredDocument => ({
  id: 'x', number: '1', type: '1', direction: 'outgoing', fields, receipt: withReceipt ? receipt : null, reportState, renderedSha256: null, xml: null,
  createdAt: '2026-11-25T10:00:00Z', supplier: { registeredName: 'Comercio SRL', identifiers: [{ scheme: 'AR:CUIT', id: '30718394526' }], country: 'AR' },
});

describe('#49 an AFIP voucher as people read it', () => {
  it('prints AFIP\'s QR of the authorised voucher, with "CAE N°" and "Fecha de Vto. de CAE", and AFIP\'s number', () => {
    const view = afipPrintable.build(stored('reported', true));
    expect(view).toMatchObject({ title: 'Invoice / Factura A', number: '00001-00000042', issueDate: '2026-11-25', totals: { currency: 'PES', net: '100.00', tax: '21.00', payable: '121.00' } });
    expect(view.taxes).toEqual([{ category: 'IVA', rate: '21', taxable: '100.00', tax: '21.00' }]);
    expect(view.mark).toEqual({ kind: 'qr', payload: authorisedQrLink(fields, receipt), legend: ['CAE N°: 76543210987654', 'Fecha de Vto. de CAE: 05/12/2026'], sizeMm: 30 });
  });

  it('says it is not yet authorised, with no code, until AFIP authorised it', () => {
    for (const view of [afipPrintable.build(stored('pending', false)), afipPrintable.build(stored('rejected', true))]) {
      expect(view.mark).toMatchObject({ kind: 'pending', text: expect.arrayContaining(['Not yet authorised by the tax authority']) });
    }
  });
});
