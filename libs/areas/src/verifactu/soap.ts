/**
 * The AEAT's `RegFactuSistemaFacturacion` message (SuministroLR.xsd): a header naming the issuer
 * (`ObligadoEmision`), then 1 to 1000 records, in the SOAP 1.1 envelope the VeriFactu web service
 * takes. Elements in the schemas' order; amounts as two-decimal strings.
 */
import { type XmlChild, type XmlNode, el, toXml } from '../shared/xml';
import { type CancellationRecord, type ChainLink, type Party, type RegistrationRecord, type VerifactuRecord, aeatDate } from './record';

export const NS_LR = 'https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroLR.xsd';
export const NS_INFO = 'https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroInformacion.xsd';
const NS_SOAP = 'http://schemas.xmlsoap.org/soap/envelope/';

/** At most this many records per message (SuministroLR.xsd `maxOccurs="1000"`). */
export const MAX_RECORDS_PER_MESSAGE = 1000;

/** The invoicing system that makes the records (`SistemaInformatico`): this gateway, as its producer declares it. */
export interface InvoicingSystem {
  readonly producer: Party;
  /** `NombreSistemaInformatico`, at most 30 characters. */
  readonly name: string;
  /** `IdSistemaInformatico`, at most 2 characters. */
  readonly id: string;
  readonly version: string;
  /** `NumeroInstalacion`: this installation. */
  readonly installation: string;
}

const info = (name: string, ...children: XmlChild[]) => el(`sum1:${name}`, {}, ...children);

function chain(previous: ChainLink | undefined): XmlNode {
  return info(
    'Encadenamiento',
    previous
      ? info('RegistroAnterior', info('IDEmisorFactura', previous.issuerNif), info('NumSerieFactura', previous.number), info('FechaExpedicionFactura', aeatDate(previous.issueDate)), info('Huella', previous.hash))
      : info('PrimerRegistro', 'S'),
  );
}

function system(s: InvoicingSystem): XmlNode {
  return info(
    'SistemaInformatico',
    info('NombreRazon', s.producer.name),
    info('NIF', s.producer.nif),
    info('NombreSistemaInformatico', s.name),
    info('IdSistemaInformatico', s.id),
    info('Version', s.version),
    info('NumeroInstalacion', s.installation),
    // Used only as a VeriFactu system; for several taxpayers (a gateway); several of them now.
    info('TipoUsoPosibleSoloVerifactu', 'S'),
    info('TipoUsoPosibleMultiOT', 'S'),
    info('IndicadorMultiplesOT', 'S'),
  );
}

function registration(r: RegistrationRecord, s: InvoicingSystem): XmlNode {
  return info(
    'RegistroAlta',
    info('IDVersion', '1.0'),
    info('IDFactura', info('IDEmisorFactura', r.issuer.nif), info('NumSerieFactura', r.number), info('FechaExpedicionFactura', aeatDate(r.issueDate))),
    info('NombreRazonEmisor', r.issuer.name),
    r.previousRejection ? info('Subsanacion', 'S') : undefined,
    r.previousRejection && r.previousRejection !== 'N' ? info('RechazoPrevio', r.previousRejection) : undefined,
    info('TipoFactura', r.invoiceType),
    r.rectification ? info('TipoRectificativa', r.rectification.type) : undefined,
    r.rectification
      ? info(
          'FacturasRectificadas',
          ...r.rectification.invoices.map((i) => info('IDFacturaRectificada', info('IDEmisorFactura', r.issuer.nif), info('NumSerieFactura', i.number), info('FechaExpedicionFactura', aeatDate(i.issueDate)))),
        )
      : undefined,
    info('DescripcionOperacion', r.description),
    r.recipient ? info('Destinatarios', info('IDDestinatario', info('NombreRazon', r.recipient.name), info('NIF', r.recipient.nif))) : undefined,
    info(
      'Desglose',
      ...r.taxLines.map((line) => {
        // Only a subject operation (S1, S2) states a rate and the tax charged; exempt and not-subject ones do not.
        const subject = !line.exemption && (line.qualification ?? 'S1').startsWith('S');
        return info(
          'DetalleDesglose',
          info('Impuesto', '01'),
          info('ClaveRegimen', '01'),
          line.exemption ? info('OperacionExenta', line.exemption) : info('CalificacionOperacion', line.qualification ?? 'S1'),
          subject ? info('TipoImpositivo', line.rate) : undefined,
          info('BaseImponibleOimporteNoSujeto', line.base),
          subject ? info('CuotaRepercutida', line.charged) : undefined,
        );
      }),
    ),
    info('CuotaTotal', r.taxTotal),
    info('ImporteTotal', r.total),
    chain(r.previous),
    system(s),
    info('FechaHoraHusoGenRegistro', r.generatedAt),
    info('TipoHuella', '01'),
    info('Huella', r.hash),
  );
}

function cancellation(r: CancellationRecord, s: InvoicingSystem): XmlNode {
  return info(
    'RegistroAnulacion',
    info('IDVersion', '1.0'),
    info('IDFactura', info('IDEmisorFacturaAnulada', r.issuer.nif), info('NumSerieFacturaAnulada', r.number), info('FechaExpedicionFacturaAnulada', aeatDate(r.issueDate))),
    chain(r.previous),
    system(s),
    info('FechaHoraHusoGenRegistro', r.generatedAt),
    info('TipoHuella', '01'),
    info('Huella', r.hash),
  );
}

/** The record alone (`sum1:RegistroAlta` or `sum1:RegistroAnulacion`). */
export function recordNode(record: VerifactuRecord, s: InvoicingSystem): XmlNode {
  return record.kind === 'registration' ? registration(record, s) : cancellation(record, s);
}

/** `sum:RegFactuSistemaFacturacion` for one issuer's records (1 to 1000), namespaces declared on it. */
export function submissionNode(issuer: Party, records: readonly VerifactuRecord[], s: InvoicingSystem): XmlNode {
  if (records.length < 1 || records.length > MAX_RECORDS_PER_MESSAGE) throw new RangeError(`A message holds 1 to ${MAX_RECORDS_PER_MESSAGE} records, not ${records.length}`);
  return el(
    'sum:RegFactuSistemaFacturacion',
    { 'xmlns:sum': NS_LR, 'xmlns:sum1': NS_INFO },
    el('sum:Cabecera', {}, info('ObligadoEmision', info('NombreRazon', issuer.name), info('NIF', issuer.nif))),
    ...records.map((record) => el('sum:RegistroFactura', {}, recordNode(record, s))),
  );
}

/** The message alone, as a document (what the XSD validates). */
export function submissionXml(issuer: Party, records: readonly VerifactuRecord[], s: InvoicingSystem): string {
  return toXml(submissionNode(issuer, records, s));
}

/** The SOAP request the web service takes. */
export function soapRequest(issuer: Party, records: readonly VerifactuRecord[], s: InvoicingSystem): string {
  return toXml(el('soapenv:Envelope', { 'xmlns:soapenv': NS_SOAP }, el('soapenv:Body', {}, submissionNode(issuer, records, s))));
}
