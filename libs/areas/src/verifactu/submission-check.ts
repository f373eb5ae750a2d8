/**
 * The sandbox AEAT's own structural check of a `RegFactuSistemaFacturacion` message: what the AEAT's
 * schemas (shared/conformance/verifactu: SuministroLR.xsd, SuministroInformacion.xsd) require that our
 * rendering could get wrong or a client's data could cause: the required elements, NIFs of 9
 * characters, dates dd-mm-yyyy, amounts with at most 2 decimals, the fixed values. The AEAT refuses such
 * a message whole, for its schema (Validaciones_Errores_Veri-Factu.txt 3.1: "validaciones
 * estructurales"; error 4102). It needs no file outside the repository; with CONFORMANCE_DIR set the
 * AEAT's XSD runs as well (xsd.ts).
 */
import { all, first, leafText, rootOrProblem, type XmlElement } from '../shared/xml-read';
import { MAX_RECORDS_PER_MESSAGE, NS_LR } from './soap';

/** NIFType: 9 characters (the AEAT writes them upper-case, without separators). */
const NIF = /^[0-9A-Z]{9}$/;
/** `fecha`: dd-mm-yyyy. */
const DATE = /^\d{2}-\d{2}-\d{4}$/;
/** ImporteSgn12.2Type. */
const AMOUNT = /^(\+|-)?\d{1,12}(\.\d{0,2})?$/;
/** Tipo2.2Type. */
const RATE = /^\d{1,3}(\.\d{0,2})?$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** NumSerieFactura: 1 to 60 printable ASCII characters (32 to 126, Validaciones 3.1.3). */
const NUMBER = /^[\x20-\x7E]{1,60}$/;
const INVOICE_TYPES = new Set(['F1', 'F2', 'F3', 'R1', 'R2', 'R3', 'R4', 'R5']);

const upTo = (max: number) => (v: string) => v.length >= 1 && v.length <= max;

