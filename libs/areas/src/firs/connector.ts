/**
 * FIRS's steps for one invoice (README.md "FIRS"), sandbox or live (the transport): validate the IRN,
 * validate the invoice, sign it; the reporting worker then stores the answer (the fourth step). A
 * refusal at a step refuses the invoice with FIRS's message and that step's code; an unavailable FIRS is
 * retried. An IRN is never signed twice: after a lost answer the worker asks FIRS first (`confirm`), and
 * a signed IRN is taken as signed. The QR is made here, as FIRS documents it: `{"irn": "<IRN>.<unix
 * time>", "certificate": "<certificate>"}` encrypted with FIRS's public key (RSA, PKCS#1 v1.5), base64.
 */
import { constants, publicEncrypt } from 'node:crypto';
import { AppError } from '@einvoice/domain';
import type { SupplierProfile } from '@einvoice/domain';
import type { AuthorityConnector, AuthorityError, AuthorityOutcome, AuthorityReport, CredentialCheck } from '../registry/authority';
import { EMAIL_SECRET, PASSWORD_SECRET, TIN_SCHEME } from './names';
import type { FirsAnswer } from './portal';

/** What FIRS is asked, wherever it is. */
export interface FirsTransport {
  authenticate(body: { email: string; password: string; tin: string }): Promise<FirsAnswer>;
  validateIrn(body: { invoice_reference: string; business_id: string; irn: string }): Promise<FirsAnswer>;
  validateInvoice(invoice: Record<string, unknown>): Promise<FirsAnswer>;
  sign(invoice: Record<string, unknown>): Promise<FirsAnswer>;
  confirm(irn: string): Promise<FirsAnswer>;
  updatePayment(irn: string, body: { payment_status: string; reference?: string }): Promise<FirsAnswer>;
}

/** FIRS's key for the QR: its public key (PEM) and the certificate string of `crypto_keys.txt`. */
export interface FirsCryptoKeys {
  readonly publicKey: string;
  readonly certificate: string;
}

export interface FirsPayload {
  readonly irn: string;
  readonly invoiceReference: string;
  readonly businessId: string;
}

export interface FirsReceipt {
  readonly irn: string;
  readonly qr: string;
  readonly signedAt: string;
  /** FIRS's answer to the signing: `{code, data: {ok}}`. */
  readonly authorityResponse: { readonly code: number; readonly data: unknown };
  readonly stepsCompleted: readonly string[];
}

export const FIRS_STEPS = ['irn_validation', 'invoice_validation', 'invoice_signing', 'database_storage'] as const;

/** FIRS down, or its rate limit (429: `rate_limited`, counted as such in the authority metrics): retried. */
const unavailable = (step: string, answer: FirsAnswer) =>
  new AppError(answer.status === 429 ? 'rate_limited' : 'unavailable', answer.status === 429 ? 'FIRS.429' : 'FIRS.UNAVAILABLE', `FIRS did not complete ${step} (HTTP ${answer.status}${answer.body?.message ? `: ${answer.body.message}` : ''}); retried.`, {
    retriable: true,
    ...(answer.retryAfterMs !== undefined ? { details: { retryAfterMs: answer.retryAfterMs } } : {}),
  });

