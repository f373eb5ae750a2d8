/**
 * The AEAT's answer to `RegFactuSistemaFacturacion` (RespuestaSuministro.xsd, as described in
 * Veri-Factu_Descripcion_SWeb.txt 6.4 and national-systems-detail.md section 5): a CSV, the wait before
 * the next send (`TiempoEsperaEnvio`), the send's state, and one `RespuestaLinea` per record with its
 * `EstadoRegistro` (Correcto, AceptadoConErrores, Incorrecto), error code and description, and for a
 * duplicate the state of the record the AEAT already holds. Or a SOAP Fault (`Codigo[4104]...`) refusing
 * the whole send. Read by local names: the AEAT's prefixes are not a contract.
 */
import { all, first, soapBody, textAt, type XmlElement } from '../shared/xml-read';

export interface ResponseLine {
  readonly number: string;
  /** dd-mm-yyyy. */
  readonly issueDate: string;
  readonly operation: 'Alta' | 'Anulacion';
  readonly state: 'Correcto' | 'AceptadoConErrores' | 'Incorrecto';
  readonly errorCode?: string;
  readonly errorDescription?: string;
  /** For error 3000: the state of the record the AEAT already holds (Correcta, AceptadaConErrores, Anulada). */
  readonly duplicateState?: string;
}

export type AeatAnswer =
  | { readonly kind: 'answer'; readonly csv?: string; readonly waitSeconds?: number; readonly sendState: string; readonly lines: readonly ResponseLine[] }
  | { readonly kind: 'fault'; readonly code?: string; readonly message: string };

/** The trimmed text of an element that is there ('' when blank), undefined when it is not. */
const text = (el: XmlElement | undefined, name: string): string | undefined => {
  const found = first(el, name);
  return found && found.text.trim();
};

/** @throws Error when the text is not the AEAT's SOAP answer */
export function parseAeatResponse(xml: string): AeatAnswer {
  const body = soapBody(xml);
  if (!body) throw new Error('not a SOAP envelope');
  const fault = first(body, 'Fault');
  if (fault) {
    const message = textAt(fault, 'faultstring')?.replace(/\s+/g, ' ').trim() ?? 'SOAP Fault';
    return { kind: 'fault', code: /Codigo\[(\d+)\]/.exec(message)?.[1], message };
  }
  const answer = first(body, 'RespuestaRegFactuSistemaFacturacion');
  if (!answer) throw new Error('no RespuestaRegFactuSistemaFacturacion in the SOAP body');
  const lines = all(answer, 'RespuestaLinea').map((line): ResponseLine => {
    const id = first(line, 'IDFactura');
    const duplicate = first(line, 'RegistroDuplicado');
    const errorCode = text(line, 'CodigoErrorRegistro');
    const errorDescription = text(line, 'DescripcionErrorRegistro');
    return {
      number: text(id, 'NumSerieFactura') ?? text(id, 'NumSerieFacturaAnulada') ?? '',
      issueDate: text(id, 'FechaExpedicionFactura') ?? text(id, 'FechaExpedicionFacturaAnulada') ?? '',
      operation: textAt(line, 'Operacion', 'TipoOperacion') === 'Anulacion' ? 'Anulacion' : 'Alta',
      state: text(line, 'EstadoRegistro') as ResponseLine['state'],
      ...(errorCode !== undefined ? { errorCode } : {}),
      ...(errorDescription !== undefined ? { errorDescription } : {}),
      ...(duplicate ? { duplicateState: text(duplicate, 'EstadoRegistroDuplicado') } : {}),
    };
  });
  const wait = text(answer, 'TiempoEsperaEnvio');
  return { kind: 'answer', csv: text(answer, 'CSV'), waitSeconds: wait === undefined ? undefined : Number(wait), sendState: text(answer, 'EstadoEnvio') ?? '', lines };
}
