/**
 * KSeF 2.0, live (README.md "Live mode"). Per supplier: signs in with its KSeF token (challenge →
 * `token|timestampMs` RSA-OAEP-encrypted for the Ministry's `KsefTokenEncryption` key → status until 200 →
 * redeem; the access token refreshed with the refresh token while that lives), then keeps one online
 * session open (its AES-256 key wrapped for the `SymmetricKeyEncryption` key) and sends each invoice in
 * it, encrypted, with the plain and encrypted hashes. A session is reused until shortly before KSeF's
 * `validUntil` (12 h) or 9,000 invoices, closed when replaced, after `sessionIdleMs` without a send, and
 * when the worker stops (KSeF then makes its UPO). The verdict comes from the invoice's status in its
 * session. After a lost answer, KSeF is asked by the invoice's SHA-256 first (`recover`: the supplier's
 * sessions since the first attempt), so a timeout never sends an invoice twice; a resend KSeF calls a
 * duplicate (440) of an invoice with this very hash is that invoice, accepted.
 */
import { AppError } from '@einvoice/domain';
import type { AuthorityConnector, AuthorityOutcome, AuthorityReport } from '../../registry/authority';
import { invoiceHash, keyOf } from '../fa3-key';
import type { KsefReceipt } from '../sandbox-ksef';
import { type SessionKey, encryptInvoice, encryptKsefToken, newSessionKey, rsaOaepEncrypt, sha256Base64 } from './ksef-crypto';
import { KsefApi, type PublicKeyCertificate, type SessionInvoiceStatus, type TokenInfo } from './ksef-api';

export interface LiveKsefOptions {
  readonly baseUrl: string;
  /** The supplier's KSeF token (onboarding `ksef_token`, sealed in `supplier_secrets`). */
  readonly tokenOf: (supplierId: string) => Promise<string | undefined>;
  readonly timeoutMs?: number;
  /** A session without a send for this long is closed (default 10 minutes). */
  readonly sessionIdleMs?: number;
  /** Between two reads of an authentication still in progress (status 100). */
  readonly authPollMs?: number;
}

interface Credentials {
  readonly access: TokenInfo;
  readonly refresh: TokenInfo;
}

interface OnlineSession {
  readonly referenceNumber: string;
  readonly validUntil: number;
  readonly key: SessionKey;
  readonly supplierId: string;
  readonly nip: string;
  sent: number;
  lastUsed: number;
}

/** Margin before a token's or session's end within which it is not used any more. */
const MARGIN_MS = 60_000;
const SESSION_MARGIN_MS = 10 * 60_000;
/** KSeF takes at most 10,000 invoices per session. */
const SESSION_MAX_INVOICES = 9_000;
const AUTH_POLLS = 60;
/** Invoice statuses still in progress. */
const IN_PROGRESS = new Set([100, 150]);

const after = (iso: string, margin: number) => Date.parse(iso) - margin > Date.now();

export class LiveKsef implements AuthorityConnector<unknown, KsefReceipt> {
  private readonly api: KsefApi;
  private readonly credentials = new Map<string, Promise<Credentials>>();
  private readonly sessions = new Map<string, Promise<OnlineSession>>();
  private keys?: { readonly at: number; readonly list: Promise<PublicKeyCertificate[]> };
  private readonly idleTimer: NodeJS.Timeout;

  constructor(private readonly options: LiveKsefOptions) {
    this.api = new KsefApi(options.baseUrl, options.timeoutMs);
    const idleMs = options.sessionIdleMs ?? 10 * 60_000;
    this.idleTimer = setInterval(() => void this.closeIdleSessions(), Math.max(1_000, Math.min(idleMs / 2, 60_000)));
    this.idleTimer.unref();
  }

