/**
 * WSFEv1 over SOAP (notes section 2; namespace `http://ar.gov.afip.dif.FEV1/`, SOAPAction namespace +
 * operation): every call carries `Auth{Token, Sign, Cuit}` from the taxpayer's access ticket. AFIP's
 * `Errors` are read as AFIP means them: 600 (the ticket is no longer valid) forgets the ticket and is
 * retried; 601 (the certificate does not represent this CUIT) is refused; 602 is "nothing found"; the
 * 500s are AFIP unwell (retried). Catalogs are cached for the day.
 */
import { AppError } from '@einvoice/domain';
import type { CatalogItem, CatalogName } from '../catalogs';
import { type XmlNode, el, leaf } from '../../shared/xml';
import { all, first, textAt, type XmlElement } from '../../shared/xml-read';
import { afipDate, type AfipError, type VoucherRequest } from '../validations';
import type { AfipReceipt, HeldVoucher, LastVoucher, Taxpayer, Wsfe } from '../wsfe';
import { envelope, soapCall, unavailable, voucherFromSoap } from './soap';

export const WSFE_NAMESPACE = 'http://ar.gov.afip.dif.FEV1/';

/** Each catalog route's operation and the element of each item in its answer. */
const CATALOG_OPERATIONS: Readonly<Record<CatalogName, readonly [operation: string, item: string]>> = {
  'voucher-types': ['FEParamGetTiposCbte', 'CbteTipo'],
  'concept-types': ['FEParamGetTiposConcepto', 'ConceptoTipo'],
  'document-types': ['FEParamGetTiposDoc', 'DocTipo'],
  rates: ['FEParamGetTiposIva', 'IvaTipo'],
  currencies: ['FEParamGetTiposMonedas', 'Moneda'],
  'options-types': ['FEParamGetTiposOpcional', 'OpcionalTipo'],
  'tax-types': ['FEParamGetTiposTributos', 'TributoTipo'],
};

/** The taxpayer's credentials for one call, and how to drop them when AFIP says they are stale. */
export interface WsfeAuth {
  readonly Token: string;
  readonly Sign: string;
  forget(): Promise<void>;
}

const amount = (n: number) => n.toFixed(2);
const afipError = (e: XmlElement): AfipError => ({ Code: Number(textAt(e, 'Code')), Msg: textAt(e, 'Msg') ?? '' });
const errorsOf = (node: XmlElement | undefined): AfipError[] => all(node, 'Errors', 'Err').map(afipError);
const observationsOf = (node: XmlElement | undefined): AfipError[] => all(node, 'Observaciones', 'Obs').map(afipError);

/** FECAEDetRequest, its elements in the order of AFIP's schema. */
function detail(v: VoucherRequest): XmlNode {
  return el('FECAEDetRequest', {},
    leaf('Concepto', String(v.Concepto)), leaf('DocTipo', String(v.DocTipo)), leaf('DocNro', String(v.DocNro)),
    leaf('CbteDesde', String(v.CbteDesde)), leaf('CbteHasta', String(v.CbteHasta)), leaf('CbteFch', v.CbteFch),
    leaf('ImpTotal', amount(v.ImpTotal)), leaf('ImpTotConc', amount(v.ImpTotConc)), leaf('ImpNeto', amount(v.ImpNeto)),
    leaf('ImpOpEx', amount(v.ImpOpEx)), leaf('ImpTrib', amount(v.ImpTrib)), leaf('ImpIVA', amount(v.ImpIVA)),
    leaf('FchServDesde', v.FchServDesde), leaf('FchServHasta', v.FchServHasta), leaf('FchVtoPago', v.FchVtoPago),
    leaf('MonId', v.MonId), leaf('MonCotiz', String(v.MonCotiz)),
    leaf('CondicionIVAReceptorId', v.CondicionIVAReceptorId === undefined ? undefined : String(v.CondicionIVAReceptorId)),
    v.Tributos?.length ? el('Tributos', {}, ...v.Tributos.map((t) => el('Tributo', {}, leaf('Id', String(t.Id)), leaf('Desc', (t as { Desc?: string }).Desc), leaf('BaseImp', amount(t.BaseImp)), leaf('Alic', amount(t.Alic)), leaf('Importe', amount(t.Importe))))) : undefined,
    v.Iva?.length ? el('Iva', {}, ...v.Iva.map((i) => el('AlicIva', {}, leaf('Id', String(i.Id)), leaf('BaseImp', amount(i.BaseImp)), leaf('Importe', amount(i.Importe))))) : undefined,
  );
}

/** A voucher as FECompConsultar's ResultGet gives it: the voucher, its result and CAE. */
function heldVoucher(r: XmlElement): HeldVoucher {
  const s = (name: string) => textAt(r, name) ?? '';
  return {
    ...voucherFromSoap(r),
    Resultado: s('Resultado') === 'A' ? 'A' : 'R',
    CodAutorizacion: s('CodAutorizacion'), EmisionTipo: s('EmisionTipo'), FchVto: s('FchVto'), FchProceso: s('FchProceso'),
  };
}

export class LiveWsfe implements Wsfe {
  private readonly catalogs = new Map<string, CatalogItem[]>();

  constructor(private readonly options: { readonly url: string; readonly timeoutMs: number; readonly auth: (taxpayer: Taxpayer) => Promise<WsfeAuth> }) {}

