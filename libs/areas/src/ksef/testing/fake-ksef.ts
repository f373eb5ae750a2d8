/**
 * A local KSeF 2.0 for the live client's tests: the endpoints it calls, on the wire as
 * `shared/conformance/ksef/open-api.json` states them (paths, JSON shapes, status codes, KSeF's error
 * body, 429 with Retry-After, paging by `x-continuation-token`). It holds the Ministry's key pair (a
 * throwaway certificate) and really decrypts what it is sent: the KSeF token (RSA-OAEP-SHA256, checked
 * against the challenge's timestamp), a session's AES key, each invoice (AES-256-CBC), whose hashes and
 * sizes must match. Invoices are checked against the FA(3) XSD and the duplicate key (seller NIP + kind +
 * number) when their status is first read. Failure injection: `failNext`, `loseNextSendAnswer`.
 */
import { X509Certificate, constants, createDecipheriv, createHash, privateDecrypt, randomBytes, randomUUID } from 'node:crypto';
import type http from 'node:http';
import { type LocalServer, listenLocally, requestText } from '../../shared/testing/local-server';
import { keyOf } from '../fa3-key';
import { newKsefNumber } from '../ksef-number';
import { fa3Oracle } from './fa3-oracle';

interface FakeSessionInvoice {
  ordinalNumber: number;
  referenceNumber: string;
  invoiceHash: string;
  invoiceNumber: string;
  xml: string;
  invoicingDate: string;
  status: { code: number; description: string; details?: string[]; extensions?: Record<string, string> };
  ksefNumber?: string;
  acquisitionDate?: string;
}

export interface FakeSession {
  referenceNumber: string;
  nip: string;
  key: Buffer;
  iv: Buffer;
  open: boolean;
  dateCreated: string;
  validUntil: string;
  invoices: FakeSessionInvoice[];
}

type Failure = { status: number; retryAfter?: number };

const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('base64');
const reference = () => `${new Date().toISOString().slice(0, 10).replace(/-/g, '')}-SO-${randomBytes(5).toString('hex').toUpperCase()}-${randomBytes(5).toString('hex').toUpperCase()}-${randomBytes(1).toString('hex').toUpperCase()}`;

export class FakeKsef {
  /** Every call, in order: `METHOD /path` (without the query). */
  readonly calls: string[] = [];
  readonly sessions = new Map<string, FakeSession>();
  /** KSeF's permanent store: invoices with a KSeF number, by duplicate key. */
  readonly accepted = new Map<string, { ksefNumber: string; hash: string; xml: string; number: string; acquisitionDate: string }>();
  /** How long access tokens live (the refresh test shortens it). */
  accessTtlMs = 15 * 60_000;
  /** Authentications answer 100 this many times before 200. */
  authPendingPolls = 1;
  /** Page size of the lists (small, so paging is exercised). */
  pageSize = 2;
  private readonly tokens = new Map<string, string>();
  private readonly challenges = new Map<string, number>();
  private readonly authentications = new Map<string, { token: string; nip: string; polls: number; redeemed: boolean; failure?: number }>();
  private readonly access = new Map<string, { nip: string; validUntil: number }>();
  private readonly refresh = new Map<string, { nip: string }>();
  private readonly failures = new Map<string, Failure[]>();
  private loseSendAnswers = 0;
  private server?: LocalServer;

  private constructor(
    private readonly certificate: string,
    private readonly privateKey: string,
  ) {}

  /** `pair`: the Ministry's certificate and key (PEM), e.g. from makeTestCertificates().server. */
  static async start(pair: { cert: string; key: string }): Promise<FakeKsef & { url: string }> {
    const fake = new FakeKsef(pair.cert, pair.key);
    fake.server = await listenLocally((req, res) => void fake.handle(req, res));
    return Object.assign(fake, { url: `${fake.server.url}/v2` });
  }

  async stop(): Promise<void> {
    await this.server?.stop();
  }

  /** A KSeF token valid for NIP's context. */
  grantToken(nip: string, token: string): void {
    this.tokens.set(token, nip);
  }

  /** The next `count` calls of `METHOD /path-prefix` answer `status` (429 with Retry-After). */
  failNext(route: string, status: number, count = 1, retryAfter?: number): void {
    this.failures.set(route, Array.from({ length: count }, () => ({ status, retryAfter })));
  }

