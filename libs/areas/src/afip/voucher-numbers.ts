/**
 * Vouchers sent without their numbers (issue #44; README.md "Numbering"): a caller may leave `CbteDesde`
 * and `CbteHasta` out together, and the connector takes the sequence's next number when it sends the
 * voucher to AFIP, where each sequence already goes in one line. The number tried is recorded against
 * the report before AFIP hears of it (`afip_voucher_numbers`), so that after a lost answer (a worker
 * killed mid-call) AFIP is asked about that number, and the voucher is never given a second one.
 */
import type { ConnectorQuery } from '../registry/area';
import type { VoucherRequest } from './validations';

/** A voucher as the caller sent it: AFIP's request, with or without its numbers (both or neither). */
export type RequestedVoucher = Omit<VoucherRequest, 'CbteDesde' | 'CbteHasta'> & Partial<Pick<VoucherRequest, 'CbteDesde' | 'CbteHasta'>>;

/** Whether the caller gave the numbers (the seed's form) or left them to the gateway. */
export const isNumbered = (v: RequestedVoucher): v is VoucherRequest => v.CbteDesde !== undefined && v.CbteHasta !== undefined;

/** The voucher under its numbers: the caller's, else `first` up to the `CantReg` vouchers it holds. */
export function numbered(v: RequestedVoucher, first: number): VoucherRequest {
  if (isNumbered(v)) return v;
  return { ...v, CbteDesde: first, CbteHasta: first + v.CantReg - 1 };
}

/** The numbers tried for vouchers sent without them, one row per report (the last number tried). */
export class VoucherNumbers {
  constructor(private readonly query: ConnectorQuery) {}

  /** Records that `reportId` goes to AFIP as `v` (autocommitted, before the call). */
  async claim(reportId: string, cuit: string, v: VoucherRequest): Promise<void> {
    await this.query(
      `INSERT INTO afip_voucher_numbers (report_id, cuit, pto_vta, cbte_tipo, cbte_desde) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (report_id) DO UPDATE SET cbte_desde = EXCLUDED.cbte_desde, claimed_at = now()`,
      [reportId, cuit, v.PtoVta, v.CbteTipo, v.CbteDesde],
    );
  }

  /** The number last tried for `reportId`, or undefined when it never went to AFIP. */
  async claimed(reportId: string): Promise<number | undefined> {
    const [row] = await this.query<{ cbte_desde: number }>(`SELECT cbte_desde FROM afip_voucher_numbers WHERE report_id = $1`, [reportId]);
    return row?.cbte_desde;
  }
}
