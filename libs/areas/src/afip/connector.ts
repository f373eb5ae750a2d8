/**
 * The Argentine area's connector, one for the sandbox and for AFIP (a `Wsfe`). The reporting worker hands
 * it a taxpayer's waiting vouchers; they go to AFIP sorted per sequence (CUIT, point of sale, type) by
 * number. A voucher ahead of its sequence waits for its predecessor (up to `HOLD_MS` after its request)
 * instead of being refused, so concurrent calls for one sequence are all authorised in order. Each voucher
 * is checked first with AFIP's own validations and codes (validations.ts) against the sequence's last
 * number: a voucher AFIP would refuse is answered R without calling AFIP. After a lost answer, AFIP is
 * asked what it holds under the number (FECompConsultar) before anything is sent again.
 */
import { AppError } from '@einvoice/domain';
import type { AuthorityConnector, AuthorityOutcome, AuthorityReport, BatchOutcome } from '../registry/authority';
import { CATALOGS, type CatalogName } from './catalogs';
import { CUIT_SCHEME, sequenceOf } from './codec';
import { type AfipError, type VoucherRequest, afipDate, afipTimestamp, validateVoucher } from './validations';
import type { AfipReceipt, LastVoucher, Taxpayer, Wsfe } from './wsfe';

/** How long a voucher ahead of its sequence waits for its predecessor before AFIP's 10016. */
export const HOLD_MS = 5_000;

export interface AfipPayload {
  readonly cuit: string;
  readonly voucher: VoucherRequest;
  /** When the gateway took it: a voucher ahead of its sequence waits at most HOLD_MS from then. */
  readonly requestedAt: string;
}

/** The fields AFIP echoes in FECompConsultar that tell one voucher from another under the same number. */
const IDENTITY = ['Concepto', 'DocTipo', 'DocNro', 'CbteHasta', 'ImpTotal', 'ImpNeto', 'ImpIVA', 'ImpTrib', 'ImpOpEx', 'ImpTotConc', 'MonId'] as const;

export function sameVoucher(sent: VoucherRequest, held: VoucherRequest): boolean {
  return IDENTITY.every((field) => String(sent[field]) === String(held[field])) && (!sent.CbteFch || sent.CbteFch === held.CbteFch);
}

/** AFIP's answer to one voucher: authorised (`Resultado` A, its CAE) or refused (R, no CAE, its errors). */
export function afipAnswer(cuit: string, v: VoucherRequest, answer: { readonly CAE: string; readonly CAEFchVto: string; readonly CbteFch: string; readonly FchProceso?: string } | { readonly Errors: readonly AfipError[] }): AfipReceipt {
  const base = { Cuit: Number(cuit), PtoVta: v.PtoVta, CbteTipo: v.CbteTipo, FchProceso: afipTimestamp(new Date()), CantReg: v.CantReg, CbteDesde: v.CbteDesde, CbteHasta: v.CbteHasta, Observaciones: [] };
  if ('Errors' in answer) return { ...base, Resultado: 'R', CAE: '', CAEFchVto: '', CbteFch: v.CbteFch ?? afipDate(new Date()), Errors: answer.Errors };
  return { ...base, ...answer, Resultado: 'A', Errors: [] };
}

export class AfipConnector implements AuthorityConnector<AfipPayload, AfipReceipt> {
  constructor(private readonly wsfe: Wsfe) {}

  async submit(report: AuthorityReport<AfipPayload>): Promise<AuthorityOutcome<AfipReceipt>> {
    const outcome = (await this.submitBatch([report])).outcomes[report.reportId];
    if (!outcome) throw new AppError('unavailable', 'AFIP.WAITING', 'The voucher waits for its predecessor in its sequence.', { retriable: true });
    return outcome;
  }

  async submitBatch(reports: readonly AuthorityReport<AfipPayload>[]): Promise<BatchOutcome<AfipReceipt>> {
    const outcomes: Record<string, AuthorityOutcome<AfipReceipt>> = {};
    const bySequence = new Map<string, AuthorityReport<AfipPayload>[]>();
    for (const r of reports) {
      const key = `${r.payload.cuit}/${sequenceOf(r.payload.voucher)}`;
      bySequence.set(key, [...(bySequence.get(key) ?? []), r]);
    }
    for (const group of bySequence.values()) {
      group.sort((a, b) => a.payload.voucher.CbteDesde - b.payload.voucher.CbteDesde);
      const first = group[0].payload.voucher;
      let last = await this.wsfe.lastAuthorised(taxpayerOf(group[0]), first.PtoVta, first.CbteTipo);
      for (const report of group) {
        const outcome = await this.authorise(report, last);
        if (!outcome) continue;
        outcomes[report.reportId] = outcome;
        if (outcome.kind === 'accepted') last = { number: outcome.receipt.CbteHasta, date: outcome.receipt.CbteFch };
      }
    }
    return { outcomes };
  }

