/**
 * The Argentine area's connector, one for the sandbox and for AFIP (a `Wsfe`). The reporting worker hands
 * it a taxpayer's waiting vouchers; they go to AFIP sorted per sequence (CUIT, point of sale, type): those
 * with numbers by number, then those sent without (issue #44), each taking the sequence's next number as
 * it goes (voucher-numbers.ts). A voucher ahead of its sequence waits for its predecessor (up to `HOLD_MS`
 * after its request) instead of being refused, so concurrent calls for one sequence are all authorised in
 * order. Each voucher is checked first with AFIP's own validations and codes (validations.ts) against the
 * sequence's last number: a voucher AFIP would refuse is answered R without calling AFIP. After a lost
 * answer, AFIP is asked what it holds under the number (FECompConsultar) before anything is sent again.
 */
import { AppError } from '@einvoice/domain';
import type { AuthorityConnector, AuthorityOutcome, AuthorityReport, BatchOutcome } from '../registry/authority';
import { CATALOGS, type CatalogName } from './catalogs';
import { CUIT_SCHEME, sequenceOf } from './codec';
import { type AfipError, type VoucherRequest, afipDate, afipTimestamp, validateVoucher } from './validations';
import { type RequestedVoucher, type VoucherNumbers, isNumbered, numbered } from './voucher-numbers';
import { type AfipReceipt, type LastVoucher, STALE_NUMBER, type Taxpayer, type Wsfe } from './wsfe';

/** How long a voucher ahead of its sequence waits for its predecessor before AFIP's 10016. */
export const HOLD_MS = 5_000;
/** Numbers a voucher sent without one tries when AFIP answers that another client took each first (10016). */
export const NEXT_NUMBER_ATTEMPTS = 5;

export interface AfipPayload {
  readonly cuit: string;
  /** As the caller sent it: with its numbers (the seed's form) or without (the gateway numbers it). */
  readonly voucher: RequestedVoucher;
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
  constructor(
    private readonly wsfe: Wsfe,
    private readonly numbers: VoucherNumbers,
  ) {}

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
      // Stable: vouchers without numbers keep the order they were requested in (the worker's).
      group.sort((a, b) => sendingRank(a.payload.voucher) - sendingRank(b.payload.voucher));
      const first = group[0].payload.voucher;
      let last = await this.wsfe.lastAuthorised(taxpayerOf(group[0]), first.PtoVta, first.CbteTipo);
      for (const report of group) {
        const answered = isNumbered(report.payload.voucher) ? await this.authorise(report, report.payload.voucher, last) : await this.authoriseNext(report, last);
        if (!answered) continue;
        outcomes[report.reportId] = answered.outcome;
        last = answered.last;
      }
    }
    return { outcomes };
  }

  /** A voucher with its numbers: AFIP's answer and the sequence's last after it, or undefined while it waits for its predecessor. */
  private async authorise(report: AuthorityReport<AfipPayload>, v: VoucherRequest, last: LastVoucher): Promise<Answered | undefined> {
    if (v.CbteDesde > last.number + 1 && Date.now() - Date.parse(report.payload.requestedAt) < HOLD_MS) return undefined;
    const errors = validateVoucher(v, { last, today: afipDate(new Date()) });
    const receipt = errors.length ? afipAnswer(report.payload.cuit, v, { Errors: errors }) : await this.wsfe.authorise(taxpayerOf(report), v);
    return answeredWith(receipt, last);
  }

  /**
   * A voucher sent without numbers (#44): the sequence's next, recorded against the report before AFIP
   * hears of it. When AFIP answers that the number is taken (10016: a client outside this service, or this
   * voucher itself after an earlier call whose answer was lost), AFIP is asked what it holds there, then the
   * number after AFIP's last is tried, up to NEXT_NUMBER_ATTEMPTS numbers.
   */
  private async authoriseNext(report: AuthorityReport<AfipPayload>, last: LastVoucher): Promise<Answered> {
    const taxpayer = taxpayerOf(report);
    for (let attempt = 1; ; attempt += 1) {
      const v = numbered(report.payload.voucher, last.number + 1);
      const errors = validateVoucher(v, { last, today: afipDate(new Date()) });
      if (errors.length) return answeredWith(afipAnswer(report.payload.cuit, v, { Errors: errors }), last);
      await this.numbers.claim(report.reportId, report.payload.cuit, v);
      const receipt = await this.wsfe.authorise(taxpayer, v);
      if (receipt.Resultado === 'A' || !numberTaken(receipt) || attempt >= NEXT_NUMBER_ATTEMPTS) return answeredWith(receipt, last);
      const held = await this.heldAs(report, v);
      if (held) return { outcome: held, last: { number: v.CbteHasta, date: held.receipt.CbteFch } };
      const now = await this.wsfe.lastAuthorised(taxpayer, v.PtoVta, v.CbteTipo);
      // The number is still free: AFIP's 10016 was about the date, which another number does not change.
      if (now.number < v.CbteDesde) return answeredWith(receipt, last);
      last = now;
    }
  }

  /** After a lost answer: AFIP holds this voucher under its number (FECompConsultar), or nothing. */
  async recover(report: AuthorityReport<AfipPayload>): Promise<AuthorityOutcome<AfipReceipt> | undefined> {
    const { voucher } = report.payload;
    // Sent without numbers: the number last tried for it, if it ever went to AFIP.
    const first = isNumbered(voucher) ? voucher.CbteDesde : await this.numbers.claimed(report.reportId);
    return first === undefined ? undefined : this.heldAs(report, numbered(voucher, first));
  }

  /** The voucher as authorised when AFIP holds it under its number (the same receiver, amounts and date), else undefined. */
  private async heldAs(report: AuthorityReport<AfipPayload>, v: VoucherRequest): Promise<{ kind: 'accepted'; final: true; receipt: AfipReceipt } | undefined> {
    const held = await this.wsfe.consult(taxpayerOf(report), v.PtoVta, v.CbteTipo, v.CbteDesde);
    if (!held || held.Resultado !== 'A' || !sameVoucher(v, held)) return undefined;
    return {
      kind: 'accepted',
      final: true,
      receipt: afipAnswer(report.payload.cuit, v, { CAE: held.CodAutorizacion, CAEFchVto: held.FchVto, CbteFch: held.CbteFch ?? '', FchProceso: held.FchProceso }),
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

/** AFIP's answer to one voucher, and the sequence's last voucher after it. */
interface Answered {
  readonly outcome: AuthorityOutcome<AfipReceipt>;
  readonly last: LastVoucher;
}

const answeredWith = (receipt: AfipReceipt, last: LastVoucher): Answered => ({
  outcome: outcomeOf(receipt),
  last: receipt.Resultado === 'A' ? { number: receipt.CbteHasta, date: receipt.CbteFch } : last,
});

/** Vouchers with numbers first, by number; then those without. */
const sendingRank = (v: RequestedVoucher) => v.CbteDesde ?? Number.MAX_SAFE_INTEGER;

/** AFIP's 10016: the number is not the next to authorise (or the date is before the last voucher's). */
const numberTaken = (receipt: AfipReceipt) => [...receipt.Errors, ...receipt.Observaciones].some((e) => e.Code === STALE_NUMBER.Code);

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