export function firsQr(keys: FirsCryptoKeys, irn: string, at = Date.now()): string {
  const plain = JSON.stringify({ irn: `${irn}.${Math.floor(at / 1000)}`, certificate: keys.certificate });
  return publicEncrypt({ key: keys.publicKey, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(plain, 'utf8')).toString('base64');
}

export class FirsConnector implements AuthorityConnector<FirsPayload, FirsReceipt> {
  constructor(
    private readonly transport: FirsTransport,
    private readonly keys: () => Promise<FirsCryptoKeys>,
  ) {}

  async submit(report: AuthorityReport<FirsPayload>): Promise<AuthorityOutcome<FirsReceipt>> {
    const { irn, invoiceReference, businessId } = report.payload;
    const invoice = JSON.parse(report.document.bytes) as Record<string, unknown>;
    const steps: Array<[string, () => Promise<FirsAnswer>]> = [
      ['irn_validation', () => this.transport.validateIrn({ invoice_reference: invoiceReference, business_id: businessId, irn })],
      ['invoice_validation', () => this.transport.validateInvoice(invoice)],
      ['invoice_signing', () => this.transport.sign(invoice)],
    ];
    let signing: FirsAnswer | undefined;
    for (const [step, call] of steps) {
      const answer = await call();
      if (answer.status >= 500 || answer.status === 429 || answer.status === 0) throw unavailable(step, answer);
      if (answer.status >= 400) return { kind: 'rejected', error: refusal(step, answer) };
      signing = answer;
    }
    return { kind: 'accepted', final: true, receipt: await this.receipt(irn, signing!) };
  }

  /** After a lost answer: FIRS holds the signed invoice or not (then the steps run again; nothing was signed). */
  async recover(report: AuthorityReport<FirsPayload>): Promise<AuthorityOutcome<FirsReceipt> | undefined> {
    const answer = await this.transport.confirm(report.payload.irn);
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw unavailable('confirm', answer);
    return { kind: 'accepted', final: true, receipt: await this.receipt(report.payload.irn, { status: 201, body: { code: 201, data: { ok: true } } }) };
  }

  /** The payment status at FIRS (`PATCH invoice/update/{irn}`): a value set, so sending it again is harmless. */
  async amend(report: AuthorityReport<FirsPayload>, _receipt: FirsReceipt, change: Record<string, unknown>): Promise<{ readonly kind: 'amended' } | { readonly kind: 'refused'; readonly error: AuthorityError }> {
    const answer = await this.transport.updatePayment(report.payload.irn, { payment_status: String(change.payment_status), ...(change.payment_reference ? { reference: String(change.payment_reference) } : {}) });
    if (answer.status >= 500 || answer.status === 429 || answer.status === 0) throw unavailable('payment status update', answer);
    if (answer.status >= 400) return { kind: 'refused', error: { code: `FIRS.UPDATE_${answer.status}`, message: answer.body?.message ?? 'FIRS refused the update.', path: 'payment_status' } };
    return { kind: 'amended' };
  }

  /** Onboarding: FIRS logs the taxpayer in (`utilities/authenticate`); a refusal is a 400 at `password`. */
  async verifyCredentials(secrets: Readonly<Record<string, string>>, profile: SupplierProfile): Promise<CredentialCheck> {
    const tin = profile.identifiers.find((i) => i.scheme === TIN_SCHEME)?.id ?? '';
    const answer = await this.transport.authenticate({ email: secrets[EMAIL_SECRET] ?? '', password: secrets[PASSWORD_SECRET] ?? '', tin });
    if (answer.status >= 500 || answer.status === 0) throw unavailable('authentication', answer);
    if (answer.status >= 400) return { refused: { code: 'FIRS.LOGIN_REFUSED', message: `FIRS refused the login: ${answer.body?.message ?? answer.status}`, path: 'password' } };
    const data = answer.body.data as { business_id: string; service_id: string };
    return { details: { businessId: data.business_id, serviceId: data.service_id } };
  }

  private async receipt(irn: string, signing: FirsAnswer): Promise<FirsReceipt> {
    return {
      irn,
      qr: firsQr(await this.keys(), irn),
      signedAt: new Date().toISOString(),
      authorityResponse: { code: signing.body.code, data: signing.body.data ?? null },
      stepsCompleted: FIRS_STEPS.slice(0, 3),
    };
  }
}

function refusal(step: string, answer: FirsAnswer): AuthorityError {
  const message = answer.body?.error?.public_message ?? answer.body?.message ?? `FIRS refused the invoice at ${step}.`;
  const code = `FIRS.${step.toUpperCase()}_${answer.status}`;
  return { code, message: `${step}: ${message}`, details: [{ code, message }] };
}
