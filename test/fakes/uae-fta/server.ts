/**
 * Test-only local fake of the access point the live UAE FTA connector drives (never imported by
 * production code): phoss-ap's outbound API as libs/areas/src/uae/reporting/access-point-client.ts
 * describes it — `POST /api/outbound/submit/{senderID}/{receiverID}/{docTypeID}/{processID}/{c1CountryCode}
 * ?sbdhInstanceID=` and `GET /api/outbound/status/{sbdhInstanceID}`, header `X-Token`. Behind it the
 * FTA is the sandbox FTA (its state in PostgreSQL); this file only translates HTTP. It can be told to
 * answer the next calls of an endpoint with a status, to hold an answer (a timeout for the client),
 * to answer a submit with 422 after storing it (not sent yet), or to give up on a message.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import type { ConnectorQuery } from '../../../libs/areas/src/registry/area';
import { parseMls } from '../../../libs/areas/src/peppol-ubl/mls';
import { SandboxFta, type SandboxFtaOptions } from '../../../libs/areas/src/uae/reporting/sandbox-fta';
import { type LocalServer, listenLocally, requestText } from '../../../libs/areas/src/shared/testing/local-server';
import { TDD_DOCUMENT_TYPE_ID, TDD_PROCESS_ID } from '../../../libs/areas/src/uae/reporting/tdd';

export type FakeEndpoint = 'submit' | 'status';

export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

interface Scripted {
  status?: number;
  holdMs?: number;
  left: number;
}

const PARTICIPANT = 'iso6523-actorid-upis::';

export class FakeAccessPointServer {
  readonly sandbox: SandboxFta;
  /** Every request received, in order. */
  readonly requests: FakeRequest[] = [];
  private server?: LocalServer;
  private readonly scripted = new Map<FakeEndpoint, Scripted>();
  private readonly givenUp = new Set<string>();
  private notSent = 0;

  constructor(query: ConnectorQuery, private readonly options: SandboxFtaOptions & { readonly token?: string }) {
    this.sandbox = new SandboxFta(query, options);
  }

  /** Listens on 127.0.0.1, a free port; resolves with the base URL. */
  async start(): Promise<string> {
    this.server = await listenLocally((req, res) => {
      this.handle(req, res, this.options.token).catch((error: unknown) => reply(res, 500, String(error)));
    });
    return this.server.url;
  }

  async stop(): Promise<void> {
    await this.server?.stop();
  }

  /** Answer the next `times` (default 1) calls of `endpoint` with `status` (and nothing behind it happens). */
  failNext(endpoint: FakeEndpoint, status: number, times = 1): void {
    this.scripted.set(endpoint, { status, left: times });
  }

  /** Hold the next answer of `endpoint` for `ms` (after doing the work): a client with a shorter timeout never reads it. */
  holdNext(endpoint: FakeEndpoint, ms: number): void {
    this.scripted.set(endpoint, { holdMs: ms, left: 1 });
  }

  /** The next submit is stored and handed on, but answered 422 (phoss-ap: sending failed, retried by the access point). */
  answerNotSentNext(): void {
    this.notSent += 1;
  }

  /** The access point stops trying to deliver `messageId` (`permanently_failed`). */
  giveUp(messageId: string): void {
    this.givenUp.add(messageId);
  }

  private async handle(req: IncomingMessage, res: ServerResponse, token: string | undefined): Promise<void> {
    const body = await requestText(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    this.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
    if (token && req.headers['x-token'] !== token) return reply(res, 401, { error: 'Invalid or missing API token' });
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (req.method === 'POST' && parts.length === 8 && parts.slice(0, 3).join('/') === 'api/outbound/submit') {
      return this.scriptedOr(res, 'submit', () => this.submit(parts.slice(3), url.searchParams.get('sbdhInstanceID'), body));
    }
    if (req.method === 'GET' && parts.length === 4 && parts.slice(0, 3).join('/') === 'api/outbound/status') {
      return this.scriptedOr(res, 'status', () => this.status(parts[3]));
    }
    return reply(res, 404, { error: `No route ${req.method} ${url.pathname}` });
  }

  private async scriptedOr(res: ServerResponse, endpoint: FakeEndpoint, work: () => Promise<[number, unknown]>): Promise<void> {
    const script = this.scripted.get(endpoint);
    if (script && script.left > 0) {
      script.left -= 1;
      if (script.status) return reply(res, script.status, { error: `Scripted ${script.status}` });
    }
    const [status, body] = await work();
    if (script?.holdMs) await new Promise((resolve) => setTimeout(resolve, script.holdMs));
    if (!res.destroyed) reply(res, status, body);
  }

  private async submit([sender, receiver, docType, process, country]: string[], instanceId: string | null, xml: string): Promise<[number, unknown]> {
    if (!sender.startsWith(PARTICIPANT)) return [400, `Failed to parse the sending participant ID '${sender}'`];
    if (!receiver.startsWith(`${PARTICIPANT}0242:`)) return [400, `Failed to parse the receiving participant ID '${receiver}'`];
    if (docType !== TDD_DOCUMENT_TYPE_ID || process !== TDD_PROCESS_ID) return [400, `Failed to parse the document type ID '${docType}'`];
    if (!instanceId || !xml || country.length !== 2) return [400, 'Failed to submit outbound transaction'];
    await this.sandbox.send({
      messageId: instanceId, senderId: sender.slice(PARTICIPANT.length), receiverId: receiver.slice(PARTICIPANT.length), documentTypeId: docType, processId: process, xml,
    });
    const report = { overallSuccess: this.notSent === 0, sbdhInstanceID: instanceId, senderPartyID: sender, receiverPartyID: receiver };
    if (this.notSent > 0) {
      this.notSent -= 1;
      return [422, report];
    }
    return [200, report];
  }

  private async status(instanceId: string): Promise<[number, unknown]> {
    const status = await this.sandbox.status(instanceId);
    if (!status) return [404, ''];
    const mlsStatus = status.mls ? parseMls(status.mls).responseCode : null;
    const givenUp = this.givenUp.has(instanceId);
    return [200, {
      id: status.reference,
      transactionType: 'business-document',
      sbdhInstanceID: instanceId,
      status: givenUp ? 'permanently_failed' : 'sent',
      attemptCount: 1,
      createdDT: status.receivedAt,
      completedDT: givenUp ? null : status.receivedAt,
      errorDetails: givenUp ? 'Max retries exhausted' : null,
      mlsStatus: givenUp ? null : mlsStatus,
      mls: givenUp ? null : (status.mls ?? null),
    }];
  }
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body === '' ? '' : JSON.stringify(body));
}
