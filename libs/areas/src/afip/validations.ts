/**
 * AFIP's validations of a voucher (WSFEv1 `FECAESolicitar`), with AFIP's own codes (ARCA *Manual del
 * desarrollador WSFEv1*; `shared/notes/national-systems-detail.md` section 2): the sandbox AFIP applies
 * them, and the service runs the same before calling AFIP so the answer carries the same codes either way.
 * Pure: the sequence's last voucher (number and date) and today are given.
 */
import { NET_BASE_EXEMPT, classOf, isFce } from './voucher-types';

export interface AfipError {
  readonly Code: number;
  readonly Msg: string;
}

export interface VoucherRequest {
  readonly CantReg: number;
  readonly PtoVta: number;
  readonly CbteTipo: number;
  readonly Concepto: number;
  readonly DocTipo: number;
  readonly DocNro: number;
  readonly CbteDesde: number;
  readonly CbteHasta: number;
  /** yyyymmdd; today when absent. */
  readonly CbteFch?: string;
  readonly ImpTotal: number;
  readonly ImpTotConc: number;
  readonly ImpNeto: number;
  readonly ImpOpEx: number;
  readonly ImpIVA: number;
  readonly ImpTrib: number;
  readonly MonId: string;
  readonly MonCotiz: number;
  readonly Iva?: ReadonlyArray<{ readonly Id: number; readonly BaseImp: number; readonly Importe: number }>;
  readonly Tributos?: ReadonlyArray<{ readonly Id: number; readonly BaseImp: number; readonly Alic: number; readonly Importe: number }>;
  readonly FchServDesde?: string;
  readonly FchServHasta?: string;
  readonly FchVtoPago?: string;
  readonly CondicionIVAReceptorId?: number;
}

/** AFIP's receiver VAT conditions a class may receive (FEParamGetCondicionIvaReceptor, `Cmp_Clase`). */
const CONSUMIDOR_FINAL = 5;
const RESPONSABLE_INSCRIPTO = 1;
const TOLERANCE = 0.01;
const near = (a: number, b: number) => Math.abs(a - b) <= TOLERANCE + 1e-9;
const sum = (values: readonly number[]) => values.reduce((total, v) => total + v, 0);

/**
 * `CondicionIVAReceptorId` (mandatory since RG 5616): as sent, else derived where unambiguous (DocTipo 99
 * → 5 consumidor final; class A → 1 responsable inscripto), else undefined (10246).
 */
export function receiverVatCondition(v: Pick<VoucherRequest, 'CondicionIVAReceptorId' | 'DocTipo' | 'CbteTipo'>): number | undefined {
  if (v.CondicionIVAReceptorId !== undefined) return v.CondicionIVAReceptorId;
  if (v.DocTipo === 99) return CONSUMIDOR_FINAL;
  if (classOf(v.CbteTipo) === 'A') return RESPONSABLE_INSCRIPTO;
  return undefined;
}

/** `yyyymmdd` of a Date (UTC−3, Argentina's time, as AFIP dates vouchers). */
export function afipDate(at: Date): string {
  return new Date(at.getTime() - 3 * 3_600_000).toISOString().slice(0, 10).replace(/-/g, '');
}