  /** The next send is taken, but its answer never reaches the client (the connection is cut). */
  loseNextSendAnswer(): void {
    this.loseSendAnswers += 1;
  }

  /** Every invoice KSeF was sent, with its session (whatever its status). */
  sentInvoices(): Array<FakeSessionInvoice & { session: string }> {
    return [...this.sessions.values()].flatMap((s) => s.invoices.map((i) => ({ ...i, session: s.referenceNumber })));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname.replace(/^\/v2/, '');
    const route = `${req.method} ${path}`;
    this.calls.push(route);
    const text = await requestText(req);
    const body = text ? JSON.parse(text) : {};
    const send = (status: number, payload?: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': typeof payload === 'string' ? 'application/xml' : 'application/json', ...headers });
      res.end(payload === undefined ? undefined : typeof payload === 'string' ? payload : JSON.stringify(payload));
    };
    const failure = [...this.failures.entries()].find(([prefix, list]) => route.startsWith(prefix) && list.length)?.[1].shift();
    if (failure) {
      if (failure.status === 429) return send(429, { status: { code: 429, description: 'Too Many Requests', details: [`Przekroczono limit żądań. Spróbuj ponownie po ${failure.retryAfter ?? 1} sekundach.`] } }, { 'retry-after': String(failure.retryAfter ?? 1) });
      return send(failure.status, failure.status >= 500 ? undefined : exception(21405, 'Błąd walidacji danych wejściowych.'));
    }
    try {
      const answer = await this.route(req.method ?? 'GET', path, url, body, bearerOf(req), String(req.headers['x-continuation-token'] ?? ''));
      if (answer === LOSE) {
        req.socket.destroy();
        return;
      }
      send(answer.status, answer.body, answer.headers);
    } catch (error) {
      send(500, { error: (error as Error).message });
    }
  }

  private async route(method: string, path: string, url: URL, body: Record<string, any>, bearer: string | undefined, continuation: string): Promise<Answer | typeof LOSE> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const now = Date.now();
    if (method === 'GET' && path === '/security/public-key-certificates') {
      const der = new X509Certificate(this.certificate).raw.toString('base64');
      const key = (usage: string) => ({ certificate: der, certificateId: sha(der + usage).slice(0, 20), publicKeyId: sha(der), validFrom: new Date(now - 86_400_000).toISOString(), validTo: new Date(now + 86_400_000).toISOString(), usage: [usage] });
      return ok([key('KsefTokenEncryption'), key('SymmetricKeyEncryption')]);
    }
    if (method === 'POST' && path === '/auth/challenge') {
      const challenge = `${new Date(now).toISOString().slice(0, 10).replace(/-/g, '')}-CR-${randomBytes(10).toString('hex').toUpperCase()}`;
      this.challenges.set(challenge, now);
      return ok({ challenge, timestamp: new Date(now).toISOString(), timestampMs: now, clientIp: '127.0.0.1' });
    }
    if (method === 'POST' && path === '/auth/ksef-token') {
      const issuedAt = this.challenges.get(body.challenge);
      if (issuedAt === undefined) return fail(400, 21001, 'Nieprawidłowy challenge.');
      this.challenges.delete(body.challenge);
      const [token, timestamp] = this.decrypt(body.encryptedToken).toString('utf8').split('|');
      const nip = this.tokens.get(token);
      const failure = nip === undefined || Number(timestamp) !== issuedAt ? 450 : nip !== body.contextIdentifier?.value ? 415 : undefined;
      const referenceNumber = reference();
      const authenticationToken = randomUUID();
      this.authentications.set(referenceNumber, { token: authenticationToken, nip: body.contextIdentifier?.value, polls: 0, redeemed: false, failure });
      return { status: 202, body: { referenceNumber, authenticationToken: { token: authenticationToken, validUntil: new Date(now + 600_000).toISOString() } } };
    }
    const auth = /^\/auth\/([^/]+)$/.exec(path);
    if (method === 'GET' && auth && auth[1] !== 'challenge') {
      const operation = this.authentications.get(auth[1]);
      if (!operation || operation.token !== bearer) return fail(401, 21301, 'Brak autoryzacji.');
      operation.polls += 1;
      if (operation.failure) return ok({ startDate: new Date(now).toISOString(), authenticationMethod: 'Token', authenticationMethodInfo: { category: 'Token', code: 'token', displayName: 'Token KSeF' }, status: { code: operation.failure, description: 'Uwierzytelnianie zakończone niepowodzeniem', details: ['Nieważny token.'] } });
      const code = operation.polls <= this.authPendingPolls ? 100 : 200;
      return ok({ startDate: new Date(now).toISOString(), authenticationMethod: 'Token', authenticationMethodInfo: { category: 'Token', code: 'token', displayName: 'Token KSeF' }, status: { code, description: code === 100 ? 'Uwierzytelnianie w toku' : 'Uwierzytelnianie zakończone sukcesem' } });
    }
    if (method === 'POST' && path === '/auth/token/redeem') {
      const operation = [...this.authentications.values()].find((o) => o.token === bearer);
      if (!operation || operation.redeemed || operation.failure || operation.polls <= this.authPendingPolls) return fail(400, 21304, 'Tokeny zostały już pobrane lub uwierzytelnianie nie zakończyło się.');
      operation.redeemed = true;
      const refreshToken = randomUUID();
      this.refresh.set(refreshToken, { nip: operation.nip });
      return ok({ accessToken: this.newAccess(operation.nip), refreshToken: { token: refreshToken, validUntil: new Date(now + 7 * 86_400_000).toISOString() } });
    }
    if (method === 'POST' && path === '/auth/token/refresh') {
      const refresh = bearer ? this.refresh.get(bearer) : undefined;
      if (!refresh) return fail(401, 21301, 'Brak autoryzacji.');
      return ok({ accessToken: this.newAccess(refresh.nip) });
    }

