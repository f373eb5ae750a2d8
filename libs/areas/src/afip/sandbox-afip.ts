/**
 * AFIP WSFEv1 in sandbox (README.md "Sandbox"), state in PostgreSQL. `FECAESolicitar` per voucher: AFIP's
 * validations with their codes (validations.ts) against the sequence's last authorised number and date,
 * then the number claimed and the voucher stored in one statement (a stale number → 10016, never a
 * duplicate), a 14-digit CAE valid 10 days. The reporting worker sends a taxpayer's waiting vouchers in a
 * batch, sorted per sequence by number; a voucher whose predecessor has not come yet waits (up to
 * `HOLD_MS` after its request) instead of being refused, so concurrent calls for one sequence are all
 * authorised in order. `FECompUltimoAutorizado`, `FECompConsultar` (602 when unknown) and the catalogs
 * are reads. Failure injection by `DocNro`: 99999999901 — AFIP does not answer (twice, then it does);
 * `answerDelayMs`: the time to answer after the voucher is stored (a worker killed meanwhile loses the
 * answer; the next asks FECompConsultar before sending again).
 */
import { randomInt } from 'node:crypto';
import { AppError } from '@einvoice/domain';
import type { ConnectorQuery } from '../registry/area';
import type { AuthorityConnector, AuthorityOutcome, AuthorityReport, BatchOutcome } from '../registry/authority';
import { CATALOGS, type CatalogName, catalog } from './catalogs';
import { CUIT_SCHEME, sequenceOf } from './codec';
import { type AfipError, type VoucherRequest, afipDate, afipTimestamp, validateVoucher } from './validations';

/** How long a voucher ahead of its sequence waits for its predecessor before AFIP's 10016. */
export const HOLD_MS = 5_000;

export interface AfipPayload {
  readonly cuit: string;
  readonly voucher: VoucherRequest;
  /** When the gateway took it: a voucher ahead of its sequence waits at most HOLD_MS from then. */
  readonly requestedAt: string;
}

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

const plusDays = (yyyymmdd: string, days: number) =>
  new Date(Date.UTC(Number(yyyymmdd.slice(0, 4)), Number(yyyymmdd.slice(4, 6)) - 1, Number(yyyymmdd.slice(6, 8)) + days)).toISOString().slice(0, 10).replace(/-/g, '');
const newCae = () => `${randomInt(1, 10)}${String(randomInt(0, 1e9)).padStart(9, '0')}${String(randomInt(0, 1e4)).padStart(4, '0')}`;

/** `DocNro` that makes the sandbox AFIP fail twice per voucher before answering. */
export const AFIP_DOWN_DOCNRO = 99999999901;
const DOWN_FAILURES = 2;