/** AFIP's `FchProceso`: `yyyymmddhhmmss` in Argentina's time. */
export function afipTimestamp(at: Date): string {
  return new Date(at.getTime() - 3 * 3_600_000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

const dayNumber = (yyyymmdd: string) => Date.UTC(Number(yyyymmdd.slice(0, 4)), Number(yyyymmdd.slice(4, 6)) - 1, Number(yyyymmdd.slice(6, 8))) / 86_400_000;

export function validateVoucher(v: VoucherRequest, context: { readonly last: { readonly number: number; readonly date?: string }; readonly today: string }): AfipError[] {
  const errors: AfipError[] = [];
  const err = (Code: number, Msg: string) => errors.push({ Code, Msg });
  const cls = classOf(v.CbteTipo);
  const date = v.CbteFch ?? context.today;

  if (!(v.CantReg >= 1 && v.CantReg <= 9998)) err(10001, 'CantReg debe estar comprendido entre 1 y 9998.');
  if (v.CantReg !== v.CbteHasta - v.CbteDesde + 1) err(10002, 'CantReg debe ser igual a la cantidad de comprobantes informados (CbteHasta - CbteDesde + 1).');
  if ((cls === 'A' || cls === 'C' || isFce(v.CbteTipo)) && v.CbteDesde !== v.CbteHasta) err(10012, 'Para comprobantes clase A, C y FCE, CbteDesde debe ser igual a CbteHasta.');
  if (cls === 'A' && v.DocTipo !== 80) err(10013, 'Para comprobantes clase A el campo DocTipo debe ser 80 (CUIT).');
  if (v.CbteDesde !== context.last.number + 1 || (context.last.date && date < context.last.date)) {
    err(10016, `El numero o fecha del comprobante no se corresponde con el proximo a autorizar. Consultar metodo FECompUltimoAutorizado (último: ${context.last.number}).`);
  }
  // The date window: N±5 days for products, N±10 for services.
  const window = v.Concepto === 1 ? 5 : 10;
  if (Math.abs(dayNumber(date) - dayNumber(context.today)) > window) err(10016, `CbteFch debe estar comprendida entre ${window} días antes y después de la fecha de envío.`);

  // IVA (10018–10023).
  const iva = v.Iva ?? [];
  if (v.ImpIVA > 0 && !iva.length) err(10018, 'Si ImpIVA es mayor a 0 el objeto Iva es obligatorio.');
  if (new Set(iva.map((i) => i.Id)).size !== iva.length) err(10019, 'No se puede informar más de una vez la misma alícuota de IVA.');
  if (iva.length && !near(sum(iva.map((i) => i.Importe)), v.ImpIVA)) err(10023, 'La suma de los importes de IVA (Iva.Importe) debe ser igual a ImpIVA.');
  // Tributos (10024–10029).
  const tributos = v.Tributos ?? [];
  if (v.ImpTrib > 0 && !tributos.length) err(10024, 'Si ImpTrib es mayor a 0 el objeto Tributos es obligatorio.');
  if (v.ImpTrib === 0 && tributos.length) err(10025, 'Si ImpTrib es igual a 0 el objeto Tributos no debe informarse.');
  if (tributos.length && !near(sum(tributos.map((t) => t.Importe)), v.ImpTrib)) err(10029, 'La suma de los importes de Tributos debe ser igual a ImpTrib.');
  // Services (Concepto 2 or 3): their dates (10049, 10031–10036).
  if (v.Concepto === 2 || v.Concepto === 3) {
    if (!v.FchServDesde || !v.FchServHasta || !v.FchVtoPago) err(10049, 'Para Concepto 2 o 3 son obligatorias FchServDesde, FchServHasta y FchVtoPago.');
    else {
      if (v.FchServDesde > v.FchServHasta) err(10032, 'FchServDesde no puede ser posterior a FchServHasta.');
      if (v.FchVtoPago < date) err(10036, 'FchVtoPago no puede ser anterior a CbteFch.');
    }
  }
  // Currency (10039).
  if (v.MonId === 'PES' && v.MonCotiz !== 1) err(10039, 'Para MonId PES, MonCotiz debe ser 1.');
  // The total (10048).
  const total = cls === 'C' ? v.ImpNeto + v.ImpTrib : v.ImpTotConc + v.ImpNeto + v.ImpOpEx + v.ImpTrib + v.ImpIVA;
  if (!near(total, v.ImpTotal)) {
    err(10048, cls === 'C' ? 'Para comprobantes clase C, ImpTotal debe ser igual a ImpNeto + ImpTrib.' : 'ImpTotal debe ser igual a ImpTotConc + ImpNeto + ImpOpEx + ImpTrib + ImpIVA.');
  }
  // Iva against the class and the net base (10061, 10070, 10071).
  if (cls === 'C' && iva.length) err(10071, 'Para comprobantes clase C el objeto Iva no debe informarse.');
  if (cls !== 'C' && v.ImpNeto > 0 && !iva.length) err(10070, 'Si ImpNeto es mayor a 0 el objeto Iva es obligatorio.');
  if (cls !== 'C' && iva.length && !NET_BASE_EXEMPT.includes(v.CbteTipo) && !near(sum(iva.map((i) => i.BaseImp)), v.ImpNeto)) {
    err(10061, 'La suma de las bases imponibles de IVA (Iva.BaseImp) debe ser igual a ImpNeto.');
  }
  // The receiver's VAT condition (RG 5616).
  if (receiverVatCondition(v) === undefined) err(10246, 'Campo Condicion Frente al IVA del receptor (CondicionIVAReceptorId) es obligatorio.');
  return errors;
}
