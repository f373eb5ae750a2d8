/**
 * The WSFEv1 operations the Argentine connector (connector.ts) needs, as AFIP states them; answered by the
 * sandbox AFIP (sandbox-wsfe.ts, state in PostgreSQL) or by AFIP itself over SOAP (live/live-wsfe.ts).
 */
import type { CatalogItem, CatalogName } from './catalogs';
import type { AfipError, VoucherRequest } from './validations';

/** AFIP's answer to one voucher, as FECAESolicitar gives it (FeCabResp + FECAEDetResponse). */
export interface AfipReceipt {
  readonly Cuit: number;
  readonly PtoVta: number;
  readonly CbteTipo: number;
  readonly FchProceso: string;
  readonly CantReg: number;
  readonly Resultado: 'A' | 'R';
  readonly CbteDesde: number;
  readonly CbteHasta: number;
  readonly CAE: string;
  readonly CAEFchVto: string;
  readonly CbteFch: string;
  readonly Observaciones: readonly AfipError[];
  readonly Errors: readonly AfipError[];
}

/** A voucher as AFIP holds it (FECompConsultar's `ResultGet`): the request's fields, its CAE and dates. */
export type HeldVoucher = VoucherRequest & {
  readonly Resultado: 'A' | 'R';
  readonly CodAutorizacion: string;
  readonly EmisionTipo: string;
  readonly FchVto: string;
  readonly FchProceso: string;
};

/** AFIP's last authorised voucher of a sequence: its number (0 when none) and, where known, its date. */
export interface LastVoucher {
  readonly number: number;
  readonly date?: string;
}

/** Who AFIP is asked for: the CUIT (AFIP's `Auth.Cuit`) and the supplier it was onboarded as (whose certificate signs). */
export interface Taxpayer {
  readonly cuit: string;
  readonly supplierId: string;
}

export interface Wsfe {
  /** FECompUltimoAutorizado. */
  lastAuthorised(taxpayer: Taxpayer, ptoVta: number, cbteTipo: number): Promise<LastVoucher>;
  /** FECAESolicitar for one voucher: AFIP's answer, A or R. @throws AppError retriable when AFIP does not answer */
  authorise(taxpayer: Taxpayer, voucher: VoucherRequest): Promise<AfipReceipt>;
  /** FECompConsultar: the voucher AFIP holds under this number, or undefined (AFIP's 602). */
  consult(taxpayer: Taxpayer, ptoVta: number, cbteTipo: number, number: number): Promise<HeldVoucher | undefined>;
  /** FEParamGet*: one of the seven catalogs. */
  catalog(taxpayer: Taxpayer, name: CatalogName): Promise<CatalogItem[]>;
}

/** AFIP's 10016, in AFIP's words. */
export const STALE_NUMBER: AfipError = { Code: 10016, Msg: 'El numero o fecha del comprobante no se corresponde con el proximo a autorizar. Consultar metodo FECompUltimoAutorizado.' };
