/**
 * The AS4 engine's control API (docs/peppol-as4.md "The engine's control API"; engines/as4, phase4):
 * `POST /outbound` hands it one message and a receiver; it finds the receiver's access point (SML, SMP),
 * signs, encrypts and sends over AS4, and answers with the receiving access point's signed receipt
 * (200), a final refusal (422) or a retriable one (503). Loopback only, every call with the shared
 * `x-engine-secret`. Over the project's one HTTP client for outside services (authority-http.ts).
 */
import { AppError, type As4Receipt, type PeppolEnvelope } from '@einvoice/domain';
import { AS4_TRANSPORT_PROFILE } from '../peppol-participants/smp';
import { AuthorityHttp } from '../shared/authority-http';

export const DEFAULT_AS4_ENGINE_URL = 'http://127.0.0.1:8480';
export const ENGINE_SECRET_HEADER = 'x-engine-secret';

/** What `POST /outbound` takes: one message, its envelope's identifiers, and the document. */
export interface EngineMessage extends PeppolEnvelope {
  /** AS4 MessageId, derived from what is sent: the same on every retry. */
  readonly messageId: string;
  /** SBDH InstanceIdentifier (the engine makes one up when absent): an MLS answering this message names it. */
  readonly instanceIdentifier?: string;
  readonly payload: string;
  /** The SBDH's MLS_TO (`0242:000123`): the service provider the receiving AP sends its MLS to, when not the sending AP's. */
  readonly mlsTo?: string;
  /** The SBDH's MLS_TYPE: `ALWAYS_SEND` or `FAILURE_ONLY` (a negative MLS only). */
  readonly mlsType?: 'ALWAYS_SEND' | 'FAILURE_ONLY';
}

/** The engine's 200: the message is with the receiving access point (its AS4 receipt). */
export interface EngineSent {
  readonly receipt: As4Receipt;
  readonly receiverEndpoint?: string;
  /** How it travelled, for Peppol Reporting: the SMP endpoint's transport profile, the receiving AP's seat id (its certificate's subject CN). */
  readonly transport: { readonly profile: string; readonly otherAccessPoint: string };
}

export interface As4EngineOptions {
  /** AS4_ENGINE_URL. */
  readonly url: string;
  /** AS4_ENGINE_SECRET. */
  readonly secret: string;
  /** The whole call: discovery (SML, SMP) and the AS4 exchange with the receiving access point. */
  readonly timeoutMs?: number;
}

interface EngineAnswer {
  readonly status?: string;
  readonly code?: string;
  readonly message?: string;
  readonly retriable?: boolean;
  readonly receipt?: { readonly refToMessageId?: string; readonly timestamp?: string };
  readonly receiverEndpoint?: string;
  readonly transportProfile?: string;
  readonly receiverSeatId?: string;
}

/** The engine's client: its answer as the AppError model says (STYLE.md 3): final refusals not retriable, the rest retriable. */
export class As4Engine {
  private readonly http: AuthorityHttp;

  constructor(private readonly options: As4EngineOptions) {
    this.http = new AuthorityHttp({
      area: 'peppol',
      authority: 'The AS4 engine',
      timeoutMs: options.timeoutMs ?? 60_000,
      codes: { unavailable: 'PEPPOL.ENGINE_UNAVAILABLE', timeout: 'PEPPOL.ENGINE_TIMEOUT' },
    });
  }

  /**
   * Sends one message. 200 `sent` is its receipt; 422 a final refusal with the engine's code
   * (`PEPPOL.RECEIVER_NOT_FOUND`, `PEPPOL.SMP_SIGNATURE_INVALID`, `PEPPOL.AS4_REFUSED`,
   * `PEPPOL.CERTIFICATE_INVALID`); 503 and anything the contract does not name (another status, a
   * body that is not its answer, no answer in time) retriable: the message may or may not have gone,
   * and its next try carries the same MessageId, which the receiving access point de-duplicates.
   */
  async send(message: EngineMessage): Promise<EngineSent> {
    const answer = await this.http.send({
      method: 'POST',
      name: '/outbound',
      url: new URL('/outbound', this.options.url).toString(),
      headers: { 'content-type': 'application/json', accept: 'application/json', [ENGINE_SECRET_HEADER]: this.options.secret },
      body: JSON.stringify(message),
    });
    const body = (typeof answer.json === 'object' && answer.json !== null ? answer.json : {}) as EngineAnswer;
    const said = `${body.message ?? ''}`.slice(0, 500);
    if (answer.status === 200 && body.status === 'sent' && body.receipt?.refToMessageId && body.receipt.timestamp) {
      return {
        receipt: { refToMessageId: body.receipt.refToMessageId, timestamp: body.receipt.timestamp },
        receiverEndpoint: body.receiverEndpoint,
        // An engine that does not name the seat: `unknown`, never a made-up seat id (Peppol Reporting shows it as such).
        transport: { profile: body.transportProfile ?? AS4_TRANSPORT_PROFILE, otherAccessPoint: body.receiverSeatId ?? 'unknown' },
      };
    }
    if (answer.status === 422 && body.status === 'failed' && typeof body.code === 'string' && body.retriable === false) {
      throw new AppError('validation', body.code, said || `The AS4 engine refused the message (${body.code}).`, { retriable: false, details: { messageId: message.messageId } });
    }
    if (answer.status === 503 && body.status === 'failed' && typeof body.code === 'string') {
      throw new AppError('unavailable', body.code, said || `The AS4 engine could not send the message now (${body.code}).`, { retriable: true, details: { messageId: message.messageId } });
    }
    throw this.http.retriable(answer);
  }
}
