/**
 * A local stand-in for the AEAT's VERI*FACTU web service that speaks its wire format, for the live
 * client's tests (live-aeat.int.spec.ts): HTTPS demanding a client certificate from its CA, a SOAP
 * `RegFactuSistemaFacturacion` in, `RespuestaRegFactuSistemaFacturacion` (or a SOAP Fault) out, with
 * the AEAT's per-record answers: Correcto, Incorrecto 1150 (F2 over 3,000 euros), 3000 with
 * `RegistroDuplicado` for a record it holds, 3002/3001 for cancellations. `mode` makes it fail as the
 * service can: `fault` (Codigo[4104]), `down` (HTTP 503), `lose` (takes the records, then cuts the
 * connection before answering).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { requestText } from '../../shared/testing/local-server';
import { all, first, soapBody, textAt, type XmlElement } from '../../shared/xml-read';
import { submissionOracle } from './submission-oracle';

const NS_RESPONSE = 'https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/RespuestaSuministro.xsd';
const NS_INFO = 'https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroInformacion.xsd';

export interface FakeAeatOptions {
  readonly key: string;
  readonly cert: string;
  /** The CA client certificates must chain to. */
  readonly ca: string;
  readonly waitSeconds?: number;
}

export class FakeAeat {
  mode: 'ok' | 'fault' | 'down' | 'lose' = 'ok';
  /** Every message received, as sent (for assertions on the wire format). */
  readonly received: string[] = [];
  /** What it holds: `nif|number|date` → state. */
  readonly records = new Map<string, 'Correcta' | 'Anulada'>();
  private server?: https.Server;

  constructor(private readonly options: FakeAeatOptions) {}