  async lastAuthorised(taxpayer: Taxpayer, ptoVta: number, cbteTipo: number): Promise<LastVoucher> {
    const result = await this.call(taxpayer, 'FECompUltimoAutorizado', [leaf('PtoVta', String(ptoVta)), leaf('CbteTipo', String(cbteTipo))]);
    return { number: Number(textAt(result, 'CbteNro') ?? 0) };
  }

  async authorise(taxpayer: Taxpayer, v: VoucherRequest): Promise<AfipReceipt> {
    const request = el('FeCAEReq', {}, el('FeCabReq', {}, leaf('CantReg', String(v.CantReg)), leaf('PtoVta', String(v.PtoVta)), leaf('CbteTipo', String(v.CbteTipo))), el('FeDetReq', {}, detail(v)));
    // A refusal of the voucher comes as Resultado R with Errors: that is an answer, not a failure.
    const result = await this.call(taxpayer, 'FECAESolicitar', [request], { errorsAreAnswers: true });
    const head = first(result, 'FeCabResp');
    const det = first(result, 'FeDetResp', 'FECAEDetResponse');
    const resultado = (textAt(det, 'Resultado') ?? textAt(head, 'Resultado')) === 'A' ? 'A' : 'R';
    return {
      Cuit: Number(textAt(head, 'Cuit') ?? taxpayer.cuit), PtoVta: Number(textAt(head, 'PtoVta') ?? v.PtoVta), CbteTipo: Number(textAt(head, 'CbteTipo') ?? v.CbteTipo),
      FchProceso: textAt(head, 'FchProceso') ?? '', CantReg: Number(textAt(head, 'CantReg') ?? v.CantReg),
      Resultado: resultado, CbteDesde: Number(textAt(det, 'CbteDesde') ?? v.CbteDesde), CbteHasta: Number(textAt(det, 'CbteHasta') ?? v.CbteHasta),
      CAE: resultado === 'A' ? textAt(det, 'CAE') ?? '' : '', CAEFchVto: resultado === 'A' ? textAt(det, 'CAEFchVto') ?? '' : '', CbteFch: textAt(det, 'CbteFch') ?? v.CbteFch ?? '',
      Observaciones: observationsOf(det), Errors: errorsOf(result),
    };
  }

  async consult(taxpayer: Taxpayer, ptoVta: number, cbteTipo: number, number: number): Promise<HeldVoucher | undefined> {
    const result = await this.call(taxpayer, 'FECompConsultar', [el('FeCompConsReq', {}, leaf('CbteTipo', String(cbteTipo)), leaf('CbteNro', String(number)), leaf('PtoVta', String(ptoVta)))], { notFound: true });
    const held = first(result, 'ResultGet');
    return held ? heldVoucher(held) : undefined;
  }

  async catalog(taxpayer: Taxpayer, name: CatalogName): Promise<CatalogItem[]> {
    const key = `${name}/${afipDate(new Date())}`;
    const cached = this.catalogs.get(key);
    if (cached) return cached;
    const [operation, item] = CATALOG_OPERATIONS[name];
    const result = await this.call(taxpayer, operation, []);
    const items = all(result, 'ResultGet', item).map((i) => ({
      Id: name === 'currencies' ? textAt(i, 'Id') ?? '' : Number(textAt(i, 'Id')), Desc: textAt(i, 'Desc') ?? '', FchDesde: textAt(i, 'FchDesde') ?? '', FchHasta: textAt(i, 'FchHasta') ?? 'NULL',
    }));
    for (const k of this.catalogs.keys()) if (k.startsWith(`${name}/`)) this.catalogs.delete(k);
    this.catalogs.set(key, items);
    return items;
  }

  /** One operation for a taxpayer: its `<operation>Result` (none: nothing found), AFIP's Errors read as described above. */
  private async call(taxpayer: Taxpayer, operation: string, children: ReadonlyArray<XmlNode | undefined>, read: { readonly errorsAreAnswers?: boolean; readonly notFound?: boolean } = {}): Promise<XmlElement | undefined> {
    const { cuit } = taxpayer;
    const auth = await this.options.auth(taxpayer);
    const body = el(operation, { xmlns: WSFE_NAMESPACE }, el('Auth', {}, leaf('Token', auth.Token), leaf('Sign', auth.Sign), leaf('Cuit', cuit)), ...children);
    const answer = await soapCall(this.options.url, `${WSFE_NAMESPACE}${operation}`, envelope(body), this.options.timeoutMs);
    if ('fault' in answer) throw unavailable(`WSFEv1 answered a SOAP Fault to ${operation}: ${answer.fault.faultcode}: ${answer.fault.faultstring}`);
    const result = first(answer.body, `${operation}Response`, `${operation}Result`);
    const [error] = errorsOf(result);
    if (!error) return result;
    if (error.Code === 600) {
      await auth.forget();
      throw new AppError('unavailable', 'AFIP.600', `AFIP no longer takes the access ticket: ${error.Msg}`, { retriable: true });
    }
    if (error.Code === 601) throw new AppError('validation', 'AFIP.601', `The AFIP certificate does not represent CUIT ${cuit}: ${error.Msg}`, { retriable: false });
    if (error.Code === 602 && read.notFound) return undefined;
    if (error.Code >= 500 && error.Code < 600) throw unavailable(`AFIP failed (${error.Code}): ${error.Msg}`);
    if (read.errorsAreAnswers) return result;
    throw new AppError('validation', `AFIP.${error.Code}`, error.Msg, { retriable: false });
  }
}