  async submit(report: AuthorityReport): Promise<AuthorityOutcome<KsefReceipt>> {
    const xml = report.document.bytes;
    const plain = Buffer.from(xml, 'utf8');
    const { nip } = keyOf(xml);
    return this.withAccess(report.supplierId, nip, async (access) => {
      const session = await this.session(report.supplierId, nip, access);
      const encrypted = encryptInvoice(session.key, xml);
      try {
        const { referenceNumber } = await this.api.sendInvoice(access, session.referenceNumber, {
          invoiceHash: sha256Base64(plain),
          invoiceSize: plain.length,
          encryptedInvoiceHash: sha256Base64(encrypted),
          encryptedInvoiceSize: encrypted.length,
          encryptedInvoiceContent: encrypted.toString('base64'),
        });
        session.sent += 1;
        session.lastUsed = Date.now();
        return { kind: 'accepted', final: false, receipt: { referenceNumber, sessionReferenceNumber: session.referenceNumber } };
      } catch (error) {
        // KSeF checks the invoice itself later (its status); a refused send is about the session
        // (closed, expired, over its limit): the next try opens a new one.
        if (error instanceof AppError && !error.retriable) {
          this.sessions.delete(report.supplierId);
          throw new AppError('unavailable', error.code, `KSeF refused the send in session ${session.referenceNumber}: ${error.message}`, { retriable: true });
        }
        throw error;
      }
    });
  }

  /** The invoice's status in its session: in progress, 200 with its KSeF number, or KSeF's refusal. */
  async poll(report: AuthorityReport, receipt: KsefReceipt): Promise<AuthorityOutcome<KsefReceipt> | { readonly kind: 'pending' }> {
    if (!receipt.sessionReferenceNumber) throw new AppError('internal', 'KSEF.NO_SESSION', `Receipt ${receipt.referenceNumber} names no session.`, { retriable: false });
    const sessionReference = receipt.sessionReferenceNumber;
    return this.withAccess(report.supplierId, keyOf(report.document.bytes).nip, async (access) => {
      const status = await this.api.invoiceStatus(access, sessionReference, receipt.referenceNumber);
      return this.verdictOf(report, { ...status, sessionReferenceNumber: sessionReference }, access);
    });
  }

  /** After a lost answer: the supplier's sessions since the first attempt, searched by the invoice's hash. */
  async recover(report: AuthorityReport, firstAttemptAt: string): Promise<AuthorityOutcome<KsefReceipt> | undefined> {
    const hash = invoiceHash(report.document.bytes);
    return this.withAccess(report.supplierId, keyOf(report.document.bytes).nip, async (access) => {
      const from = new Date(Date.parse(firstAttemptAt) - 5 * 60_000).toISOString();
      const sessions = (await this.api.onlineSessionsSince(access, from)).sort((a, b) => b.dateCreated.localeCompare(a.dateCreated));
      for (const session of sessions) {
        const found = (await this.api.sessionInvoices(access, session.referenceNumber)).find((invoice) => invoice.invoiceHash === hash);
        if (!found) continue;
        const verdict = await this.verdictOf(report, { ...found, sessionReferenceNumber: session.referenceNumber }, access);
        // Still in progress: taken, the verdict comes from the polls.
        return verdict.kind === 'pending' ? { kind: 'accepted', final: false, receipt: { referenceNumber: found.referenceNumber, sessionReferenceNumber: session.referenceNumber } } : verdict;
      }
      return undefined;
    });
  }

  /** Closes every session this process holds (the worker's shutdown); KSeF then makes their UPO. */
  async close(): Promise<void> {
    clearInterval(this.idleTimer);
    const open = [...this.sessions.entries()];
    this.sessions.clear();
    await Promise.all(open.map(async ([, pending]) => this.closeSession(await pending.catch(() => undefined))));
  }

