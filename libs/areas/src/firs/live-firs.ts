/**
 * FIRS MBS, live (README.md "Live mode"): the endpoints under `{FIRS_URL}/api/v1/` with the service's
 * `x-api-key` and `x-api-secret` (FIRS_API_KEY, FIRS_API_SECRET). Network failures and timeouts are
 * answered as status 0 (unavailable: retried).
 */
import { AuthorityHttp } from '../shared/authority-http';
import type { FirsTransport } from './connector';
import type { FirsAnswer } from './portal';

export const FIRS_URL = 'https://einvoice.firs.gov.ng';

export class LiveFirsTransport implements FirsTransport {
  private readonly http: AuthorityHttp;

  constructor(private readonly options: { readonly baseUrl: string; readonly apiKey: string; readonly apiSecret: string; readonly timeoutMs?: number }) {
    this.http = new AuthorityHttp({ area: 'ng', authority: 'FIRS', timeoutMs: options.timeoutMs ?? 30_000, codes: { unavailable: 'FIRS.UNAVAILABLE' } });
  }

  authenticate = (body: { email: string; password: string; tin: string }) => this.call('POST', 'utilities/authenticate', 'utilities/authenticate', { email: body.email, password: body.password });
  validateIrn = (body: { invoice_reference: string; business_id: string; irn: string }) => this.call('POST', 'invoice/irn/validate', 'invoice/irn/validate', body);
  validateInvoice = (invoice: Record<string, unknown>) => this.call('POST', 'invoice/validate', 'invoice/validate', invoice);
  sign = (invoice: Record<string, unknown>) => this.call('POST', 'invoice/sign', 'invoice/sign', invoice);
  confirm = (irn: string) => this.call('GET', 'invoice/confirm/{irn}', `invoice/confirm/${encodeURIComponent(irn)}`);
  updatePayment = (irn: string, body: { payment_status: string; reference?: string }) => this.call('PATCH', 'invoice/update/{irn}', `invoice/update/${encodeURIComponent(irn)}`, body);

  private async call(method: string, name: string, path: string, body?: unknown): Promise<FirsAnswer> {
    try {
      const answer = await this.http.send({
        method,
        name,
        url: `${this.options.baseUrl}/api/v1/${path}`,
        headers: { 'x-api-key': this.options.apiKey, 'x-api-secret': this.options.apiSecret, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const parsed = answer.json;
      const wait = answer.retryAfterMs !== undefined ? { retryAfterMs: answer.retryAfterMs } : {};
      if (parsed === undefined) return { status: answer.status, body: { code: answer.status }, ...wait };
      if (typeof parsed === 'string') return { status: answer.status, body: { code: answer.status, message: parsed.slice(0, 300) }, ...wait };
      return { status: answer.status, body: parsed as FirsAnswer['body'], ...wait };
    } catch (error) {
      // The connector reads status 0 as FIRS unavailable (retried).
      return { status: 0, body: { code: 0, message: (error as Error).message } };
    }
  }
}
