/**
 * A local JoFotara for the live client's tests: `POST /core/invoices/` as the ISTD guide and the SDK
 * show it (headers `Client-Id`/`Secret-Key`, body `{invoice: base64}`, 403 for unknown credentials,
 * 200 SUBMITTED / ALREADY_SUBMITTED, 400 NOT_SUBMITTED with `EINV_RESULTS.ERRORS`), judging the bytes
 * it receives with the portal's rules (portal.ts) over an in-memory store. Failure injection:
 * `failNext(status)`, `loseNextAnswer()` (the invoice is taken, the connection cut).
 */
import type http from 'node:http';
import { type LocalServer, answerJson, listenLocally, requestText } from '../../shared/testing/local-server';
import { type PortalStore, type StoredInvoice, submitToPortal } from '../portal';
import { jofotaraAnswer } from '../response';

class MemoryStore implements PortalStore {
  readonly invoices: StoredInvoice[] = [];
  private readonly counters = new Map<string, number>();
  async byId(tin: string, id: string) {
    return this.invoices.find((i) => i.tin === tin && i.id === id);
  }
  async byUuid(tin: string, uuid: string) {
    return this.invoices.find((i) => i.tin === tin && i.uuid === uuid);
  }
  async nextNumber(tin: string) {
    const next = (this.counters.get(tin) ?? 0) + 1;
    this.counters.set(tin, next);
    return `EIN${String(next).padStart(5, '0')}`;
  }
  async insert(invoice: StoredInvoice) {
    if (this.invoices.some((i) => i.tin === invoice.tin && i.id === invoice.id)) return false;
    this.invoices.push(invoice);
    return true;
  }
  async setReturned(tin: string, uuid: string, before: Readonly<Record<string, number>>, after: Readonly<Record<string, number>>) {
    const at = this.invoices.findIndex((i) => i.tin === tin && i.uuid === uuid);
    if (at < 0 || JSON.stringify(this.invoices[at].returned) !== JSON.stringify(before)) return false;
    this.invoices[at] = { ...this.invoices[at], returned: after };
    return true;
  }
}

export class FakeJofotara {
  readonly store = new MemoryStore();
  /** Every request: `Client-Id` and the decoded invoice. */
  readonly received: Array<{ clientId: string; xml: string }> = [];
  private readonly devices = new Map<string, string>();
  private failures: number[] = [];
  private lose = 0;
  private server?: LocalServer;

  static async start(): Promise<FakeJofotara & { url: string }> {
    const fake = new FakeJofotara();
    fake.server = await listenLocally((req, res) => void fake.handle(req, res));
    return Object.assign(fake, { url: fake.server.url });
  }

  async stop(): Promise<void> {
    await this.server?.stop();
  }

  /** A device linked on the portal. */
  linkDevice(clientId: string, secret: string): void {
    this.devices.set(clientId, secret);
  }

  failNext(status: number, count = 1): void {
    this.failures.push(...Array.from({ length: count }, () => status));
  }

  loseNextAnswer(): void {
    this.lose += 1;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const text = await requestText(req);
    const send = (status: number, body: unknown) => answerJson(res, status, body);
    if (req.method !== 'POST' || req.url !== '/core/invoices/') return send(404, { error: 'Not Found' });
    const failure = this.failures.shift();
    if (failure) {
      res.writeHead(failure, { 'content-type': 'text/html' });
      return void res.end('<html><body>Service Unavailable</body></html>');
    }
    const clientId = String(req.headers['client-id'] ?? '');
    if (!this.devices.has(clientId) || this.devices.get(clientId) !== req.headers['secret-key']) return send(403, { error: 'Forbidden' });
    let xml: string;
    try {
      xml = Buffer.from(String(JSON.parse(text).invoice ?? ''), 'base64').toString('utf8');
    } catch {
      xml = '';
    }
    this.received.push({ clientId, xml });
    if (!xml) return send(400, jofotaraAnswer('NOT_SUBMITTED', [{ type: 'ERROR', status: 'ERROR', EINV_CODE: 'XSD_INVALID', EINV_CATEGORY: 'XSD validation', EINV_MESSAGE: 'The invoice is empty.' }]));
    const { httpStatus, body } = await submitToPortal(this.store, clientId, xml);
    if (this.lose > 0) {
      this.lose -= 1;
      req.socket.destroy();
      return;
    }
    send(httpStatus, body);
  }
}