/** What is wrong with the message's structure, one message per problem; none: it passes. */
export function submissionProblems(xml: string): string[] {
  const read = rootOrProblem(xml);
  if ('problem' in read) return [read.problem];
  const message = read.root;
  if (message.name !== 'RegFactuSistemaFacturacion') return ['the root element is not RegFactuSistemaFacturacion'];
  if (message.ns !== NS_LR) return [`RegFactuSistemaFacturacion is in namespace ${message.ns || 'none'}, not SuministroLR.xsd's ${NS_LR}`];

  // Children are read by local name: the schema puts them in two namespaces (SuministroLR, SuministroInformacion).
  const problems: string[] = [];
  const required = (node: XmlElement | undefined, name: string, path: string): XmlElement | undefined => {
    const found = first(node, name);
    if (!found) problems.push(`${path}/${name} is required`);
    return found;
  };
  const text = (node: XmlElement | undefined, name: string, path: string, valid: (v: string) => boolean, what: string, need = true): string | undefined => {
    if (!first(node, name)) {
      if (need) problems.push(`${path}/${name} is required`);
      return undefined;
    }
    const value = leafText(node, name);
    if (value === undefined || !valid(value)) problems.push(`${path}/${name} '${value ?? '(elements)'}' is not ${what}`);
    return value;
  };
  const nif = (node: XmlElement | undefined, name: string, path: string) => text(node, name, path, (v) => NIF.test(v), 'a NIF of 9 characters (NIFType)');
  const party = (node: XmlElement | undefined, path: string) => {
    text(node, 'NombreRazon', path, upTo(120), 'a name of 1 to 120 characters');
    nif(node, 'NIF', path);
  };
  const invoiceId = (node: XmlElement | undefined, path: string, suffix = '') => {
    nif(node, `IDEmisorFactura${suffix}`, path);
    text(node, `NumSerieFactura${suffix}`, path, (v) => NUMBER.test(v), '1 to 60 printable ASCII characters');
    text(node, `FechaExpedicionFactura${suffix}`, path, (v) => DATE.test(v), 'a date dd-mm-yyyy');
  };
  /** Encadenamiento, SistemaInformatico and the record's huella: the tail of both kinds of record. */
  const tail = (record: XmlElement | undefined, path: string) => {
    const chain = required(record, 'Encadenamiento', path);
    if (chain !== undefined) {
      const previous = first(chain, 'RegistroAnterior');
      if (previous === undefined) text(chain, 'PrimerRegistro', `${path}/Encadenamiento`, (v) => v === 'S', 'S (or RegistroAnterior)');
      else {
        invoiceId(previous, `${path}/Encadenamiento/RegistroAnterior`);
        text(previous, 'Huella', `${path}/Encadenamiento/RegistroAnterior`, upTo(64), 'a huella of 1 to 64 characters');
      }
    }
    const system = required(record, 'SistemaInformatico', path);
    if (system !== undefined) {
      party(system, `${path}/SistemaInformatico`);
      text(system, 'NombreSistemaInformatico', `${path}/SistemaInformatico`, upTo(30), 'a name of 1 to 30 characters', false);
      text(system, 'IdSistemaInformatico', `${path}/SistemaInformatico`, upTo(2), '1 or 2 characters');
      text(system, 'Version', `${path}/SistemaInformatico`, upTo(50), 'a version of 1 to 50 characters');
      text(system, 'NumeroInstalacion', `${path}/SistemaInformatico`, upTo(100), '1 to 100 characters');
    }
    text(record, 'FechaHoraHusoGenRegistro', path, (v) => DATE_TIME.test(v), 'a date and time with its time zone');
    text(record, 'TipoHuella', path, (v) => v === '01', '01 (SHA-256)');
    text(record, 'Huella', path, upTo(64), 'a huella of 1 to 64 characters');
  };

  const header = required(message, 'Cabecera', 'RegFactuSistemaFacturacion');
  if (header !== undefined) {
    const issuer = required(header, 'ObligadoEmision', 'RegFactuSistemaFacturacion/Cabecera');
    if (issuer !== undefined) party(issuer, 'RegFactuSistemaFacturacion/Cabecera/ObligadoEmision');
  }
  const entries = all(message, 'RegistroFactura');
  if (entries.length < 1 || entries.length > MAX_RECORDS_PER_MESSAGE) {
    problems.push(`RegFactuSistemaFacturacion holds 1 to ${MAX_RECORDS_PER_MESSAGE} RegistroFactura, not ${entries.length}`);
  }
  entries.forEach((entry, i) => {
    const path = `RegFactuSistemaFacturacion/RegistroFactura[${i + 1}]`;
    const [alta, anulacion] = [first(entry, 'RegistroAlta'), first(entry, 'RegistroAnulacion')];
    if ((alta === undefined) === (anulacion === undefined)) {
      return void problems.push(`${path} holds exactly one of RegistroAlta and RegistroAnulacion`);
    }
    if (anulacion !== undefined) {
      const at = `${path}/RegistroAnulacion`;
      text(anulacion, 'IDVersion', at, (v) => v === '1.0', '1.0');
      const id = required(anulacion, 'IDFactura', at);
      if (id !== undefined) invoiceId(id, `${at}/IDFactura`, 'Anulada');
      return tail(anulacion, at);
    }
    const at = `${path}/RegistroAlta`;
    text(alta, 'IDVersion', at, (v) => v === '1.0', '1.0');
    const id = required(alta, 'IDFactura', at);
    if (id !== undefined) invoiceId(id, `${at}/IDFactura`);
    text(alta, 'NombreRazonEmisor', at, upTo(120), 'a name of 1 to 120 characters');
    text(alta, 'TipoFactura', at, (v) => INVOICE_TYPES.has(v), `one of ${[...INVOICE_TYPES].join(', ')}`);
    text(alta, 'DescripcionOperacion', at, upTo(500), 'a description of 1 to 500 characters');
    for (const recipient of all(alta, 'Destinatarios', 'IDDestinatario')) {
      text(recipient, 'NombreRazon', `${at}/Destinatarios/IDDestinatario`, upTo(120), 'a name of 1 to 120 characters');
      if (!first(recipient, 'IDOtro')) nif(recipient, 'NIF', `${at}/Destinatarios/IDDestinatario`);
    }
    const breakdown = required(alta, 'Desglose', at);
    const details = all(breakdown, 'DetalleDesglose');
    if (breakdown !== undefined && (details.length < 1 || details.length > 12)) {
      problems.push(`${at}/Desglose holds 1 to 12 DetalleDesglose, not ${details.length}`);
    }
    details.forEach((detail, j) => {
      const where = `${at}/Desglose/DetalleDesglose[${j + 1}]`;
      text(detail, 'TipoImpositivo', where, (v) => RATE.test(v), 'a rate with at most 2 decimals (Tipo2.2Type)', false);
      text(detail, 'BaseImponibleOimporteNoSujeto', where, (v) => AMOUNT.test(v), 'an amount with at most 2 decimals (ImporteSgn12.2Type)');
      text(detail, 'CuotaRepercutida', where, (v) => AMOUNT.test(v), 'an amount with at most 2 decimals (ImporteSgn12.2Type)', false);
    });
    text(alta, 'CuotaTotal', at, (v) => AMOUNT.test(v), 'an amount with at most 2 decimals (ImporteSgn12.2Type)');
    text(alta, 'ImporteTotal', at, (v) => AMOUNT.test(v), 'an amount with at most 2 decimals (ImporteSgn12.2Type)');
    tail(alta, at);
  });
  return problems;
}
