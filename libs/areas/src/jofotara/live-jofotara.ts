/**
 * JoFotara, live (README.md "Live mode"): `POST {JOFOTARA_URL}/core/invoices/` with the device's
 * `Client-Id` and `Secret-Key`, body `{"invoice": "<base64 UBL>"}`. The answer is read by response.ts;
 * 403 is refused credentials (final); 5xx, timeouts and JoFotara's `invoice-persist` 500 are retried.
 * A resend of the same invoice (its ID and UUID) is answered ALREADY_SUBMITTED with the original's
 * uuid and QR, so after a lost answer the worker simply sends again (`recover` asks nothing).
 */
import { AppError } from '@einvoice/domain';
import type { AuthorityConnector, AuthorityOutcome, AuthorityReport, CredentialCheck } from '../registry/authority';
import { CLIENT_ID_SECRET, CLIENT_SECRET_SECRET } from './codec';
import { type JofotaraReceipt, type JofotaraResponse, jofotaraUnavailable, outcomeOf } from './response';
import { REFUSED_CREDENTIALS } from './sandbox-jofotara';

export const JOFOTARA_URL = 'https://backend.jofotara.gov.jo';

export interface LiveJofotaraOptions {
  readonly baseUrl: string;
  /** The supplier's device credentials (sealed at onboarding). */
  readonly credentialsOf: (supplierId: string) => Promise<{ readonly clientId: string; readonly secret: string } | undefined>;
  readonly timeoutMs?: number;
}

export class LiveJofotara implements AuthorityConnector<unknown, JofotaraReceipt> {
  constructor(private readonly options: LiveJofotaraOptions) {}

  async submit(report: AuthorityReport): Promise<AuthorityOutcome<JofotaraReceipt>> {
    const credentials = await this.options.credentialsOf(report.supplierId);
    if (!credentials) throw new AppError('validation', 'JOFOTARA.NO_CREDENTIALS', 'The supplier has no JoFotara client id and secret.', { retriable: false });
    const { status, body } = await this.post(credentials.clientId, credentials.secret, Buffer.from(report.document.bytes, 'utf8').toString('base64'));
    if (status === 403) throw new AppError('validation', 'JOFOTARA.403', 'JoFotara refused the supplier\'s client id and secret (HTTP 403).', { retriable: false });
    if ((status === 200 || status === 400) && body && typeof body === 'object' && 'EINV_STATUS' in body) return outcomeOf(body as JofotaraResponse);
    throw jofotaraUnavailable(`JoFotara answered HTTP ${status} without a JoFotara answer; retried.`);
  }

  async recover(): Promise<undefined> {
    return undefined;
  }

  /** No endpoint checks credentials alone: an empty invoice is refused (400) for valid ones and 403 for others. */
  async verifyCredentials(secrets: Readonly<Record<string, string>>): Promise<CredentialCheck> {
    const { status } = await this.post(secrets[CLIENT_ID_SECRET] ?? '', secrets[CLIENT_SECRET_SECRET] ?? '', '');
    if (status === 403 || status === 401) return { refused: REFUSED_CREDENTIALS };
    if (status >= 500) throw jofotaraUnavailable(`JoFotara answered HTTP ${status} while checking the credentials; try again.`);
    return {};
  }

  private async post(clientId: string, secret: string, invoice: string): Promise<{ status: number; body: unknown }> {
    let response: Response;
    try {
      response = await fetch(`${this.options.baseUrl}/core/invoices/`, {
        method: 'POST',
        headers: { 'Client-Id': clientId, 'Secret-Key': secret, 'Content-Type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ invoice }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (error) {
      throw jofotaraUnavailable(`JoFotara did not answer: ${(error as Error).message}`);
    }
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  }
}