  private async verdictOf(
    report: AuthorityReport,
    status: SessionInvoiceStatus & { sessionReferenceNumber: string },
    access: string,
  ): Promise<AuthorityOutcome<KsefReceipt> | { readonly kind: 'pending' }> {
    const receipt: KsefReceipt = { referenceNumber: status.referenceNumber, sessionReferenceNumber: status.sessionReferenceNumber };
    const code = status.status.code;
    if (IN_PROGRESS.has(code)) return { kind: 'pending' };
    if (code === 200 && status.ksefNumber) {
      return { kind: 'accepted', final: true, receipt: { ...receipt, ksefNumber: status.ksefNumber, ...(status.acquisitionDate ? { acquisitionDate: status.acquisitionDate } : {}), ...(status.upoDownloadUrl ? { upoDownloadUrl: status.upoDownloadUrl } : {}) } };
    }
    const original = status.status.extensions?.originalKsefNumber;
    if (code === 440 && original && (await this.isThisInvoice(access, original, report.document.bytes))) {
      // KSeF holds this very invoice already (a resend after a lost answer): that is its KSeF number.
      return { kind: 'accepted', final: true, receipt: { ...receipt, ksefNumber: original } };
    }
    const message = [status.status.description, ...(status.status.details ?? [])].join(' ');
    return { kind: 'rejected', error: { code: String(code), message: original ? `${message} (originalKsefNumber ${original})` : message }, receipt };
  }

  /** Whether the invoice KSeF numbered `ksefNumber` has this file's hash (KSeF's metadata of it). */
  private async isThisInvoice(access: string, ksefNumber: string, xml: string): Promise<boolean> {
    const day = /^\d{10}-(\d{4})(\d{2})(\d{2})-/.exec(ksefNumber);
    const from = day ? new Date(Date.parse(`${day[1]}-${day[2]}-${day[3]}T00:00:00Z`) - 86_400_000).toISOString() : new Date(Date.now() - 90 * 86_400_000).toISOString();
    const metadata = await this.api.invoiceMetadata(access, { subjectType: 'Subject1', dateRange: { dateType: 'Invoicing', from }, ksefNumber });
    return metadata.some((m) => m.ksefNumber === ksefNumber && m.invoiceHash === invoiceHash(xml));
  }

