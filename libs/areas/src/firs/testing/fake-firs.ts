/**
 * A local FIRS MBS for the live client's tests: the endpoints under `/api/v1/` the service calls, on the
 * wire as the MBS collection shows them (`x-api-key`/`x-api-secret` checked: 401 otherwise; `{code,
 * data}` and FIRS's error body), with the portal's rules (portal.ts) over an in-memory store.
 * Failure injection: `failNext(path, status)`, `loseNextAnswer(path)` (done, then the connection cut).
 */
import type http from 'node:http';
import { type LocalServer, answerJson, listenLocally, requestText } from '../../shared/testing/local-server';
import { type FirsStore, type SignedInvoice, type Taxpayer, authenticate, confirm, newBusinessId, newServiceId, sign, updatePayment, validateInvoice, validateIrn } from '../portal';

class MemoryFirsStore implements FirsStore {
  readonly taxpayers = new Map<string, Taxpayer>();
  readonly signatures = new Map<string, SignedInvoice>();
  async taxpayer(tin: string, email: string) {
    if (!this.taxpayers.has(tin)) this.taxpayers.set(tin, { tin, email, businessId: newBusinessId(), serviceId: newServiceId() });
    return this.taxpayers.get(tin)!;
  }
  async taxpayerByBusiness(businessId: string) {
    return [...this.taxpayers.values()].find((t) => t.businessId === businessId);
  }
  async signed(irn: string) {
    return this.signatures.get(irn);
  }
  async sign(invoice: SignedInvoice) {
    if (this.signatures.has(invoice.irn)) return false;
    this.signatures.set(invoice.irn, invoice);
    return true;
  }
  async setPayment(irn: string, status: string, reference?: string) {
    const signed = this.signatures.get(irn);
    if (!signed) return false;
    this.signatures.set(irn, { ...signed, paymentStatus: status, ...(reference ? { reference } : {}) });
    return true;
  }
}

export class FakeFirs {
  readonly store = new MemoryFirsStore();
  readonly calls: string[] = [];
  private readonly failures = new Map<string, number[]>();
  private readonly losses = new Map<string, number>();
  private server?: LocalServer;

  private constructor(private readonly apiKey: string, private readonly apiSecret: string) {}

  static async start(apiKey: string, apiSecret: string): Promise<FakeFirs & { url: string }> {
    const fake = new FakeFirs(apiKey, apiSecret);
    fake.server = await listenLocally((req, res) => void fake.handle(req, res));
    return Object.assign(fake, { url: fake.server.url });
  }

  async stop(): Promise<void> {
    await this.server?.stop();
  }

  failNext(path: string, status: number, count = 1): void {
    this.failures.set(path, [...(this.failures.get(path) ?? []), ...Array.from({ length: count }, () => status)]);
  }

  loseNextAnswer(path: string): void {
    this.losses.set(path, (this.losses.get(path) ?? 0) + 1);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const text = await requestText(req);
    const send = (status: number, body: unknown) => answerJson(res, status, body);
    const path = (req.url ?? '').replace(/^\/api\/v1\//, '').split('?')[0];
    this.calls.push(`${req.method} ${path}`);
    if (req.headers['x-api-key'] !== this.apiKey || req.headers['x-api-secret'] !== this.apiSecret) return send(401, { code: 401, message: 'Unauthorized' });
    const route = path.replace(/\/[^/]*$/, '/{id}');
    const failure = (this.failures.get(path) ?? this.failures.get(route))?.shift();
    if (failure) return send(failure, { code: failure, message: 'Injected failure' });
    const body = text ? JSON.parse(text) : {};
    const id = decodeURIComponent(path.split('/').pop() ?? '');
    const answer =
      req.method === 'POST' && path === 'utilities/authenticate' ? await authenticate(this.store, body)
      : req.method === 'POST' && path === 'invoice/irn/validate' ? await validateIrn(this.store, body)
      : req.method === 'POST' && path === 'invoice/validate' ? await validateInvoice(this.store, body)
      : req.method === 'POST' && path === 'invoice/sign' ? await sign(this.store, body)
      : req.method === 'GET' && path.startsWith('invoice/confirm/') ? await confirm(this.store, id)
      : req.method === 'PATCH' && path.startsWith('invoice/update/') ? await updatePayment(this.store, id, body)
      : { status: 404, body: { code: 404, message: 'Not Found' } };
    const lose = this.losses.get(path) ?? 0;
    if (lose > 0) {
      this.losses.set(path, lose - 1);
      req.socket.destroy();
      return;
    }
    send(answer.status, answer.body);
  }
}