  async start(): Promise<string> {
    this.server = https.createServer({ key: this.options.key, cert: this.options.cert, ca: this.options.ca, requestCert: true, rejectUnauthorized: true }, (request, response) => {
      void requestText(request).then((xml) => this.answer(xml, request, response));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async answer(xml: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    this.received.push(xml);
    if (this.mode === 'down') return void response.writeHead(503).end('Service Unavailable');
    if (this.mode === 'fault') return void this.fault(response, '4104', 'El NIF del titular en la cabecera no está identificado.');
    if (request.headers['content-type']?.startsWith('text/xml') !== true) return void this.fault(response, '4102', 'El XML no cumple el esquema.');
    // By local names: the AEAT's prefixes are not a contract.
    const message = first(soapBody(xml), 'RegFactuSistemaFacturacion');
    // The AEAT's schema, on the message as it arrived (its namespaces declared on the envelope's child).
    if (!message || !(await submissionOracle(`<?xml version="1.0" encoding="UTF-8"?>\n${xml.slice(message.start, message.end)}`)).valid) {
      return void this.fault(response, '4102', 'El XML no cumple el esquema.');
    }
    const nif = textAt(message, 'Cabecera', 'ObligadoEmision', 'NIF') ?? '';
    const lines = all(message, 'RegistroFactura').map((entry) => this.line(nif, entry));
    if (this.mode === 'lose') return void request.socket.destroy();
    const csv = `FAKE${Date.now().toString(36).toUpperCase()}`;
    const state = lines.every((l) => l.state === 'Correcto') ? 'Correcto' : lines.some((l) => l.state !== 'Incorrecto') ? 'ParcialmenteCorrecto' : 'Incorrecto';
    response.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(
      `<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="http://schemas.xmlsoap.org/soap/envelope/"><env:Body>` +
        `<tikR:RespuestaRegFactuSistemaFacturacion xmlns:tikR="${NS_RESPONSE}" xmlns:tik="${NS_INFO}">` +
        `<tikR:CSV>${csv}</tikR:CSV><tikR:DatosPresentacion><tik:NIFPresentador>${nif}</tik:NIFPresentador><tik:TimestampPresentacion>${new Date().toISOString()}</tik:TimestampPresentacion></tikR:DatosPresentacion>` +
        `<tikR:Cabecera><tik:ObligadoEmision><tik:NombreRazon>x</tik:NombreRazon><tik:NIF>${nif}</tik:NIF></tik:ObligadoEmision></tikR:Cabecera>` +
        `<tikR:TiempoEsperaEnvio>${this.options.waitSeconds ?? 60}</tikR:TiempoEsperaEnvio><tikR:EstadoEnvio>${state}</tikR:EstadoEnvio>` +
        lines.map((l) => l.xml).join('') +
        `</tikR:RespuestaRegFactuSistemaFacturacion></env:Body></env:Envelope>`,
    );
  }

  private line(nif: string, entry: XmlElement): { state: string; xml: string } {
    const alta = first(entry, 'RegistroAlta');
    const id = first(alta ?? first(entry, 'RegistroAnulacion'), 'IDFactura');
    const number = textAt(id, alta ? 'NumSerieFactura' : 'NumSerieFacturaAnulada') ?? '';
    const date = textAt(id, alta ? 'FechaExpedicionFactura' : 'FechaExpedicionFacturaAnulada') ?? '';
    const key = `${nif}|${number}|${date}`;
    const held = this.records.get(key);
    let state = 'Correcto';
    let error: [string, string] | undefined;
    let duplicate: string | undefined;
    if (alta) {
      if (held) [state, error, duplicate] = ['Incorrecto', ['3000', 'Registro de facturación duplicado.'], held === 'Anulada' ? 'Anulada' : 'Correcta'];
      else if (textAt(alta, 'TipoFactura') === 'F2' && Number(textAt(alta, 'ImporteTotal')) > 3000) [state, error] = ['Incorrecto', ['1150', 'Factura simplificada de importe superior a 3.000 euros.']];
      else this.records.set(key, 'Correcta');
    } else if (!held) [state, error] = ['Incorrecto', ['3002', 'No existe el registro de facturación.']];
    else if (held === 'Anulada') [state, error] = ['Incorrecto', ['3001', 'El registro ya está anulado.']];
    else this.records.set(key, 'Anulada');
    const idXml = `<tikR:IDFactura><tik:IDEmisorFactura>${nif}</tik:IDEmisorFactura><tik:NumSerieFactura>${number}</tik:NumSerieFactura><tik:FechaExpedicionFactura>${date}</tik:FechaExpedicionFactura></tikR:IDFactura>`;
    const xml =
      `<tikR:RespuestaLinea>${idXml}<tikR:Operacion><tik:TipoOperacion>${alta ? 'Alta' : 'Anulacion'}</tik:TipoOperacion></tikR:Operacion>` +
      `<tikR:EstadoRegistro>${state}</tikR:EstadoRegistro>` +
      (error ? `<tikR:CodigoErrorRegistro>${error[0]}</tikR:CodigoErrorRegistro><tikR:DescripcionErrorRegistro>${error[1]}</tikR:DescripcionErrorRegistro>` : '') +
      (duplicate ? `<tikR:RegistroDuplicado><tik:IdPeticionRegistroDuplicado>1</tik:IdPeticionRegistroDuplicado><tik:EstadoRegistroDuplicado>${duplicate}</tik:EstadoRegistroDuplicado></tikR:RegistroDuplicado>` : '') +
      `</tikR:RespuestaLinea>`;
    return { state, xml };
  }

  private fault(response: ServerResponse, code: string, text: string): void {
    response.writeHead(500, { 'content-type': 'text/xml; charset=utf-8' }).end(
      `<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="http://schemas.xmlsoap.org/soap/envelope/"><env:Body><env:Fault>` +
        `<faultcode>env:Client</faultcode><faultstring>Codigo[${code}].${text}</faultstring><detail><callstack>WSExcepcion</callstack></detail></env:Fault></env:Body></env:Envelope>`,
    );
  }
}
