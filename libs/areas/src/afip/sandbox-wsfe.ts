/**
 * AFIP WSFEv1 in sandbox (README.md "Sandbox"), state in PostgreSQL shared by every process as AFIP's would
 * be. `FECAESolicitar`: AFIP's validations with their codes (validations.ts) against the sequence's last
 * authorised number and date, then the number claimed and the voucher stored in one statement (a stale
 * number → 10016, never a duplicate), a 14-digit CAE valid 10 days. `FECompUltimoAutorizado`,
 * `FECompConsultar` and the catalogs (AFIP's data) are reads. Failure injection by `DocNro`: 99999999901 —
 * AFIP does not answer (twice per voucher, then it does); `answerDelayMs`: the time to answer after the
 * voucher is stored (a worker killed meanwhile loses the answer; the next asks FECompConsultar first).
 */
import { randomInt } from 'node:crypto';
import { AppError } from '@einvoice/domain';
import type { ConnectorQuery } from '../registry/area';
import { type CatalogName, catalog } from './catalogs';
import { afipAnswer } from './connector';
import { type VoucherRequest, afipDate, afipTimestamp, validateVoucher } from './validations';
import { type AfipReceipt, type HeldVoucher, type LastVoucher, STALE_NUMBER, type Taxpayer, type Wsfe } from './wsfe';

const plusDays = (yyyymmdd: string, days: number) =>
  new Date(Date.UTC(Number(yyyymmdd.slice(0, 4)), Number(yyyymmdd.slice(4, 6)) - 1, Number(yyyymmdd.slice(6, 8)) + days)).toISOString().slice(0, 10).replace(/-/g, '');
const newCae = () => `${randomInt(1, 10)}${String(randomInt(0, 1e9)).padStart(9, '0')}${String(randomInt(0, 1e4)).padStart(4, '0')}`;

/** `DocNro` that makes the sandbox AFIP fail twice per voucher before answering. */
export const AFIP_DOWN_DOCNRO = 99999999901;
const DOWN_FAILURES = 2;

export class SandboxWsfe implements Wsfe {
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly db: ConnectorQuery,
    private readonly answerDelayMs = 0,
  ) {}

  async authorise({ cuit }: Taxpayer, v: VoucherRequest): Promise<AfipReceipt> {
    if (v.DocNro === AFIP_DOWN_DOCNRO) {
      // Counted per process: the worker that calls is the one that sees AFIP down.
      const key = `${cuit}/${v.PtoVta}/${v.CbteTipo}/${v.CbteDesde}`;
      const failed = this.failures.get(key) ?? 0;
      if (failed < DOWN_FAILURES) {
        this.failures.set(key, failed + 1);
        throw new AppError('unavailable', 'AFIP.UNAVAILABLE', 'AFIP does not answer (sandbox: DocNro 99999999901).', { retriable: true });
      }
    }
    const today = afipDate(new Date());
    const date = v.CbteFch ?? today;
    const errors = validateVoucher(v, { last: await this.lastAuthorised({ cuit, supplierId: '' }, v.PtoVta, v.CbteTipo), today });
    if (errors.length) return afipAnswer(cuit, v, { Errors: errors });
    const cae = newCae();
    const caeVto = plusDays(date, 10);
    const fchProceso = afipTimestamp(new Date());
    const claimed = await this.db(
      `WITH claimed AS (
         UPDATE afip_sandbox_sequences SET last = $10, last_date = $5
         WHERE cuit = $1 AND pto_vta = $2 AND cbte_tipo = $3 AND last = $4 - 1 AND coalesce(last_date, '') <= $5 RETURNING 1)
       INSERT INTO afip_sandbox_vouchers (cuit, pto_vta, cbte_tipo, cbte_nro, cae, cae_vto, fch_proceso, request)
       SELECT $1, $2, $3, $4, $6, $7, $8, $9 FROM claimed RETURNING cae`,
      // A class B request may hold several vouchers (CbteDesde…CbteHasta): the last is its CbteHasta.
      [cuit, v.PtoVta, v.CbteTipo, v.CbteDesde, date, cae, caeVto, fchProceso, JSON.stringify({ ...v, CbteFch: date }), v.CbteHasta],
    );
    // Another call took this number first.
    if (!claimed.length) return afipAnswer(cuit, v, { Errors: [STALE_NUMBER] });
    if (this.answerDelayMs) await new Promise((resolve) => setTimeout(resolve, this.answerDelayMs));
    return afipAnswer(cuit, v, { CAE: cae, CAEFchVto: caeVto, CbteFch: date, FchProceso: fchProceso });
  }

  async consult({ cuit }: Taxpayer, ptoVta: number, cbteTipo: number, number: number): Promise<HeldVoucher | undefined> {
    const [row] = await this.db<{ cae: string; cae_vto: string; fch_proceso: string; request: VoucherRequest }>(
      `SELECT cae, cae_vto, fch_proceso, request FROM afip_sandbox_vouchers WHERE cuit = $1 AND pto_vta = $2 AND cbte_tipo = $3 AND cbte_nro = $4`,
      [cuit, ptoVta, cbteTipo, number],
    );
    return row && { ...row.request, PtoVta: ptoVta, CbteTipo: cbteTipo, Resultado: 'A', CodAutorizacion: row.cae, EmisionTipo: 'CAE', FchVto: row.cae_vto, FchProceso: row.fch_proceso };
  }

  async catalog(_taxpayer: Taxpayer, name: CatalogName) {
    return catalog(name);
  }

  async lastAuthorised({ cuit }: Taxpayer, ptoVta: number, cbteTipo: number): Promise<LastVoucher> {
    const [row] = await this.db<{ last: number; last_date: string | null }>(`SELECT last, last_date FROM afip_sandbox_sequences WHERE cuit = $1 AND pto_vta = $2 AND cbte_tipo = $3`, [cuit, ptoVta, cbteTipo]);
    if (!row) {
      await this.db(`INSERT INTO afip_sandbox_sequences (cuit, pto_vta, cbte_tipo, last) VALUES ($1, $2, $3, 0) ON CONFLICT DO NOTHING`, [cuit, ptoVta, cbteTipo]);
      return { number: 0 };
    }
    return { number: row.last, ...(row.last_date ? { date: row.last_date } : {}) };
  }
}
