/**
 * The record's fingerprint (huella) as the AEAT specifies it
 * (shared/conformance/verifactu/Veri-Factu_especificaciones_huella_hash_registros.txt): the named
 * fields joined as `name=value&...`, each value trimmed, SHA-256 of the UTF-8 string, upper-case
 * hex. The previous record's huella chains the records of one issuer; the first record chains on
 * an empty value.
 */
import { createHash } from 'node:crypto';

/** What a registration record (RegistroAlta) hashes. Amounts as written in the XML (two decimals). */
export interface RegistrationHashInput {
  readonly issuerNif: string;
  readonly number: string;
  /** `dd-mm-yyyy`, as in the XML. */
  readonly issueDate: string;
  readonly invoiceType: string;
  readonly taxTotal: string;
  readonly total: string;
  /** The issuer's previous record's huella; empty for the first record of the chain. */
  readonly previousHash: string;
  /** `FechaHoraHusoGenRegistro`, e.g. `2024-01-01T19:20:30+01:00`. */
  readonly generatedAt: string;
}

/** What a cancellation record (RegistroAnulacion) hashes. */
export interface CancellationHashInput {
  readonly issuerNif: string;
  readonly number: string;
  readonly issueDate: string;
  readonly previousHash: string;
  readonly generatedAt: string;
}

export function registrationHash(input: RegistrationHashInput): string {
  return huella([
    ['IDEmisorFactura', input.issuerNif],
    ['NumSerieFactura', input.number],
    ['FechaExpedicionFactura', input.issueDate],
    ['TipoFactura', input.invoiceType],
    ['CuotaTotal', input.taxTotal],
    ['ImporteTotal', input.total],
    ['Huella', input.previousHash],
    ['FechaHoraHusoGenRegistro', input.generatedAt],
  ]);
}

export function cancellationHash(input: CancellationHashInput): string {
  return huella([
    ['IDEmisorFacturaAnulada', input.issuerNif],
    ['NumSerieFacturaAnulada', input.number],
    ['FechaExpedicionFacturaAnulada', input.issueDate],
    ['Huella', input.previousHash],
    ['FechaHoraHusoGenRegistro', input.generatedAt],
  ]);
}

function huella(fields: ReadonlyArray<readonly [string, string]>): string {
  const text = fields.map(([name, value]) => `${name}=${value.trim()}`).join('&');
  return createHash('sha256').update(text, 'utf8').digest('hex').toUpperCase();
}
