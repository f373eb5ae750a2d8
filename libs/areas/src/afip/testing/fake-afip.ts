/**
 * A local AFIP for the live client's tests, speaking AFIP's SOAP: WSAA's `loginCms` (the CMS signature
 * checked by the openssl command line against the test CA, the CUIT read from the signer's certificate
 * `serialNumber=CUIT …`, the TRA's times in AFIP's format, `coe.alreadyAuthenticated` while a ticket of
 * that certificate is valid) and WSFEv1 (Auth checked: 600 unknown or expired token, 601 a CUIT the
 * certificate does not represent; FECompUltimoAutorizado, FECAESolicitar with AFIP's validations and
 * codes, FECompConsultar with 602, the seven FEParamGet*). State in memory. Failure injection: an
 * operation answering HTTP 503 or AFIP's internal error 501, or its answer lost after it was done.
 */
import { spawn } from 'node:child_process';
import { X509Certificate, randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { type LocalServer, listenLocally, requestText } from '../../shared/testing/local-server';
import { type XmlNode, el, toXml } from '../../shared/xml';
import { type CatalogName, catalog } from '../catalogs';
import { type VoucherRequest, afipDate, afipTimestamp, validateVoucher } from '../validations';
import { WSFE_NAMESPACE } from '../live/live-wsfe';
import { voucherFromSoap } from '../live/soap';
import { first, rootNamed, soapBody, textAt, type XmlElement } from '../../shared/xml-read';
import { WSAA_NAMESPACE } from '../live/wsaa';

type Node = Record<string, unknown>;

const CATALOG_OPERATIONS: Record<string, [CatalogName, string]> = {
  FEParamGetTiposCbte: ['voucher-types', 'CbteTipo'],
  FEParamGetTiposConcepto: ['concept-types', 'ConceptoTipo'],
  FEParamGetTiposDoc: ['document-types', 'DocTipo'],
  FEParamGetTiposIva: ['rates', 'IvaTipo'],
  FEParamGetTiposMonedas: ['currencies', 'Moneda'],
  FEParamGetTiposOpcional: ['options-types', 'OpcionalTipo'],
  FEParamGetTiposTributos: ['tax-types', 'TributoTipo'],
};
const AFIP_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[-+]\d{2}:\d{2}$/;

/** Elements for a value: one per key, arrays repeating the element, numbers and text as text. */
function toNodes(name: string, value: unknown): XmlNode[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((v) => toNodes(name, v));
  if (typeof value === 'object') return [el(name, {}, ...Object.entries(value as Node).flatMap(([k, v]) => toNodes(k, v)))];
  return [el(name, {}, String(value))];
}

interface Ticket {
  readonly token: string;
  readonly sign: string;
  readonly cuits: readonly string[];
  readonly expiresAt: number;
  readonly certificate: string;
}

interface Held {
  readonly voucher: VoucherRequest;
  readonly cae: string;
  readonly caeVto: string;
  readonly fchProceso: string;
}

export class FakeAfip {
  /** Successful logins (tickets issued) and every loginCms received. */
  logins = 0;
  loginAttempts = 0;
  /** Every WSFEv1 operation received, in order. */
  readonly calls: string[] = [];
  readonly vouchers = new Map<string, Held>();
  private readonly tickets = new Map<string, Ticket>();
  private readonly failures = new Map<string, 'http503' | 'internal' | 'lose'>();
  private server!: LocalServer;
  private readonly dir = mkdtempSync(path.join(os.tmpdir(), 'fake-afip-'));

  private constructor(
    private readonly options: {
      /** The CA AFIP trusts (PEM). */
      readonly ca: string;
      /** CUITs each certificate's CUIT may act for (AFIP's delegations), besides its own. */
      readonly relations?: Readonly<Record<string, readonly string[]>>;
      /** A ticket's life (AFIP: 12 h). */
      readonly ticketTtlMs?: number;
      /** How long loginCms takes to answer. */
      readonly loginDelayMs?: number;
      /** AFIP's clock for its tickets (tests move it instead of waiting); default Date.now. */
      readonly now?: () => number;
    },
  ) {
    writeFileSync(path.join(this.dir, 'ca.pem'), options.ca);
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  static async start(options: FakeAfip['options']): Promise<FakeAfip> {
    const fake = new FakeAfip(options);
    fake.server = await listenLocally((req, res) => void fake.handle(req, res));
    return fake;
  }

  get wsaaUrl() {
    return `${this.server.url}/ws/services/LoginCms`;
  }

  get wsfeUrl() {
    return `${this.server.url}/wsfev1/service.asmx`;
  }

  /** The next call of `operation` fails: HTTP 503, AFIP's internal error 501, or done and its answer lost. */
  failNext(operation: string, how: 'http503' | 'internal' | 'lose') {
    this.failures.set(operation, how);
  }

  /** Tickets expire now (AFIP's clock moved on): the next WSFE call answers 600. */
  expireTickets() {
    for (const [token, t] of this.tickets) this.tickets.set(token, { ...t, expiresAt: this.now() - 1 });
  }

  async stop() {
    await this.server.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const body = soapBody(await requestText(req));
    const send = (status: number, operation: XmlNode) => {
      res.writeHead(status, { 'content-type': 'text/xml; charset=utf-8' });
      res.end(toXml(el('soap:Envelope', { 'xmlns:soap': 'http://schemas.xmlsoap.org/soap/envelope/' }, el('soap:Body', {}, operation))));
    };
    const fault = (code: string, message: string) => send(500, el('soap:Fault', {}, el('faultcode', { 'xmlns:ns1': 'http://xml.apache.org/axis/' }, `ns1:${code}`), el('faultstring', {}, message)));
    if (!body) return fault('Client', 'Not a SOAP envelope.');
    if (req.url === '/ws/services/LoginCms') return this.loginCms(textAt(body, 'loginCms', 'in0') ?? '', send, fault);
    if (req.url !== '/wsfev1/service.asmx') return fault('Client', `No service at ${req.url}.`);
    const request = body.children[0];
    const operation = request?.name ?? '';
    this.calls.push(operation);
    const failure = this.failures.get(operation);
    this.failures.delete(operation);
    if (failure === 'http503') {
      res.writeHead(503).end('Service Unavailable');
      return;
    }
    const result = failure === 'internal' ? { Errors: { Err: [{ Code: 501, Msg: 'Error interno de base de datos.' }] } } : this.wsfe(operation, request);
    if (failure === 'lose') {
      res.socket?.destroy();
      return;
    }
    send(200, el(`${operation}Response`, { xmlns: WSFE_NAMESPACE }, ...toNodes(`${operation}Result`, result)));
  }

  private async loginCms(cms: string, send: (status: number, node: XmlNode) => void, fault: (code: string, message: string) => void) {
    this.loginAttempts++;
    const signed = await this.verify(cms);
    if (!signed) return fault('cms.bad', 'El CMS no es valido (firma o certificado).');
    const tra = rootNamed(signed.content, 'loginTicketRequest');
    const generation = textAt(tra, 'header', 'generationTime') ?? '';
    const expiration = textAt(tra, 'header', 'expirationTime') ?? '';
    if (!AFIP_TIME.test(generation) || !AFIP_TIME.test(expiration)) return fault('xml.bad', 'generationTime y expirationTime deben tener el formato xsd:dateTime con zona horaria.');
    if (Date.parse(generation) > this.now() || Date.parse(expiration) < this.now()) return fault('cms.bad', 'El TRA no es valido en este momento.');
    const service = textAt(tra, 'service');
    if (service !== 'wsfe') return fault('coe.notAuthorized', `Computador no autorizado a acceder al servicio ${String(service)}.`);
    const certificate = new X509Certificate(signed.signer).fingerprint256;
    if ([...this.tickets.values()].some((t) => t.certificate === certificate && t.expiresAt > this.now())) {
      return fault('coe.alreadyAuthenticated', 'El CEE ya posee un TA valido para el acceso al WSN solicitado');
    }
    const cuit = /serialNumber=CUIT (\d{11})/i.exec(new X509Certificate(signed.signer).subject)?.[1];
    if (!cuit) return fault('cms.cert.untrusted', 'El certificado no identifica una CUIT (serialNumber=CUIT …).');
    if (this.options.loginDelayMs) await new Promise((resolve) => setTimeout(resolve, this.options.loginDelayMs));
    const cuits = [cuit, ...(this.options.relations?.[cuit] ?? [])];
    const expiresAt = this.now() + (this.options.ticketTtlMs ?? 12 * 3_600_000);
    const sso = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sso version="2.0"><id src="CN=wsaahomo, O=AFIP, C=AR" dst="CN=wsfe, O=AFIP, C=AR" unique_id="${randomInt(1e9)}" gen_time="${Math.floor(this.now() / 1000)}" exp_time="${Math.floor(expiresAt / 1000)}"/><operation type="login" value="granted"><login entity="33693450239" service="wsfe" uid="SERIALNUMBER=CUIT ${cuit}" authmethod="cms" regmethod="22"><relations>${cuits.map((c) => `<relation key="${c}" reltype="4"/>`).join('')}</relations></login></operation></sso>`;
    const ticket: Ticket = { token: Buffer.from(sso).toString('base64'), sign: randomBytes(128).toString('base64'), cuits, expiresAt, certificate };
    this.tickets.set(ticket.token, ticket);
    this.logins++;
    const response = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><loginTicketResponse version="1.0"><header><source>CN=wsaahomo, O=AFIP, C=AR, SERIALNUMBER=CUIT 33693450239</source><destination>SERIALNUMBER=CUIT ${cuit}</destination><uniqueId>${randomInt(1e9)}</uniqueId><generationTime>${new Date().toISOString().replace('Z', '-00:00')}</generationTime><expirationTime>${new Date(expiresAt).toISOString().replace('Z', '-00:00')}</expirationTime></header><credentials><token>${ticket.token}</token><sign>${ticket.sign}</sign></credentials></loginTicketResponse>`;
    send(200, el('loginCmsResponse', { xmlns: WSAA_NAMESPACE }, el('loginCmsReturn', {}, response)));
  }

  /** `openssl cms -verify` against the test CA: the signed content and the signer's certificate, or undefined. */
  private verify(cms: string): Promise<{ content: string; signer: string } | undefined> {
    const signerFile = path.join(this.dir, `signer-${randomInt(1e9)}.pem`);
    return new Promise((resolve) => {
      const child = spawn('openssl', ['cms', '-verify', '-inform', 'DER', '-CAfile', path.join(this.dir, 'ca.pem'), '-purpose', 'any', '-signer', signerFile], { stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.on('close', (code) => {
        if (code !== 0) return resolve(undefined);
        const signer = readFileSync(signerFile, 'utf8');
        rmSync(signerFile, { force: true });
        resolve({ content: Buffer.concat(out).toString('utf8'), signer });
      });
      child.stdin.end(Buffer.from(cms, 'base64'));
    });
  }

  private wsfe(operation: string, request: XmlElement | undefined): Node {
    const ticket = this.tickets.get(textAt(request, 'Auth', 'Token') ?? '');
    const cuit = textAt(request, 'Auth', 'Cuit') ?? '';
    if (!ticket || ticket.sign !== textAt(request, 'Auth', 'Sign') || ticket.expiresAt < this.now()) return { Errors: { Err: [{ Code: 600, Msg: 'ValidacionDeToken: No validaron las fechas del token GenTime, ExpTime, NowUTC.' }] } };
    if (!ticket.cuits.includes(cuit)) return { Errors: { Err: [{ Code: 601, Msg: `CUIT representada no incluida en Token: ${cuit}` }] } };
    const catalogOperation = CATALOG_OPERATIONS[operation];
    if (catalogOperation) return { ResultGet: { [catalogOperation[1]]: catalog(catalogOperation[0]) } };
    const number = (el: XmlElement | undefined, name: string) => Number(textAt(el, name));
    if (operation === 'FECompUltimoAutorizado') {
      return { PtoVta: textAt(request, 'PtoVta'), CbteTipo: textAt(request, 'CbteTipo'), CbteNro: this.last(cuit, number(request, 'PtoVta'), number(request, 'CbteTipo')).number };
    }
    if (operation === 'FECompConsultar') {
      const q = first(request, 'FeCompConsReq');
      const held = this.vouchers.get(this.key(cuit, number(q, 'PtoVta'), number(q, 'CbteTipo'), number(q, 'CbteNro')));
      if (!held) return { Errors: { Err: [{ Code: 602, Msg: 'Sin Resultados: - No existen datos en nuestros registros para los parametros ingresados.' }] } };
      const { Iva, Tributos, CantReg: _cantReg, ...fields } = held.voucher;
      return { ResultGet: { ...fields, ...(Iva ? { Iva: { AlicIva: Iva } } : {}), ...(Tributos ? { Tributos: { Tributo: Tributos } } : {}), Resultado: 'A', CodAutorizacion: held.cae, EmisionTipo: 'CAE', FchVto: held.caeVto, FchProceso: held.fchProceso } };
    }
    if (operation === 'FECAESolicitar') return this.solicitar(cuit, first(request, 'FeCAEReq'));
    return { Errors: { Err: [{ Code: 500, Msg: `Operacion desconocida ${operation}.` }] } };
  }

  private solicitar(cuit: string, request: XmlElement | undefined): Node {
    const voucher = voucherFromSoap(first(request, 'FeDetReq', 'FECAEDetRequest'), first(request, 'FeCabReq'));
    const today = afipDate(new Date());
    const date = voucher.CbteFch ?? today;
    const fchProceso = afipTimestamp(new Date());
    const cab = { Cuit: cuit, PtoVta: voucher.PtoVta, CbteTipo: voucher.CbteTipo, FchProceso: fchProceso, CantReg: voucher.CantReg };
    const det = { Concepto: voucher.Concepto, DocTipo: voucher.DocTipo, DocNro: voucher.DocNro, CbteDesde: voucher.CbteDesde, CbteHasta: voucher.CbteHasta, CbteFch: date };
    const errors = validateVoucher(voucher, { last: this.last(cuit, voucher.PtoVta, voucher.CbteTipo), today });
    if (errors.length) return { FeCabResp: { ...cab, Resultado: 'R', Reproceso: 'N' }, FeDetResp: { FECAEDetResponse: [{ ...det, Resultado: 'R', CAE: '', CAEFchVto: '' }] }, Errors: { Err: errors } };
    const cae = `7${String(randomInt(1e9)).padStart(9, '0')}${String(randomInt(1e4)).padStart(4, '0')}`;
    const caeVto = afipDate(new Date(Date.now() + 10 * 86_400_000));
    this.vouchers.set(this.key(cuit, voucher.PtoVta, voucher.CbteTipo, voucher.CbteDesde), { voucher: { ...voucher, CbteFch: date }, cae, caeVto, fchProceso });
    return { FeCabResp: { ...cab, Resultado: 'A', Reproceso: 'N' }, FeDetResp: { FECAEDetResponse: [{ ...det, Resultado: 'A', Observaciones: { Obs: [{ Code: 10217, Msg: 'El credito fiscal discriminado en el presente comprobante solo podra ser computado a efectos del Procedimiento permanente de transicion al Regimen General.' }] }, CAE: cae, CAEFchVto: caeVto }] } };
  }

  private key(cuit: string, ptoVta: number, cbteTipo: number, number: number) {
    return `${cuit}/${ptoVta}/${cbteTipo}/${number}`;
  }

  private last(cuit: string, ptoVta: number, cbteTipo: number): { number: number; date?: string } {
    let number = 0;
    let date: string | undefined;
    for (const [key, held] of this.vouchers) {
      if (key.startsWith(`${cuit}/${ptoVta}/${cbteTipo}/`) && held.voucher.CbteHasta > number) ({ CbteHasta: number, CbteFch: date } = held.voucher);
    }
    return { number, ...(date ? { date } : {}) };
  }
}
