/**
 * JoFotara's answer (the SDK's tests; README.md "JoFotara"): `EINV_RESULTS {status, INFO, WARNINGS,
 * ERRORS}`, `EINV_STATUS` SUBMITTED | ALREADY_SUBMITTED | NOT_SUBMITTED, `EINV_SINGED_INVOICE` (sic),
 * `EINV_QR`, `EINV_NUM`, `EINV_INV_UUID`. Success is a status other than ERROR with SUBMITTED or
 * ALREADY_SUBMITTED (a resend is idempotent); a refusal is NOT_SUBMITTED (HTTP 400) with its errors;
 * `invoice-persist` with a 500 inside is JoFotara's own fault, retried.
 */
import { AppError } from '@einvoice/domain';
import type { AuthorityOutcome } from '../registry/authority';
import type { JofotaraMessage } from './checks';

export interface JofotaraResponse {
  readonly EINV_RESULTS: { readonly status: 'PASS' | 'ERROR'; readonly INFO: JofotaraMessage[]; readonly WARNINGS: JofotaraMessage[]; readonly ERRORS: JofotaraMessage[] };
  readonly EINV_STATUS: 'SUBMITTED' | 'ALREADY_SUBMITTED' | 'NOT_SUBMITTED';
  readonly EINV_SINGED_INVOICE?: string | null;
  readonly EINV_QR?: string | null;
  readonly EINV_NUM?: string | null;
  readonly EINV_INV_UUID?: string | null;
}

/** What the service keeps of JoFotara's answer. */
export interface JofotaraReceipt {
  readonly status: 'SUBMITTED' | 'ALREADY_SUBMITTED';
  readonly uuid: string;
  readonly number?: string;
  readonly qr?: string;
  /** The invoice as JoFotara signed it, base64. */
  readonly signedInvoice?: string;
  readonly warnings?: ReadonlyArray<{ readonly code: string; readonly message: string }>;
}

export const jofotaraUnavailable = (message: string) => new AppError('unavailable', 'JOFOTARA.UNAVAILABLE', message, { retriable: true });

export function outcomeOf(response: JofotaraResponse): AuthorityOutcome<JofotaraReceipt> {
  const errors = response.EINV_RESULTS?.ERRORS ?? [];
  const fault = errors.find((e) => e.EINV_CODE === 'invoice-persist' && /\b5\d\d\b/.test(e.EINV_MESSAGE));
  if (fault) throw jofotaraUnavailable(`JoFotara failed to store the invoice (${fault.EINV_MESSAGE}); retried.`);
  if (response.EINV_RESULTS?.status !== 'ERROR' && (response.EINV_STATUS === 'SUBMITTED' || response.EINV_STATUS === 'ALREADY_SUBMITTED')) {
    const warnings = (response.EINV_RESULTS?.WARNINGS ?? []).map((w) => ({ code: w.EINV_CODE, message: w.EINV_MESSAGE }));
    return {
      kind: 'accepted',
      final: true,
      receipt: {
        status: response.EINV_STATUS,
        uuid: response.EINV_INV_UUID ?? '',
        ...(response.EINV_NUM ? { number: response.EINV_NUM } : {}),
        ...(response.EINV_QR ? { qr: response.EINV_QR } : {}),
        ...(response.EINV_SINGED_INVOICE ? { signedInvoice: response.EINV_SINGED_INVOICE } : {}),
        ...(warnings.length ? { warnings } : {}),
      },
    };
  }
  const details = errors.map((e) => ({ code: e.EINV_CODE, message: e.EINV_MESSAGE }));
  return { kind: 'rejected', error: { code: 'NOT_SUBMITTED', message: details.map((d) => `${d.code}: ${d.message}`).join('; ') || 'JoFotara did not take the invoice.', ...(details.length ? { details } : {}) } };
}

/** An answer in JoFotara's shape (the sandbox's and the tests' fake's). */
export function jofotaraAnswer(status: JofotaraResponse['EINV_STATUS'], errors: JofotaraMessage[], accepted?: { uuid: string; number: string; qr: string; signed: string }): JofotaraResponse {
  return {
    EINV_RESULTS: {
      status: errors.length ? 'ERROR' : 'PASS',
      INFO: errors.length ? [] : [{ type: 'INFO', status: 'PASS', EINV_CODE: 'XSD_VALID', EINV_CATEGORY: 'XSD validation', EINV_MESSAGE: 'Complied with UBL 2.1 standards' }],
      WARNINGS: [],
      ERRORS: errors,
    },
    EINV_STATUS: status,
    EINV_SINGED_INVOICE: accepted?.signed ?? null,
    EINV_QR: accepted?.qr ?? null,
    EINV_NUM: accepted?.number ?? null,
    EINV_INV_UUID: accepted?.uuid ?? null,
  };
}