  /** Runs `call` with the supplier's access token; once more with a new one when KSeF refused it (401). */
  private async withAccess<T>(supplierId: string, nip: string, call: (access: string) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const credentials = await this.credentialsOf(supplierId, nip);
      try {
        return await call(credentials.access.token);
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'KSEF.UNAUTHORIZED' || attempt > 1) throw error;
        this.credentials.delete(supplierId);
      }
    }
  }

  /** The supplier's tokens: cached while the access token lives, refreshed while the refresh token lives, else a new sign-in. */
  private async credentialsOf(supplierId: string, nip: string): Promise<Credentials> {
    const entry = this.credentials.get(supplierId);
    const cached = await entry?.catch(() => undefined);
    if (cached && after(cached.access.validUntil, MARGIN_MS)) return cached;
    // Another call of this supplier renewed them meanwhile: use theirs (one sign-in at a time).
    if (this.credentials.get(supplierId) !== entry) return this.credentialsOf(supplierId, nip);
    const next = cached && after(cached.refresh.validUntil, MARGIN_MS)
      ? this.api.refresh(cached.refresh.token).then(({ accessToken }) => ({ access: accessToken, refresh: cached.refresh }))
      : this.signIn(supplierId, nip);
    this.credentials.set(supplierId, next);
    next.catch(() => this.credentials.get(supplierId) === next && this.credentials.delete(supplierId));
    return next;
  }

  private async signIn(supplierId: string, nip: string): Promise<Credentials> {
    const token = await this.options.tokenOf(supplierId);
    if (!token) {
      throw new AppError('validation', 'KSEF.NO_TOKEN', 'The supplier gave no KSeF token (ksef_token at onboarding): live mode cannot sign in to KSeF for it.', { retriable: false });
    }
    const challenge = await this.api.challenge();
    const key = await this.publicKey('KsefTokenEncryption');
    const started = await this.api.signInWithToken({
      challenge: challenge.challenge,
      contextIdentifier: { type: 'Nip', value: nip },
      encryptedToken: encryptKsefToken(key.certificate, token, challenge.timestampMs),
    });
    for (let poll = 0; poll < AUTH_POLLS; poll += 1) {
      const { status } = await this.api.authenticationStatus(started.referenceNumber, started.authenticationToken.token);
      if (status.code === 200) {
        const { accessToken, refreshToken } = await this.api.redeem(started.authenticationToken.token);
        return { access: accessToken, refresh: refreshToken };
      }
      if (status.code !== 100) {
        throw new AppError('validation', `KSEF.AUTH_${status.code}`, `KSeF refused the sign-in for NIP ${nip}: ${[status.description, ...(status.details ?? [])].join(' ')}`, { retriable: false });
      }
      await new Promise((resolve) => setTimeout(resolve, this.options.authPollMs ?? 500));
    }
    throw new AppError('unavailable', 'KSEF.AUTH_PENDING', `KSeF did not finish the sign-in ${started.referenceNumber} in time.`, { retriable: true });
  }

  /** The supplier's open session, or a new one (the one it replaces is closed). */
  private async session(supplierId: string, nip: string, access: string): Promise<OnlineSession> {
    const entry = this.sessions.get(supplierId);
    const current = await entry?.catch(() => undefined);
    if (current && current.validUntil - SESSION_MARGIN_MS > Date.now() && current.sent < SESSION_MAX_INVOICES) return current;
    // Another send of this supplier replaced it meanwhile: use that one.
    if (this.sessions.get(supplierId) !== entry) return this.session(supplierId, nip, access);
    const opening = this.openSession(supplierId, nip, access);
    this.sessions.set(supplierId, opening);
    opening.catch(() => this.sessions.get(supplierId) === opening && this.sessions.delete(supplierId));
    if (current) void this.closeSession(current);
    return opening;
  }

  private async openSession(supplierId: string, nip: string, access: string): Promise<OnlineSession> {
    const key = newSessionKey();
    const certificate = await this.publicKey('SymmetricKeyEncryption');
    const opened = await this.api.openOnlineSession(access, {
      encryptedSymmetricKey: rsaOaepEncrypt(certificate.certificate, key.key),
      initializationVector: key.iv.toString('base64'),
    });
    return { referenceNumber: opened.referenceNumber, validUntil: Date.parse(opened.validUntil), key, supplierId, nip, sent: 0, lastUsed: Date.now() };
  }

  private async closeSession(session: OnlineSession | undefined): Promise<void> {
    if (!session) return;
    try {
      const { access } = await this.credentialsOf(session.supplierId, session.nip);
      await this.api.closeOnlineSession(access.token, session.referenceNumber);
    } catch {
      // KSeF closes a session itself at its validUntil; nothing is lost.
    }
  }

  /** Closes the sessions without a send for `sessionIdleMs` by `now` (the idle timer calls it). */
  async closeIdleSessions(now = Date.now()): Promise<void> {
    const idleMs = this.options.sessionIdleMs ?? 10 * 60_000;
    for (const [supplierId, pending] of [...this.sessions.entries()]) {
      const session = await pending.catch(() => undefined);
      if (!session || now - session.lastUsed < idleMs) continue;
      if (this.sessions.get(supplierId) === pending) this.sessions.delete(supplierId);
      await this.closeSession(session);
    }
  }

  /** The Ministry's public key for a use, valid now (the list is read once an hour). */
  private async publicKey(usage: PublicKeyCertificate['usage'][number]): Promise<PublicKeyCertificate> {
    if (!this.keys || Date.now() - this.keys.at > 3_600_000) this.keys = { at: Date.now(), list: this.api.publicKeyCertificates() };
    const keys = this.keys;
    const list = await keys.list.catch((error: unknown) => {
      if (this.keys === keys) this.keys = undefined;
      throw error;
    });
    const now = Date.now();
    const key = list.find((k) => k.usage.includes(usage) && Date.parse(k.validFrom) <= now && Date.parse(k.validTo) > now);
    if (!key) throw new AppError('unavailable', 'KSEF.NO_PUBLIC_KEY', `KSeF lists no valid ${usage} key.`, { retriable: true });
    return key;
  }
}
