/**
 * JoFotara, live (README.md "Live mode"): `POST {JOFOTARA_URL}/core/invoices/` with the device's
 * `Client-Id` and `Secret-Key`, body `{"invoice": "<base64 UBL>"}`. The answer is read by response.ts;
 * 403 is refused credentials (final); 5xx, timeouts and JoFotara's `invoice-persist` 500 are retried.
 * A resend of the same invoice (its ID and UUID) is answered ALREADY_SUBMITTED with the original's
 * uuid and QR, so after a lost answer the worker simply sends again (`recover` asks nothing).
 */
import { AppError } from '@einvoice/domain';
import type { AuthorityConnector, AuthorityOutcome, AuthorityReport, CredentialCheck } from '../registry/authority';
import { type AuthorityAnswer, AuthorityHttp } from '../shared/authority-http';
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
  private readonly http: AuthorityHttp;

  constructor(private readonly options: LiveJofotaraOptions) {
    this.http = new AuthorityHttp({ area: 'jo', authority: 'JoFotara', timeoutMs: options.timeoutMs ?? 30_000, codes: { unavailable: 'JOFOTARA.UNAVAILABLE' } });
  }

  async submit(report: AuthorityReport): Promise<AuthorityOutcome<JofotaraReceipt>> {
    const credentials = await this.options.credentialsOf(report.supplierId);
    if (!credentials) throw new AppError('validation', 'JOFOTARA.NO_CREDENTIALS', 'The supplier has no JoFotara client id and secret.', { retriable: false });
    const answer = await this.post(credentials.clientId, credentials.secret, Buffer.from(report.document.bytes, 'utf8').toString('base64'));
    if (answer.status === 403) throw new AppError('validation', 'JOFOTARA.403', 'JoFotara refused the supplier\'s client id and secret (HTTP 403).', { retriable: false });
    const body = answer.json;
    if ((answer.status === 200 || answer.status === 400) && body && typeof body === 'object' && 'EINV_STATUS' in body) return outcomeOf(body as JofotaraResponse);
    throw jofotaraUnavailable(`JoFotara answered HTTP ${answer.status} without a JoFotara answer; retried.`);
  }

  async recover(): Promise<undefined> {
    return undefined;
  }

  /** No endpoint checks credentials alone: an empty invoice is refused (400) for valid ones and 403 for others. */
  async verifyCredentials(secrets: Readonly<Record<string, string>>): Promise<CredentialCheck> {
    const answer = await this.post(secrets[CLIENT_ID_SECRET] ?? '', secrets[CLIENT_SECRET_SECRET] ?? '', '');
    if (answer.status === 403 || answer.status === 401) return { refused: REFUSED_CREDENTIALS };
    if (answer.outcome === 'unavailable' || answer.outcome === 'rate_limited') throw jofotaraUnavailable(`JoFotara answered HTTP ${answer.status} while checking the credentials; try again.`);
    return {};
  }

  private post(clientId: string, secret: string, invoice: string): Promise<AuthorityAnswer> {
    return this.http.send({
      method: 'POST',
      name: '/core/invoices/',
      url: `${this.options.baseUrl}/core/invoices/`,
      headers: { 'Client-Id': clientId, 'Secret-Key': secret, 'Content-Type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ invoice }),
    });
  }
}
