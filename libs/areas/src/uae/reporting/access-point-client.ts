/**
 * The live way to the FTA: the TDD is an ordinary Peppol send (corner 5), so it goes out through a
 * Peppol access point, driven over its HTTP API. The notes name no API; this client speaks phoss-ap's
 * (phax/phoss-ap, the access point whose MLS handling the notes cite), README.md "Reporting to the FTA":
 * - `POST /api/outbound/submit/{senderID}/{receiverID}/{docTypeID}/{processID}/{c1CountryCode}
 *   ?sbdhInstanceID=`
 *   (raw XML body, header `X-Token`) → 200 sending report | 422 not sent yet (stored, retried by the
 *   access point) | 400 refused;
 * - `GET /api/outbound/status/{sbdhInstanceID}` → 200 `{sbdhInstanceID, status, createdDT, errorDetails,
 *   mlsStatus, …}` | 404; the MLS document itself in `mls` (our assumption: phoss-ap documents the code only).
 */
import { AppError } from '@einvoice/domain';
import { type AuthorityAnswer, AuthorityHttp } from '../../shared/authority-http';
import { UAE_FTA_ERRORS, unavailable, type FtaTransport, type TddAcknowledgement, type TddMessage, type TddStatus } from './transport';

/** C1's country on the submit path (Peppol reporting): the reporting participant is in the UAE. */
const COUNTRY = 'AE';
/** Peppol participant identifier scheme of the submit path's sender and receiver. */
const PARTICIPANT = 'iso6523-actorid-upis::';

export interface AccessPointClientOptions {
  /** Base URL of the access point's API, e.g. `https://ap.example.ae`. */
  readonly baseUrl: string;
  /** Its API token (header `X-Token`), when it requires one. */
  readonly token?: string;
  readonly timeoutMs?: number;
  readonly now?: () => Date;
}

/** phoss-ap `EOutboundStatus`: `rejected` (its own checks) and `permanently_failed` are final failures. */
type OutboundStatus = 'pending' | 'rejected' | 'sending' | 'sent' | 'failed' | 'permanently_failed';

/** phoss-ap's OutboundTransactionResponse, as far as it is read here (`mls` is our assumption). */
interface OutboundTransaction {
  readonly sbdhInstanceID?: string;
  readonly id?: string;
  readonly status?: OutboundStatus;
  readonly createdDT?: string;
  readonly errorDetails?: string | null;
  readonly mlsStatus?: string | null;
  readonly mls?: string | null;
}

export class AccessPointClient implements FtaTransport {
  private readonly http: AuthorityHttp;
  private readonly now: () => Date;

  constructor(private readonly options: AccessPointClientOptions) {
    this.http = new AuthorityHttp({ area: 'ae', authority: 'The access point', timeoutMs: options.timeoutMs ?? 30_000, codes: { unavailable: UAE_FTA_ERRORS.UNAVAILABLE, timeout: UAE_FTA_ERRORS.TIMEOUT } });
    this.now = options.now ?? (() => new Date());
  }

  async send(message: TddMessage): Promise<TddAcknowledgement> {
    const segments = [PARTICIPANT + message.senderId, PARTICIPANT + message.receiverId, message.documentTypeId, message.processId, COUNTRY];
    const path = `/api/outbound/submit/${segments.map(encodeURIComponent).join('/')}?sbdhInstanceID=${encodeURIComponent(message.messageId)}`;
    const answer = await this.request('POST', 'submit', path, message.xml);
    if (answer.outcome === 'ok') return { messageId: message.messageId, receivedAt: this.now().toISOString() };
    if (answer.status === 400) {
      const message400 = `The access point refused the TDD: ${describe(answer.json)}`;
      throw new AppError('validation', UAE_FTA_ERRORS.REFUSED, message400, { retriable: false, details: { status: 400 } });
    }
    if (answer.status === 422 || answer.status === 409) return this.storedAfterAll(message.messageId, answer);
    throw this.failure(answer);
  }

  async status(messageId: string): Promise<TddStatus | undefined> {
    const answer = await this.request('GET', 'status', `/api/outbound/status/${encodeURIComponent(messageId)}`);
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw this.failure(answer);
    const body = answer.json;
    const tx = (typeof body === 'object' && body !== null ? body : {}) as OutboundTransaction;
    const code = tx.mlsStatus?.trim().toUpperCase();
    const gaveUp = tx.status === 'rejected' || tx.status === 'permanently_failed';
    const details = tx.errorDetails ?? 'no details';
    return {
      messageId,
      ...(tx.createdDT ? { receivedAt: tx.createdDT } : {}),
      ...(tx.id ? { reference: tx.id } : {}),
      ...(typeof tx.mls === 'string' && tx.mls.trim() ? { mls: tx.mls } : {}),
      ...(code === 'AP' || code === 'AB' || code === 'RE' ? { responseCode: code } : {}),
      ...(gaveUp ? { undeliverable: { code: UAE_FTA_ERRORS.UNDELIVERABLE, message: `The access point gave up on the TDD (${tx.status}): ${details}` } } : {}),
    };
  }

  /**
   * A 422 (not sent yet) or 409: the access point may have stored the message and retry it itself.
   * Its status says: stored and still trying → taken; refused by its own checks → final; not stored → retry.
   */
  private async storedAfterAll(messageId: string, answer: AuthorityAnswer): Promise<TddAcknowledgement> {
    const status = await this.status(messageId);
    if (!status) {
      throw unavailable(`The access point did not send the TDD (HTTP ${answer.status}): ${describe(answer.json)}`, { status: answer.status });
    }
    if (status.undeliverable) {
      throw new AppError('validation', UAE_FTA_ERRORS.REFUSED, status.undeliverable.message, { retriable: false });
    }
    const receivedAt = status.receivedAt ?? this.now().toISOString();
    return { messageId, receivedAt, ...(status.reference ? { reference: status.reference } : {}) };
  }

  private failure(answer: AuthorityAnswer): AppError {
    if (answer.status === 401 || answer.status === 403) {
      const text = `The access point refused our API token (HTTP ${answer.status}) on ${answer.name}.`;
      return new AppError('unavailable', UAE_FTA_ERRORS.UNAUTHORIZED, text, { retriable: true });
    }
    // 404 on submit: sending is disabled on the access point; 5xx: it is down. Both pass.
    return this.http.retriable(answer);
  }

  /** `name`: the access point's operation (submit, status), for metrics and spans. */
  private request(method: 'GET' | 'POST', name: string, path: string, body?: string): Promise<AuthorityAnswer> {
    return this.http.send({
      method,
      name,
      url: `${this.options.baseUrl.replace(/\/+$/, '')}${path}`,
      headers: {
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/xml' } : {}),
        ...(this.options.token ? { 'x-token': this.options.token } : {}),
      },
      body,
    });
  }
}

function describe(body: unknown): string {
  if (typeof body === 'string') return body.slice(0, 500) || 'no details';
  return JSON.stringify(body ?? null).slice(0, 500);
}
