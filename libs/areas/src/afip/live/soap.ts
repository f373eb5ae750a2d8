/**
 * SOAP 1.1 over HTTP(S) for AFIP's web services (WSAA, WSFEv1). AFIP's hosts still need the TLS cipher
 * AES128-SHA (notes section 2), which OpenSSL 3 keeps only at security level 1: `AFIP_CIPHERS` allows it
 * next to the defaults. A network failure, a timeout or an HTTP status other than 200 (or 500 with a
 * Fault) is AFIP being unavailable: retriable (shared/authority-http.ts).
 */
import { AppError } from '@einvoice/domain';
import { AuthorityHttp } from '../../shared/authority-http';
import { type XmlNode, el, toXml } from '../../shared/xml';
import { all, first, soapBody, textAt, type XmlElement } from '../../shared/xml-read';
import type { VoucherRequest } from '../validations';

export const AFIP_CIPHERS = 'DEFAULT:AES128-SHA:@SECLEVEL=1';

export interface SoapFault {
  readonly faultcode: string;
  readonly faultstring: string;
}

export const unavailable = (message: string) => new AppError('unavailable', 'AFIP.UNAVAILABLE', message, { retriable: true });

/** Posts an envelope; answers the Body (read by local names: AFIP's prefixes vary by service) or the Fault. */
export async function soapCall(url: string, action: string, envelope: string, timeoutMs: number): Promise<{ readonly body: XmlElement } | { readonly fault: SoapFault }> {
  // The operation: SOAPAction's last segment (WSFEv1's), else the endpoint's (WSAA's LoginCms, whose action is empty).
  const name = (action || new URL(url).pathname).replace(/^.*\//, '');
  const http = new AuthorityHttp({ area: 'ar', authority: 'AFIP', timeoutMs, codes: { unavailable: 'AFIP.UNAVAILABLE' }, tls: { ciphers: AFIP_CIPHERS } });
  const text = await http.soap({ name, url, action, envelope });
  const body = soapBody(text);
  if (!body) throw unavailable(`AFIP answered something that is not SOAP: ${text.slice(0, 200)}`);
  const fault = first(body, 'Fault');
  if (fault) return { fault: { faultcode: (textAt(fault, 'faultcode') ?? '').replace(/^.*:/, ''), faultstring: textAt(fault, 'faultstring') ?? '' } };
  return { body };
}

/** A SOAP 1.1 envelope around one operation element. */
export const envelope = (operation: XmlNode) => toXml(el('soap:Envelope', { 'xmlns:soap': 'http://schemas.xmlsoap.org/soap/envelope/' }, el('soap:Body', {}, operation)));

/**
 * A voucher as WSFEv1 writes it (FECAEDetRequest, FECompConsultar's ResultGet), read back: numbers as
 * numbers, optional dates and arrays only when present. `head` gives what FeCabReq holds for a request.
 */
export function voucherFromSoap(node: XmlElement | undefined, head: XmlElement | undefined = node): VoucherRequest {
  const n = (name: string, from = node) => Number(textAt(from, name) ?? 0);
  const number = (el: XmlElement, name: string) => Number(textAt(el, name));
  const optional = (name: 'CbteFch' | 'FchServDesde' | 'FchServHasta' | 'FchVtoPago') => {
    const value = textAt(node, name);
    return value ? { [name]: value } : {};
  };
  return {
    CantReg: head === node ? 1 : n('CantReg', head), PtoVta: n('PtoVta', head), CbteTipo: n('CbteTipo', head),
    Concepto: n('Concepto'), DocTipo: n('DocTipo'), DocNro: n('DocNro'), CbteDesde: n('CbteDesde'), CbteHasta: n('CbteHasta'),
    ImpTotal: n('ImpTotal'), ImpTotConc: n('ImpTotConc'), ImpNeto: n('ImpNeto'), ImpOpEx: n('ImpOpEx'), ImpIVA: n('ImpIVA'), ImpTrib: n('ImpTrib'),
    MonId: textAt(node, 'MonId') ?? '', MonCotiz: n('MonCotiz'),
    ...optional('CbteFch'), ...optional('FchServDesde'), ...optional('FchServHasta'), ...optional('FchVtoPago'),
    ...(first(node, 'CondicionIVAReceptorId') ? { CondicionIVAReceptorId: n('CondicionIVAReceptorId') } : {}),
    ...(first(node, 'Iva')?.children.length ? { Iva: all(node, 'Iva', 'AlicIva').map((i) => ({ Id: number(i, 'Id'), BaseImp: number(i, 'BaseImp'), Importe: number(i, 'Importe') })) } : {}),
    ...(first(node, 'Tributos')?.children.length
      ? { Tributos: all(node, 'Tributos', 'Tributo').map((t) => ({ Id: number(t, 'Id'), BaseImp: number(t, 'BaseImp'), Alic: number(t, 'Alic'), Importe: number(t, 'Importe') })) }
      : {}),
  };
}
