/**
 * The gateway's side of the engine's inbound callback (docs/peppol-as4.md, "Inbound") for tests:
 * records every document an engine hands over and answers as a test scripts it (default
 * `200 {"status":"accepted"}`; 404 for receivers declared not hosted; queued one-off statuses).
 */
import { type LocalServer, listenLocally } from '../../libs/areas/src/shared/testing/local-server';

export interface HandedOver {
  readonly secret: string | undefined;
  readonly document: Record<string, string>;
  readonly answeredWith: number;
}

export class RecordingInboundCallback {
  readonly received: HandedOver[] = [];
  private readonly notHosted = new Set<string>();
  private readonly nextStatuses: number[] = [];
  private server!: LocalServer;

  async start(): Promise<this> {
    this.server = await listenLocally((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const document = JSON.parse(body) as Record<string, string>;
        const status = this.nextStatuses.shift() ?? (this.notHosted.has(document.receiverParticipantId) ? 404 : 200);
        this.received.push({ secret: req.headers['x-engine-secret'] as string | undefined, document, answeredWith: status });
        res.statusCode = status;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(status === 200 ? { status: 'accepted' } : status === 404 ? { code: 'PEPPOL.RECEIVER_NOT_SERVICED' } : { code: 'TEST.UNAVAILABLE' }));
      });
    });
    return this;
  }

  get url(): string {
    return `${this.server.url}/internal/peppol/inbound`;
  }

  /** The gateway answers 404 PEPPOL.RECEIVER_NOT_SERVICED for this participant. */
  notHosting(participantId: string): void {
    this.notHosted.add(participantId);
  }

  /** The next hand-over is answered with `status` (then the defaults again). */
  answerNextWith(status: number): void {
    this.nextStatuses.push(status);
  }

  handedOver(messageId: string): HandedOver[] {
    return this.received.filter((r) => r.document.messageId === messageId);
  }

  close(): Promise<void> {
    return this.server.stop();
  }
}