    // Everything else needs a live access token, and acts in its NIP's context.
    const context = bearer ? this.access.get(bearer) : undefined;
    if (!context || context.validUntil < now) return fail(401, 21301, 'Brak autoryzacji.');
    if (method === 'POST' && path === '/sessions/online') {
      if (body.formCode?.systemCode !== 'FA (3)' || body.formCode?.schemaVersion !== '1-0E' || body.formCode?.value !== 'FA') return fail(400, 21405, 'Nieobsługiwany formCode.');
      const key = this.decrypt(body.encryption.encryptedSymmetricKey);
      const iv = Buffer.from(body.encryption.initializationVector, 'base64');
      if (key.length !== 32 || iv.length !== 16) return fail(400, 21405, 'Klucz 32 bajty, IV 16 bajtów.');
      const session: FakeSession = { referenceNumber: reference(), nip: context.nip, key, iv, open: true, dateCreated: new Date(now).toISOString(), validUntil: new Date(now + 12 * 3_600_000).toISOString(), invoices: [] };
      this.sessions.set(session.referenceNumber, session);
      return { status: 201, body: { referenceNumber: session.referenceNumber, validUntil: session.validUntil } };
    }
    const sendTo = /^\/sessions\/online\/([^/]+)\/invoices$/.exec(path);
    if (method === 'POST' && sendTo) {
      const session = this.own(sendTo[1], context.nip);
      if (!session || !session.open) return fail(400, 21180, 'Sesja nie istnieje lub została zamknięta.');
      const encrypted = Buffer.from(body.encryptedInvoiceContent, 'base64');
      if (sha(encrypted) !== body.encryptedInvoiceHash || encrypted.length !== body.encryptedInvoiceSize) return fail(400, 21405, 'Skrót lub rozmiar zaszyfrowanej faktury się nie zgadza.');
      const decipher = createDecipheriv('aes-256-cbc', session.key, session.iv);
      const plain = Buffer.concat([decipher.update(encrypted), decipher.final()]);
      if (sha(plain) !== body.invoiceHash || plain.length !== body.invoiceSize) return fail(400, 21405, 'Skrót lub rozmiar faktury się nie zgadza.');
      const xml = plain.toString('utf8');
      const invoice: FakeSessionInvoice = {
        ordinalNumber: session.invoices.length + 1, referenceNumber: reference(), invoiceHash: body.invoiceHash, invoiceNumber: keyOf(xml).number, xml,
        invoicingDate: new Date(now).toISOString(), status: { code: 150, description: 'Trwa przetwarzanie' },
      };
      session.invoices.push(invoice);
      if (this.loseSendAnswers > 0) {
        this.loseSendAnswers -= 1;
        return LOSE;
      }
      return { status: 202, body: { referenceNumber: invoice.referenceNumber } };
    }
    const close = /^\/sessions\/online\/([^/]+)\/close$/.exec(path);
    if (method === 'POST' && close) {
      const session = this.own(close[1], context.nip);
      if (!session) return fail(400, 21180, 'Sesja nie istnieje.');
      session.open = false;
      return { status: 204 };
    }
    if (method === 'GET' && path === '/sessions') {
      const from = url.searchParams.get('dateCreatedFrom') ?? '';
      const list = [...this.sessions.values()].filter((s) => s.nip === context.nip && s.dateCreated >= from)
        .map((s) => ({ referenceNumber: s.referenceNumber, status: sessionStatus(s), dateCreated: s.dateCreated, dateUpdated: s.dateCreated, validUntil: s.validUntil, totalInvoiceCount: s.invoices.length, successfulInvoiceCount: 0, failedInvoiceCount: 0 }));
      return ok(this.page(list, 'sessions', url, continuation));
    }
    const upo = /^\/sessions\/([^/]+)\/invoices\/([^/]+)\/upo$/.exec(path);
    if (method === 'GET' && upo) {
      const invoice = this.own(upo[1], context.nip)?.invoices.find((i) => i.referenceNumber === upo[2]);
      if (!invoice?.ksefNumber) return fail(400, 21405, 'Brak UPO.');
      return { status: 200, body: `<?xml version="1.0" encoding="UTF-8"?><Potwierdzenie><NumerReferencyjnySesji>${upo[1]}</NumerReferencyjnySesji><Dokument><NipSprzedawcy>${context.nip}</NipSprzedawcy><NumerKSeFDokumentu>${invoice.ksefNumber}</NumerKSeFDokumentu><NumerFaktury>${invoice.invoiceNumber}</NumerFaktury><DataNadaniaNumeruKSeF>${invoice.acquisitionDate}</DataNadaniaNumeruKSeF><SkrotDokumentu>${invoice.invoiceHash}</SkrotDokumentu></Dokument></Potwierdzenie>` };
    }
    const oneInvoice = /^\/sessions\/([^/]+)\/invoices\/([^/]+)$/.exec(path);
    if (method === 'GET' && oneInvoice) {
      const session = this.own(oneInvoice[1], context.nip);
      const invoice = session?.invoices.find((i) => i.referenceNumber === oneInvoice[2]);
      if (!session || !invoice) return fail(400, 21405, 'Faktura nie istnieje.');
      await this.process(session, invoice);
      return ok(view(invoice));
    }
    const invoices = /^\/sessions\/([^/]+)\/invoices$/.exec(path);
    if (method === 'GET' && invoices) {
      const session = this.own(invoices[1], context.nip);
      if (!session) return fail(400, 21405, 'Sesja nie istnieje.');
      return ok(this.page(session.invoices.map(view), 'invoices', url, continuation));
    }
    const sessionRef = /^\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && sessionRef) {
      const session = this.own(sessionRef[1], context.nip);
      if (!session) return fail(400, 21405, 'Sesja nie istnieje.');
      return ok({ status: sessionStatus(session), dateCreated: session.dateCreated, dateUpdated: session.dateCreated, invoiceCount: session.invoices.length, successfulInvoiceCount: session.invoices.filter((i) => i.status.code === 200).length, failedInvoiceCount: session.invoices.filter((i) => i.status.code >= 400).length });
    }
    if (method === 'POST' && path === '/invoices/query/metadata') {
      if (body.subjectType !== 'Subject1' || !body.dateRange?.from) return fail(400, 21405, 'subjectType i dateRange.from są wymagane.');
      const found = [...this.accepted.values()].filter((a) => (!body.ksefNumber || a.ksefNumber === body.ksefNumber) && (!body.invoiceNumber || a.number === body.invoiceNumber) && a.ksefNumber.startsWith(context.nip));
      return ok({ hasMore: false, isTruncated: false, invoices: found.map((a) => ({ ksefNumber: a.ksefNumber, invoiceNumber: a.number, invoiceHash: a.hash, acquisitionDate: a.acquisitionDate })) });
    }
    const download = /^\/invoices\/ksef\/([^/]+)$/.exec(path);
    if (method === 'GET' && download) {
      const found = [...this.accepted.values()].find((a) => a.ksefNumber === download[1] && a.ksefNumber.startsWith(context.nip));
      return found ? { status: 200, body: found.xml } : fail(404, 21165, 'Faktura o podanym numerze KSeF nie istnieje.');
    }
    return fail(404, 21000, `Nieznany zasób ${method} ${path}.`);
  }

  /** KSeF's processing of one invoice: the XSD, then the duplicate key; a KSeF number when both pass. */
  private async process(session: FakeSession, invoice: FakeSessionInvoice): Promise<void> {
    if (invoice.status.code !== 150) return;
    const schema = await fa3Oracle(invoice.xml);
    if (!schema.valid) {
      invoice.status = { code: 450, description: 'Błąd weryfikacji semantyki dokumentu faktury', details: schema.errors.slice(0, 3) };
      return;
    }
    const { nip, kind, number } = keyOf(invoice.xml);
    const key = `${nip}|${kind}|${number}`;
    const original = this.accepted.get(key);
    if (original) {
      invoice.status = { code: 440, description: 'Duplikat faktury', details: [`Faktura ${number} została już przyjęta.`], extensions: { originalSessionReferenceNumber: session.referenceNumber, originalKsefNumber: original.ksefNumber } };
      return;
    }
    invoice.ksefNumber = newKsefNumber(nip, new Date().toISOString().slice(0, 10));
    invoice.acquisitionDate = new Date().toISOString();
    invoice.status = { code: 200, description: 'Sukces' };
    this.accepted.set(key, { ksefNumber: invoice.ksefNumber, hash: invoice.invoiceHash, xml: invoice.xml, number, acquisitionDate: invoice.acquisitionDate });
  }

  private own(referenceNumber: string, nip: string): FakeSession | undefined {
    const session = this.sessions.get(referenceNumber);
    return session?.nip === nip ? session : undefined;
  }

  /** One page; the next is asked for with the `x-continuation-token` header (KSeF's paging). */
  private page<T>(items: T[], key: string, url: URL, continuation: string): Record<string, unknown> {
    const start = Number(continuation) || 0;
    const size = Math.min(this.pageSize, Number(url.searchParams.get('pageSize') ?? 10));
    const end = start + size;
    return { [key]: items.slice(start, end), ...(end < items.length ? { continuationToken: String(end) } : {}) };
  }

  private newAccess(nip: string) {
    const token = randomUUID();
    const validUntil = Date.now() + this.accessTtlMs;
    this.access.set(token, { nip, validUntil });
    return { token, validUntil: new Date(validUntil).toISOString() };
  }

  private decrypt(base64: string): Buffer {
    return privateDecrypt({ key: this.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(base64, 'base64'));
  }
}

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };
const LOSE = Symbol('lose the answer');
const ok = (body: unknown): Answer => ({ status: 200, body });
const exception = (code: number, description: string) => ({ exception: { exceptionDetailList: [{ exceptionCode: code, exceptionDescription: description, details: [] }], referenceNumber: randomUUID(), timestamp: new Date().toISOString() } });
const fail = (status: number, code: number, description: string): Answer => ({ status, body: exception(code, description) });
const bearerOf = (req: http.IncomingMessage) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
const sessionStatus = (s: FakeSession) => (s.open ? { code: 100, description: 'Sesja interaktywna otwarta' } : { code: 200, description: 'Sesja interaktywna przetworzona pomyślnie' });
const view = (i: FakeSessionInvoice) => ({
  ordinalNumber: i.ordinalNumber, referenceNumber: i.referenceNumber, invoiceHash: i.invoiceHash, invoiceNumber: i.invoiceNumber, invoicingDate: i.invoicingDate,
  ksefNumber: i.ksefNumber ?? null, acquisitionDate: i.acquisitionDate ?? null, upoDownloadUrl: i.ksefNumber ? `https://upo.example/${i.referenceNumber}` : null, status: i.status,
});
