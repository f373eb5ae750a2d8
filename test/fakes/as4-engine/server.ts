/**
 * Test-only stand-in for the AS4 engine (engines/as4, phase4; never imported by production code): its
 * control API exactly as docs/peppol-as4.md states it, `POST /outbound` and `GET /health`, every call
 * with `x-engine-secret`. It sends nothing anywhere: it keeps what it was handed and answers as the
 * engine does, a receipt (200) unless the receiver is one of `RECEIVERS` (422 not found, 503 busy). A
 * MessageId it already took is answered with the same receipt (the receiving access point de-duplicates).
 * For today's step only: the exchange between two real engines replaces it once the engine lands.
 */
import type { EngineMessage } from '@einvoice/areas';
import type http from 'node:http';
import { type LocalServer, answerJson as answer, listenLocally, requestText } from '../../../libs/areas/src/shared/testing/local-server';

/** Receivers the stand-in fails as the engine would. */
export const RECEIVERS = {
  /** No SMP registration in the SML: 422 PEPPOL.RECEIVER_NOT_FOUND. */
  unknown: 'iso6523-actorid-upis::9925:be0000000196',
  /** The receiving access point does not answer: 503 PEPPOL.ACCESS_POINT_UNAVAILABLE. */
  unreachable: 'iso6523-actorid-upis::9925:be0000000295',
} as const;

/** One `POST /outbound` body, as taken: the engine client's own message type (libs/areas/src/peppol-ubl/as4-engine.ts). */
export type OutboundMessage = EngineMessage;

const FIELDS = ['messageId', 'senderParticipantId', 'receiverParticipantId', 'documentTypeId', 'processId', 'countryC1', 'payload'] as const;

export class StandInEngine {
  /** Every message taken (200), in order; a repeated MessageId once. */
  readonly sent: OutboundMessage[] = [];
  /** Every `POST /outbound` call, answered or not. */
  calls = 0;
  private server?: LocalServer;
  private readonly receipts = new Map<string, string>();

  constructor(private readonly secret: string) {}

  async start(): Promise<string> {
    this.server = await listenLocally((req, res) => {
      this.handle(req, res).catch((error: unknown) => answer(res, 500, { status: 'failed', code: 'STANDIN.ERROR', message: String(error) }));
    });
    return this.server.url;
  }

  async stop(): Promise<void> {
    await this.server?.stop();
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.headers['x-engine-secret'] !== this.secret) return answer(res, 401, { status: 'failed', code: 'ENGINE.SECRET', message: 'unknown caller' });
    if (req.method === 'GET' && req.url === '/health') return answer(res, 200, { status: 'ok', apCertificate: { subject: 'CN=POP000111', notAfter: '2030-01-01T00:00:00Z' }, mode: 'stand-in' });
    if (req.method !== 'POST' || req.url !== '/outbound') return answer(res, 404, { status: 'failed', code: 'ENGINE.NOT_FOUND', message: `${req.method} ${req.url}` });
    this.calls += 1;
    const body = JSON.parse(await requestText(req)) as Record<string, unknown>;
    const missing = FIELDS.filter((name) => typeof body[name] !== 'string' || body[name] === '');
    if (missing.length) return answer(res, 400, { status: 'failed', code: 'ENGINE.BAD_REQUEST', message: `missing ${missing.join(', ')}` });
    const message = body as unknown as OutboundMessage;
    if (message.receiverParticipantId === RECEIVERS.unknown) {
      return answer(res, 422, { status: 'failed', code: 'PEPPOL.RECEIVER_NOT_FOUND', message: `No SMP registration for ${message.receiverParticipantId} in the SML.`, retriable: false });
    }
    if (message.receiverParticipantId === RECEIVERS.unreachable) {
      return answer(res, 503, { status: 'failed', code: 'PEPPOL.ACCESS_POINT_UNAVAILABLE', message: 'The receiving access point did not answer.', retriable: true });
    }
    let timestamp = this.receipts.get(message.messageId);
    if (!timestamp) {
      timestamp = new Date().toISOString();
      this.receipts.set(message.messageId, timestamp);
      this.sent.push(message);
    }
    answer(res, 200, { status: 'sent', messageId: message.messageId, receipt: { refToMessageId: message.messageId, timestamp }, receiverEndpoint: 'https://ap.receiver.example/as4', transportProfile: 'peppol-transport-as4-v2_0', receiverSeatId: 'PBE000002' });
  }
}
