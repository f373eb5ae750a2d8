// CUIT check digits, AFIP's catalogs as FEParamGet* answers, each voucher validation with AFIP's code, the QR link.
import { catalog, receiverVatConditions } from './catalogs';
import { isValidCuit } from './cuit';
import { voucherQrLink } from './qr';
import { type VoucherRequest, receiverVatCondition, validateVoucher } from './validations';

const facturaA: VoucherRequest = {
  CantReg: 1, PtoVta: 1, CbteTipo: 1, Concepto: 1, DocTipo: 80, DocNro: 20111111112, CbteDesde: 8, CbteHasta: 8, CbteFch: '20261125',
  ImpTotal: 121, ImpTotConc: 0, ImpNeto: 100, ImpOpEx: 0, ImpIVA: 21, ImpTrib: 0, MonId: 'PES', MonCotiz: 1, Iva: [{ Id: 5, BaseImp: 100, Importe: 21 }],
};
const codes = (v: Partial<VoucherRequest>, last = 7) => validateVoucher({ ...facturaA, ...v } as VoucherRequest, { last: { number: last, date: '20261120' }, today: '20261125' }).map((e) => e.Code);

describe('AFIP', () => {
  it('CUIT check digits', () => {
    expect(isValidCuit('20-11111111-2')).toBe(true);
    expect(isValidCuit('30-71234567-1')).toBe(isValidCuit('30712345671'));
    expect(isValidCuit('20111111113')).toBe(false);
    expect(isValidCuit('2011111111')).toBe(false);
  });

  it('serves the seven catalogs in FEParamGet* form (FchHasta "NULL" when open-ended; currencies with string ids)', () => {
    const types = catalog('voucher-types');
    expect(types[0]).toEqual({ Id: 1, Desc: 'Factura A', FchDesde: '20100917', FchHasta: 'NULL' });
    expect(catalog('currencies')[0]).toMatchObject({ Id: 'PES', Desc: 'Pesos Argentinos' });
    expect(catalog('rates').map((r) => r.Id)).toEqual([3, 4, 5, 6, 8, 9]);
    for (const name of ['concept-types', 'document-types', 'options-types', 'tax-types'] as const) expect(catalog(name).length).toBeGreaterThan(2);
    expect(receiverVatConditions()[0]).toEqual({ Id: 1, Desc: 'IVA Responsable Inscripto', Cmp_Clase: 'A/ALEY/C' });
  });

  it('a correct Factura A passes', () => expect(codes({})).toEqual([]));
  it('10016: the next number only, and not before the last voucher\'s date', () => {
    expect(codes({ CbteDesde: 9, CbteHasta: 9 })).toContain(10016);
    expect(codes({ CbteFch: '20261119' })).toContain(10016);
  });
  it('10001/10002 CantReg; 10012 A/C one voucher; 10013 A needs DocTipo 80', () => {
    expect(codes({ CantReg: 0 })).toEqual(expect.arrayContaining([10001]));
    expect(codes({ CbteHasta: 9, CantReg: 1 })).toEqual(expect.arrayContaining([10002, 10012]));
    expect(codes({ DocTipo: 96 })).toEqual([10013]);
  });
  it('10018/10019/10023 IVA; 10061 net base; 10070 net without Iva; 10071 C with Iva', () => {
    expect(codes({ Iva: undefined })).toEqual(expect.arrayContaining([10018, 10070]));
    expect(codes({ Iva: [{ Id: 5, BaseImp: 50, Importe: 10.5 }, { Id: 5, BaseImp: 50, Importe: 10.5 }] })).toEqual([10019]);
    expect(codes({ Iva: [{ Id: 5, BaseImp: 100, Importe: 20 }] })).toEqual([10023]);
    expect(codes({ Iva: [{ Id: 5, BaseImp: 90, Importe: 21 }] })).toEqual([10061]);
    expect(codes({ CbteTipo: 11, DocTipo: 99, ImpIVA: 0, ImpTotal: 100 })).toEqual(expect.arrayContaining([10071]));
  });
  it('10024/10025/10029 Tributos; 10048 totals (C: net + tributes); 10039 PES at 1', () => {
    expect(codes({ ImpTrib: 1, ImpTotal: 122 })).toEqual([10024]);
    expect(codes({ Tributos: [{ Id: 99, BaseImp: 100, Alic: 1, Importe: 1 }] })).toEqual(expect.arrayContaining([10025]));
    expect(codes({ ImpTrib: 1, ImpTotal: 122, Tributos: [{ Id: 99, BaseImp: 100, Alic: 2, Importe: 2 }] })).toEqual([10029]);
    expect(codes({ ImpTotal: 120 })).toEqual([10048]);
    expect(codes({ CbteTipo: 11, DocTipo: 99, ImpIVA: 0, Iva: undefined, ImpTotal: 100 })).toEqual([]);
    expect(codes({ MonCotiz: 2 })).toEqual([10039]);
  });
  it('10049/10032/10036 service dates for Concepto 2 and 3', () => {
    expect(codes({ Concepto: 2 })).toEqual([10049]);
    expect(codes({ Concepto: 2, FchServDesde: '20261130', FchServHasta: '20261101', FchVtoPago: '20261124' })).toEqual([10032, 10036]);
    expect(codes({ Concepto: 3, FchServDesde: '20261101', FchServHasta: '20261130', FchVtoPago: '20261210' })).toEqual([]);
  });
  it('the date window: ±5 days for products, ±10 for services', () => {
    expect(codes({ CbteFch: '20261201' })).toContain(10016);
    expect(codes({ Concepto: 2, CbteFch: '20261201', FchServDesde: '20261101', FchServHasta: '20261130', FchVtoPago: '20261210' })).toEqual([]);
  });
  it('10246: CondicionIVAReceptorId derived where unambiguous, else required', () => {
    expect(receiverVatCondition({ DocTipo: 99, CbteTipo: 6 })).toBe(5);
    expect(receiverVatCondition({ DocTipo: 80, CbteTipo: 1 })).toBe(1);
    expect(codes({ CbteTipo: 6, DocTipo: 80 })).toEqual([10246]);
    expect(codes({ CbteTipo: 6, DocTipo: 80, CondicionIVAReceptorId: 4 })).toEqual([]);
  });
  it('the QR link: base64 JSON as AFIP specifies', () => {
    const link = voucherQrLink({ cuit: 20111111112, PtoVta: 1, CbteTipo: 1, CbteNro: 8, CbteFch: '20261125', ImpTotal: 121, MonId: 'PES', MonCotiz: 1, DocTipo: 80, DocNro: 30712345671, CAE: '71263951827464' });
    const json = JSON.parse(Buffer.from(link.split('?p=')[1], 'base64').toString('utf8'));
    expect(json).toEqual({ ver: 1, fecha: '2026-11-25', cuit: 20111111112, ptoVta: 1, tipoCmp: 1, nroCmp: 8, importe: 121, moneda: 'PES', ctz: 1, tipoDocRec: 80, nroDocRec: 30712345671, tipoCodAut: 'E', codAut: 71263951827464 });
  });
});
