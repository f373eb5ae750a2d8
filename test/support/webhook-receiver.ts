// A webhook subscriber's endpoint for tests, and the settings the apps need to send to it.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export interface ReceivedWebhook {
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  readonly answeredWith: number;
}

/**
 * A subscriber's endpoint on 127.0.0.1: answers with `statuses` in turn, then 200; with an empty body, or
 * with `answer`'s JSON (given the count of requests received so far) when given.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private server!: http.Server;

  constructor(
    private readonly statuses: number[] = [],
    private readonly answer?: (received: number) => unknown,
  ) {}

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const status = this.statuses.length > 0 ? this.statuses.shift()! : 200;
        this.received.push({ headers: req.headers, body, answeredWith: status });
        res.statusCode = status;
        if (this.answer) res.setHeader('content-type', 'application/json').end(JSON.stringify(this.answer(this.received.length)));
        else res.end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/einvoice-hook`;
  }

  close(): Promise<void> {
    // Never started (its suite failed before): nothing to close.
    if (!this.server) return Promise.resolve();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Whether `received` carries a valid Standard Webhooks signature under `secret`, checked as a
 * subscriber would: the specification's own `standardwebhooks` package (README "Webhooks").
 */
export function signedCorrectly(secret: string, received: Pick<ReceivedWebhook, 'headers' | 'body'>): boolean {
  const headers = Object.fromEntries(Object.entries(received.headers).map(([name, value]) => [name, String(value)]));
  try {
    new Webhook(secret).verify(received.body, headers);
    return true;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return false;
    throw error;
  }
}

/**
 * What the apps need for webhooks to a loopback receiver with quick retries, set by the tests
 * themselves so that a bare `jest` run and `npm test` agree.
 */
export const webhookTestEnv = {
  // The run's key (scripts/test.mjs): suites running at once share the workers' consumer groups, so a
  // supplier onboarded here may be reported by another suite's worker, which must open its secrets.
  SECRETS_KEY: process.env.SECRETS_KEY ?? randomBytes(32).toString('base64'),
  WEBHOOK_ALLOW_LOOPBACK: 'true',
  WEBHOOK_ATTEMPTS: '6',
  WEBHOOK_BACKOFF_BASE_MS: '300',
  WEBHOOK_BACKOFF_MAX_MS: '2000',
  WEBHOOK_SWEEP_INTERVAL_MS: '2000',
};