  /** One voucher: AFIP's answer, or undefined while it waits for its predecessor. */
  private async authorise(report: AuthorityReport<AfipPayload>, last: LastVoucher): Promise<AuthorityOutcome<AfipReceipt> | undefined> {
    const { cuit, voucher: v, requestedAt } = report.payload;
    if (v.CbteDesde > last.number + 1 && Date.now() - Date.parse(requestedAt) < HOLD_MS) return undefined;
    const today = afipDate(new Date());
    const errors = validateVoucher(v, { last, today });
    const receipt = errors.length ? afipAnswer(cuit, v, { Errors: errors }) : await this.wsfe.authorise(taxpayerOf(report), v);
    return outcomeOf(receipt);
  }

  /** After a lost answer: AFIP holds this voucher under its number (FECompConsultar), or nothing. */
  async recover(report: AuthorityReport<AfipPayload>): Promise<AuthorityOutcome<AfipReceipt> | undefined> {
    const { cuit, voucher: v } = report.payload;
    const held = await this.wsfe.consult(taxpayerOf(report), v.PtoVta, v.CbteTipo, v.CbteDesde);
    if (!held || held.Resultado !== 'A' || !sameVoucher(v, held)) return undefined;
    return {
      kind: 'accepted',
      final: true,
      receipt: afipAnswer(cuit, v, { CAE: held.CodAutorizacion, CAEFchVto: held.FchVto, CbteFch: held.CbteFch ?? '', FchProceso: held.FchProceso }),
    };
  }

  /** `last-voucher` (FECompUltimoAutorizado), `get-voucher` (FECompConsultar; 602 → 404), the catalogs (FEParamGet*). */
  async read(name: string, params: Readonly<Record<string, unknown>>, supplier: { readonly id: string; readonly profile: { readonly identifiers: readonly { scheme: string; id: string }[] } }): Promise<unknown> {
    const taxpayer = { cuit: supplier.profile.identifiers.find((i) => i.scheme === CUIT_SCHEME)?.id ?? '', supplierId: supplier.id };
    if (name === 'last-voucher') {
      const { PtoVta, CbteTipo } = params as { PtoVta: number; CbteTipo: number };
      return { PtoVta, CbteTipo, CbteNro: (await this.wsfe.lastAuthorised(taxpayer, PtoVta, CbteTipo)).number };
    }
    if (name === 'get-voucher') {
      const { PtoVta, CbteTipo, CbteNro } = params as { PtoVta: number; CbteTipo: number; CbteNro: number };
      const held = await this.wsfe.consult(taxpayer, PtoVta, CbteTipo, CbteNro);
      if (!held) throw new AppError('not_found', 'AFIP.602', 'Sin Resultados: - No existen datos en nuestros registros para los parametros ingresados.', { retriable: false });
      return held;
    }
    // Own keys only: `constructor` or `toString` is no catalog.
    if (Object.hasOwn(CATALOGS, name)) return this.wsfe.catalog(taxpayer, name as CatalogName);
    throw new AppError('not_found', 'AFIP.UNKNOWN_READ', `No AFIP read ${name}.`, { retriable: false });
  }
}

const taxpayerOf = (report: AuthorityReport<AfipPayload>): Taxpayer => ({ cuit: report.payload.cuit, supplierId: report.supplierId });

function outcomeOf(receipt: AfipReceipt): AuthorityOutcome<AfipReceipt> {
  if (receipt.Resultado === 'A') return { kind: 'accepted', final: true, receipt };
  // AFIP states a refused voucher's reasons in Errors (the request) and in the detail's Observaciones.
  const reasons = [...receipt.Errors, ...receipt.Observaciones];
  return {
    kind: 'rejected',
    receipt,
    error: { code: 'R', message: reasons.map((e) => `${e.Code}: ${e.Msg}`).join('; '), details: reasons.map((e) => ({ code: String(e.Code), message: e.Msg })) },
  };
}
