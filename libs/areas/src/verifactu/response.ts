/**
 * The AEAT's answer to `RegFactuSistemaFacturacion` (RespuestaSuministro.xsd, as described in
 * Veri-Factu_Descripcion_SWeb.txt 6.4 and national-systems-detail.md section 5): a CSV, the wait before
 * the next send (`TiempoEsperaEnvio`), the send's state, and one `RespuestaLinea` per record with its
 * `EstadoRegistro` (Correcto, AceptadoConErrores, Incorrecto), error code and description, and for a
 * duplicate the state of the record the AEAT already holds. Or a SOAP Fault (`Codigo[4104]...`) refusing
 * the whole send. Read by local names: the AEAT's prefixes are not a contract.
 */
import { XMLParser } from 'fast-xml-parser';

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

const parser = new XMLParser({ removeNSPrefix: true, parseTagValue: false, ignoreAttributes: true, trimValues: true, isArray: (name) => name === 'RespuestaLinea' });

type Node = Record<string, unknown>;
const text = (value: unknown): string | undefined => (value === undefined || value === null ? undefined : String(value));

export function parseAeatResponse(xml: string): AeatAnswer {
  const body = ((parser.parse(xml) as Node).Envelope as Node | undefined)?.Body as Node | undefined;
  if (!body) throw new Error('not a SOAP envelope');
  const fault = body.Fault as Node | undefined;
  if (fault) {
    const message = text(fault.faultstring)?.replace(/\s+/g, ' ').trim() ?? 'SOAP Fault';
    return { kind: 'fault', code: /Codigo\[(\d+)\]/.exec(message)?.[1], message };
  }
  const answer = body.RespuestaRegFactuSistemaFacturacion as Node | undefined;
  if (!answer) throw new Error('no RespuestaRegFactuSistemaFacturacion in the SOAP body');
  const lines = ((answer.RespuestaLinea as Node[] | undefined) ?? []).map((line): ResponseLine => {
    const id = (line.IDFactura ?? {}) as Node;
    const duplicate = line.RegistroDuplicado as Node | undefined;
    return {
      number: text(id.NumSerieFactura ?? id.NumSerieFacturaAnulada) ?? '',
      issueDate: text(id.FechaExpedicionFactura ?? id.FechaExpedicionFacturaAnulada) ?? '',
      operation: text((line.Operacion as Node | undefined)?.TipoOperacion) === 'Anulacion' ? 'Anulacion' : 'Alta',
      state: text(line.EstadoRegistro) as ResponseLine['state'],
      ...(line.CodigoErrorRegistro !== undefined ? { errorCode: text(line.CodigoErrorRegistro) } : {}),
      ...(line.DescripcionErrorRegistro !== undefined ? { errorDescription: text(line.DescripcionErrorRegistro) } : {}),
      ...(duplicate ? { duplicateState: text(duplicate.EstadoRegistroDuplicado) } : {}),
    };
  });
  const wait = text(answer.TiempoEsperaEnvio);
  return { kind: 'answer', csv: text(answer.CSV), waitSeconds: wait === undefined ? undefined : Number(wait), sendState: text(answer.EstadoEnvio) ?? '', lines };
}
