/**
 * SOAP 1.1 over HTTP(S) for AFIP's web services (WSAA, WSFEv1). AFIP's hosts still need the TLS cipher
 * AES128-SHA (notes section 2), which OpenSSL 3 keeps only at security level 1: `AFIP_CIPHERS` allows it
 * next to the defaults. A network failure, a timeout or an HTTP status other than 200 (or 500 with a
 * Fault) is AFIP being unavailable: retriable (shared/authority-http.ts).
 */
import { AppError } from '@einvoice/domain';
import { XMLParser } from 'fast-xml-parser';
import { AuthorityHttp } from '../../shared/authority-http';
import { type XmlNode, el, toXml } from '../../shared/xml';
import type { VoucherRequest } from '../validations';

export const AFIP_CIPHERS = 'DEFAULT:AES128-SHA:@SECLEVEL=1';

/** Elements AFIP repeats, kept as arrays even when one comes (paths end with these). */
const LISTS = ['FeDetReq.FECAEDetRequest', 'Errors.Err', 'Observaciones.Obs', 'Events.Evt', 'FeDetResp.FECAEDetResponse', 'Iva.AlicIva', 'Tributos.Tributo', 'ResultGet.CbteTipo', 'ResultGet.ConceptoTipo', 'ResultGet.DocTipo', 'ResultGet.IvaTipo', 'ResultGet.Moneda', 'ResultGet.OpcionalTipo', 'ResultGet.TributoTipo'];
const parser = new XMLParser({ removeNSPrefix: true, parseTagValue: false, ignoreAttributes: true, trimValues: true, isArray: (_name, jpath) => LISTS.some((l) => String(jpath).endsWith(l)) });

export type SoapNode = Record<string, unknown>;

export interface SoapFault {
  readonly faultcode: string;
  readonly faultstring: string;
}

export const unavailable = (message: string) => new AppError('unavailable', 'AFIP.UNAVAILABLE', message, { retriable: true });

/** Posts an envelope; answers the Body's first element (the operation's response) or the Fault. */
export async function soapCall(url: string, action: string, envelope: string, timeoutMs: number): Promise<{ readonly body: SoapNode } | { readonly fault: SoapFault }> {
  // The operation: SOAPAction's last segment (WSFEv1's), else the endpoint's (WSAA's LoginCms, whose action is empty).
  const name = (action || new URL(url).pathname).replace(/^.*\//, '');
  const http = new AuthorityHttp({ area: 'ar', authority: 'AFIP', timeoutMs, codes: { unavailable: 'AFIP.UNAVAILABLE' }, tls: { ciphers: AFIP_CIPHERS } });
  const text = await http.soap({ name, url, action, envelope });
  let body: SoapNode | undefined;
  try {
    body = ((parser.parse(text) as SoapNode).Envelope as SoapNode | undefined)?.Body as SoapNode | undefined;
  } catch {
    body = undefined;
  }
  if (!body) throw unavailable(`AFIP answered something that is not SOAP: ${text.slice(0, 200)}`);
  const fault = body.Fault as SoapNode | undefined;
  if (fault) return { fault: { faultcode: String(fault.faultcode ?? '').replace(/^.*:/, ''), faultstring: String(fault.faultstring ?? '') } };
  return { body };
}

/** A SOAP 1.1 envelope around one operation element. */
export const envelope = (operation: XmlNode) => toXml(el('soap:Envelope', { 'xmlns:soap': 'http://schemas.xmlsoap.org/soap/envelope/' }, el('soap:Body', {}, operation)));

/** Parses AFIP's XML (a document it nests as text, such as WSAA's loginTicketResponse; a whole envelope), repeated elements as arrays. */
export const parseXml = (xml: string) => parser.parse(xml) as SoapNode;

/** An element's children that AFIP may repeat, as an array whether one or several came. */
export const soapList = (value: unknown): SoapNode[] => (Array.isArray(value) ? value : value ? [value] : []) as SoapNode[];

/**
 * A voucher as WSFEv1 writes it (FECAEDetRequest, FECompConsultar's ResultGet), read back: numbers as
 * numbers, optional dates and arrays only when present. `head` gives what FeCabReq holds for a request.
 */
export function voucherFromSoap(node: SoapNode, head: SoapNode = node): VoucherRequest {
  const n = (name: string, from = node) => Number(from[name] ?? 0);
  const s = (name: string) => (node[name] === undefined || node[name] === '' ? undefined : String(node[name]));
  const optional = (name: 'CbteFch' | 'FchServDesde' | 'FchServHasta' | 'FchVtoPago') => (s(name) ? { [name]: s(name) } : {});
  return {
    CantReg: head === node ? 1 : n('CantReg', head), PtoVta: n('PtoVta', head), CbteTipo: n('CbteTipo', head),
    Concepto: n('Concepto'), DocTipo: n('DocTipo'), DocNro: n('DocNro'), CbteDesde: n('CbteDesde'), CbteHasta: n('CbteHasta'),
    ImpTotal: n('ImpTotal'), ImpTotConc: n('ImpTotConc'), ImpNeto: n('ImpNeto'), ImpOpEx: n('ImpOpEx'), ImpIVA: n('ImpIVA'), ImpTrib: n('ImpTrib'),
    MonId: String(node.MonId ?? ''), MonCotiz: n('MonCotiz'),
    ...optional('CbteFch'), ...optional('FchServDesde'), ...optional('FchServHasta'), ...optional('FchVtoPago'),
    ...(node.CondicionIVAReceptorId !== undefined ? { CondicionIVAReceptorId: n('CondicionIVAReceptorId') } : {}),
    ...(node.Iva ? { Iva: soapList((node.Iva as SoapNode).AlicIva).map((i) => ({ Id: Number(i.Id), BaseImp: Number(i.BaseImp), Importe: Number(i.Importe) })) } : {}),
    ...(node.Tributos ? { Tributos: soapList((node.Tributos as SoapNode).Tributo).map((t) => ({ Id: Number(t.Id), BaseImp: Number(t.BaseImp), Alic: Number(t.Alic), Importe: Number(t.Importe) })) } : {}),
  };
}
