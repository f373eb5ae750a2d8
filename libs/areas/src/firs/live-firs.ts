/**
 * FIRS MBS, live (README.md "Live mode"): the endpoints under `{FIRS_URL}/api/v1/` with the service's
 * `x-api-key` and `x-api-secret` (FIRS_API_KEY, FIRS_API_SECRET). Network failures and timeouts are
 * answered as status 0 (unavailable: retried).
 */
import type { FirsTransport } from './connector';
import type { FirsAnswer } from './portal';

export const FIRS_URL = 'https://einvoice.firs.gov.ng';

export class LiveFirsTransport implements FirsTransport {
  constructor(private readonly options: { readonly baseUrl: string; readonly apiKey: string; readonly apiSecret: string; readonly timeoutMs?: number }) {}

  authenticate = (body: { email: string; password: string; tin: string }) => this.call('POST', 'utilities/authenticate', { email: body.email, password: body.password });
  validateIrn = (body: { invoice_reference: string; business_id: string; irn: string }) => this.call('POST', 'invoice/irn/validate', body);
  validateInvoice = (invoice: Record<string, unknown>) => this.call('POST', 'invoice/validate', invoice);
  sign = (invoice: Record<string, unknown>) => this.call('POST', 'invoice/sign', invoice);
  confirm = (irn: string) => this.call('GET', `invoice/confirm/${encodeURIComponent(irn)}`);
  updatePayment = (irn: string, body: { payment_status: string; reference?: string }) => this.call('PATCH', `invoice/update/${encodeURIComponent(irn)}`, body);

  private async call(method: string, path: string, body?: unknown): Promise<FirsAnswer> {
    try {
      const response = await fetch(`${this.options.baseUrl}/api/v1/${path}`, {
        method,
        headers: { 'x-api-key': this.options.apiKey, 'x-api-secret': this.options.apiSecret, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
      const text = await response.text();
      let parsed: FirsAnswer['body'];
      try {
        parsed = text ? JSON.parse(text) : { code: response.status };
      } catch {
        parsed = { code: response.status, message: text.slice(0, 300) };
      }
      return { status: response.status, body: parsed };
    } catch (error) {
      return { status: 0, body: { code: 0, message: (error as Error).message } };
    }
  }
}
