/**
 * AFIP's voucher QR (RG 4892; pyafipws `pyqr.py`): `https://www.afip.gob.ar/fe/qr/?p=` + base64 of the JSON
 * `{ver: 1, fecha, cuit, ptoVta, tipoCmp, nroCmp, importe, moneda, ctz, tipoDocRec, nroDocRec, tipoCodAut: "E", codAut}`.
 */
export interface QrVoucher {
  readonly cuit: number;
  readonly PtoVta: number;
  readonly CbteTipo: number;
  readonly CbteNro: number;
  /** yyyymmdd. */
  readonly CbteFch: string;
  readonly ImpTotal: number;
  readonly MonId: string;
  readonly MonCotiz: number;
  readonly DocTipo: number;
  readonly DocNro: number;
  readonly CAE: string;
}

export function voucherQrLink(v: QrVoucher): string {
  const json = {
    ver: 1,
    fecha: `${v.CbteFch.slice(0, 4)}-${v.CbteFch.slice(4, 6)}-${v.CbteFch.slice(6, 8)}`,
    cuit: v.cuit,
    ptoVta: v.PtoVta,
    tipoCmp: v.CbteTipo,
    nroCmp: v.CbteNro,
    importe: v.ImpTotal,
    moneda: v.MonId,
    ctz: v.MonCotiz,
    tipoDocRec: v.DocTipo,
    nroDocRec: v.DocNro,
    tipoCodAut: 'E',
    codAut: Number(v.CAE),
  };
  return `https://www.afip.gob.ar/fe/qr/?p=${Buffer.from(JSON.stringify(json), 'utf8').toString('base64')}`;
}

/** The QR link of an authorised voucher from its stored fields and AFIP's receipt (its number and date are AFIP's). */
export function authorisedQrLink(
  f: { Cuit: number; PtoVta: number; CbteTipo: number; ImpTotal: number; MonId: string; MonCotiz: number; DocTipo: number; DocNro: number },
  receipt: { CbteDesde: number; CbteFch: string; CAE: string },
): string {
  return voucherQrLink({ cuit: f.Cuit, PtoVta: f.PtoVta, CbteTipo: f.CbteTipo, CbteNro: receipt.CbteDesde, CbteFch: receipt.CbteFch, ImpTotal: f.ImpTotal, MonId: f.MonId, MonCotiz: f.MonCotiz, DocTipo: f.DocTipo, DocNro: f.DocNro, CAE: receipt.CAE });
}