export class SandboxAfip implements AuthorityConnector<AfipPayload, AfipReceipt> {
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly db: ConnectorQuery,
    private readonly answerDelayMs = 0,
  ) {}

  async submit(report: AuthorityReport<AfipPayload>): Promise<AuthorityOutcome<AfipReceipt>> {
    const outcome = (await this.submitBatch([report])).outcomes[report.reportId];
    if (!outcome) throw new AppError('unavailable', 'AFIP.WAITING', 'The voucher waits for its predecessor in its sequence.', { retriable: true });
    return outcome;
  }

  async submitBatch(reports: readonly AuthorityReport<AfipPayload>[]): Promise<BatchOutcome<AfipReceipt>> {
    const outcomes: Record<string, AuthorityOutcome<AfipReceipt>> = {};
    const bySequence = new Map<string, AuthorityReport<AfipPayload>[]>();
    for (const r of reports) bySequence.set(sequenceOf(r.payload.voucher), [...(bySequence.get(sequenceOf(r.payload.voucher)) ?? []), r]);
    for (const group of bySequence.values()) {
      group.sort((a, b) => a.payload.voucher.CbteDesde - b.payload.voucher.CbteDesde);
      for (const report of group) {
        const outcome = await this.authorise(report);
        if (outcome) outcomes[report.reportId] = outcome;
      }
    }
    return { outcomes };
  }

  /** One voucher: AFIP's answer, or undefined while it waits for its predecessor. */
  private async authorise(report: AuthorityReport<AfipPayload>): Promise<AuthorityOutcome<AfipReceipt> | undefined> {
    const v = report.payload.voucher;
    const cuit = cuitOf(report);
    if (v.DocNro === AFIP_DOWN_DOCNRO) {
      // Counted per process: the worker that calls is the one that sees AFIP down.
      const failed = this.failures.get(report.reportId) ?? 0;
      if (failed < DOWN_FAILURES) {
        this.failures.set(report.reportId, failed + 1);
        throw new AppError('unavailable', 'AFIP.UNAVAILABLE', 'AFIP does not answer (sandbox: DocNro 99999999901).', { retriable: true });
      }
    }
    const last = await this.last(cuit, v.PtoVta, v.CbteTipo);
    if (v.CbteDesde > last.number + 1 && Date.now() - Date.parse(report.payload.requestedAt) < HOLD_MS) return undefined;
    const today = afipDate(new Date());
    const date = v.CbteFch ?? today;
    const errors = validateVoucher(v, { last, today });
    const base = { Cuit: Number(cuit), PtoVta: v.PtoVta, CbteTipo: v.CbteTipo, FchProceso: afipTimestamp(new Date()), CantReg: v.CantReg, CbteDesde: v.CbteDesde, CbteHasta: v.CbteHasta, CbteFch: date, Observaciones: [] };
    if (errors.length) return rejected({ ...base, Resultado: 'R', CAE: '', CAEFchVto: '', Errors: errors });
    const cae = newCae();
    const caeVto = plusDays(date, 10);
    const claimed = await this.db(
      `WITH claimed AS (
         UPDATE afip_sandbox_sequences SET last = $4, last_date = $5
         WHERE cuit = $1 AND pto_vta = $2 AND cbte_tipo = $3 AND last = $4 - 1 AND coalesce(last_date, '') <= $5 RETURNING 1)
       INSERT INTO afip_sandbox_vouchers (cuit, pto_vta, cbte_tipo, cbte_nro, cae, cae_vto, fch_proceso, request)
       SELECT $1, $2, $3, $4, $6, $7, $8, $9 FROM claimed RETURNING cae`,
      [cuit, v.PtoVta, v.CbteTipo, v.CbteDesde, date, cae, caeVto, base.FchProceso, JSON.stringify(v)],
    );
    if (claimed.length && this.answerDelayMs) await new Promise((resolve) => setTimeout(resolve, this.answerDelayMs));
    if (!claimed.length) {
      // Another call took this number first.
      return rejected({ ...base, Resultado: 'R', CAE: '', CAEFchVto: '', Errors: [{ Code: 10016, Msg: 'El numero o fecha del comprobante no se corresponde con el proximo a autorizar. Consultar metodo FECompUltimoAutorizado.' }] });
    }
    return { kind: 'accepted', final: true, receipt: { ...base, Resultado: 'A', CAE: cae, CAEFchVto: caeVto, Errors: [] } };
  }

  /** After a lost answer: AFIP has the voucher (FECompConsultar) with this request, or nothing. */
  async recover(report: AuthorityReport<AfipPayload>): Promise<AuthorityOutcome<AfipReceipt> | undefined> {
    const v = report.payload.voucher;
    const [row] = await this.db<{ cae: string; cae_vto: string; fch_proceso: string; request: VoucherRequest }>(
      `SELECT cae, cae_vto, fch_proceso, request FROM afip_sandbox_vouchers WHERE cuit = $1 AND pto_vta = $2 AND cbte_tipo = $3 AND cbte_nro = $4`,
      [cuitOf(report), v.PtoVta, v.CbteTipo, v.CbteDesde],
    );
    if (!row || JSON.stringify(row.request) !== JSON.stringify(JSON.parse(JSON.stringify(v)))) return undefined;
    return { kind: 'accepted', final: true, receipt: { Cuit: Number(cuitOf(report)), PtoVta: v.PtoVta, CbteTipo: v.CbteTipo, FchProceso: row.fch_proceso, CantReg: v.CantReg, Resultado: 'A', CbteDesde: v.CbteDesde, CbteHasta: v.CbteHasta, CbteFch: v.CbteFch ?? row.request.CbteFch ?? '', CAE: row.cae, CAEFchVto: row.cae_vto, Observaciones: [], Errors: [] } };
  }

  /** `last-voucher` (FECompUltimoAutorizado), `get-voucher` (FECompConsultar), the catalogs (FEParamGet*). */
  async read(name: string, params: Readonly<Record<string, unknown>>, supplier: { readonly profile: { readonly identifiers: readonly { scheme: string; id: string }[] } }): Promise<unknown> {
    const cuit = supplier.profile.identifiers.find((i) => i.scheme === CUIT_SCHEME)?.id ?? '';
    if (name === 'last-voucher') {
      const { PtoVta, CbteTipo } = params as { PtoVta: number; CbteTipo: number };
      return { PtoVta, CbteTipo, CbteNro: (await this.last(cuit, PtoVta, CbteTipo)).number };
    }
    if (name === 'get-voucher') {
      const { PtoVta, CbteTipo, CbteNro } = params as { PtoVta: number; CbteTipo: number; CbteNro: number };
      const [row] = await this.db<{ cae: string; cae_vto: string; fch_proceso: string; request: VoucherRequest }>(
        `SELECT cae, cae_vto, fch_proceso, request FROM afip_sandbox_vouchers WHERE cuit = $1 AND pto_vta = $2 AND cbte_tipo = $3 AND cbte_nro = $4`,
        [cuit, PtoVta, CbteTipo, CbteNro],
      );
      if (!row) throw new AppError('not_found', 'AFIP.602', 'Sin Resultados: - No existen datos en nuestros registros para los parametros ingresados.', { retriable: false });
      return { ...row.request, Resultado: 'A', CodAutorizacion: row.cae, EmisionTipo: 'CAE', FchVto: row.cae_vto, FchProceso: row.fch_proceso, PtoVta, CbteTipo };
    }
    if (name in CATALOGS) return catalog(name as CatalogName);
    throw new AppError('not_found', 'AFIP.UNKNOWN_READ', `No AFIP read ${name}.`, { retriable: false });
  }

  private async last(cuit: string, ptoVta: number, cbteTipo: number): Promise<{ number: number; date?: string }> {
    await this.db(`INSERT INTO afip_sandbox_sequences (cuit, pto_vta, cbte_tipo, last) VALUES ($1, $2, $3, 0) ON CONFLICT DO NOTHING`, [cuit, ptoVta, cbteTipo]);
    const [row] = await this.db<{ last: number; last_date: string | null }>(`SELECT last, last_date FROM afip_sandbox_sequences WHERE cuit = $1 AND pto_vta = $2 AND cbte_tipo = $3`, [cuit, ptoVta, cbteTipo]);
    return { number: row.last, ...(row.last_date ? { date: row.last_date } : {}) };
  }
}

/** The taxpayer's CUIT (the payload carries it: AFIP numbers per CUIT). */
const cuitOf = (report: AuthorityReport<AfipPayload>) => report.payload.cuit;

function rejected(receipt: AfipReceipt): AuthorityOutcome<AfipReceipt> {
  return {
    kind: 'rejected',
    receipt,
    error: { code: 'R', message: receipt.Errors.map((e) => `${e.Code}: ${e.Msg}`).join('; '), details: receipt.Errors.map((e) => ({ code: String(e.Code), message: e.Msg })) },
  };
}
