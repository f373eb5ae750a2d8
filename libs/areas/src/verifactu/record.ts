/**
 * VeriFactu records (SuministroInformacion.xsd RegistroAlta / RegistroAnulacion) as data, chained
 * per issuer: each carries the previous record's identity and huella (hash.ts), or is the first.
 */
import { cancellationHash, registrationHash } from './hash';

/**
 * One `DetalleDesglose`: IVA (Impuesto 01), general regime (ClaveRegimen 01), and how the operation is
 * taxed: `CalificacionOperacion` S1 (subject, not exempt: the default), S2 (subject, reverse charge:
 * no tax charged), N1/N2 (not subject), or `OperacionExenta` E1–E6 (exempt). Amounts with two decimals.
 */
export interface TaxLine {
  readonly base: string;
  readonly rate: string;
  readonly charged: string;
  readonly qualification?: 'S1' | 'S2' | 'N1' | 'N2';
  readonly exemption?: 'E1' | 'E2' | 'E3' | 'E4' | 'E5' | 'E6';
}

export interface Party {
  readonly nif: string;
  readonly name: string;
}

/** A record of the chain, as the next record refers to it (`RegistroAnterior`). */
export interface ChainLink {
  readonly issuerNif: string;
  readonly number: string;
  /** `YYYY-MM-DD`. */
  readonly issueDate: string;
  readonly hash: string;
}

/** `RechazoPrevio` of a corrected re-send (`Subsanacion` S): S the previous send was rejected, X it never reached the AEAT; N a correction of an accepted record. */
export type PreviousRejection = 'N' | 'S' | 'X';

/** What a registration record says, before it is chained. */
export interface RegistrationContent {
  readonly issuer: Party;
  readonly number: string;
  /** `YYYY-MM-DD`. */
  readonly issueDate: string;
  readonly invoiceType: 'F1' | 'F2' | 'R1';
  readonly description: string;
  readonly recipient?: Party;
  /** R1 (`TipoRectificativa` I: by differences is S, by substitution I; the seed allows I). */
  readonly rectification?: { readonly type: 'I'; readonly invoices: ReadonlyArray<{ readonly number: string; readonly issueDate: string }> };
  /** Set for a corrected re-send of the same invoice (`Subsanacion` S). */
  readonly previousRejection?: PreviousRejection;
  readonly taxLines: readonly TaxLine[];
  readonly taxTotal: string;
  readonly total: string;
}

export interface RegistrationRecord extends RegistrationContent {
  readonly kind: 'registration';
  readonly previous?: ChainLink;
  /** `FechaHoraHusoGenRegistro`. */
  readonly generatedAt: string;
  readonly hash: string;
}

export interface CancellationRecord {
  readonly kind: 'cancellation';
  readonly issuer: Party;
  /** The cancelled invoice. */
  readonly number: string;
  readonly issueDate: string;
  readonly previous?: ChainLink;
  readonly generatedAt: string;
  readonly hash: string;
}

export type VerifactuRecord = RegistrationRecord | CancellationRecord;

/** `YYYY-MM-DD` → `dd-mm-yyyy`, the AEAT's date format. */
export function aeatDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-');
  return `${day}-${month}-${year}`;
}

/**
 * The generation time with the offset of Spain's mainland time (Europe/Madrid), to the second, as
 * the AEAT's examples write it (`2024-01-01T19:20:30+01:00`).
 */
export function generationTimestamp(at: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZoneName: 'longOffset',
    }).formatToParts(at).map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : parts.timeZoneName.replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

/** The link the next record of the chain carries. */
export function linkOf(record: VerifactuRecord): ChainLink {
  return { issuerNif: record.issuer.nif, number: record.number, issueDate: record.issueDate, hash: record.hash };
}

export function chainRegistration(content: RegistrationContent, previous: ChainLink | undefined, at: Date): RegistrationRecord {
  const generatedAt = generationTimestamp(at);
  const hash = registrationHash({
    issuerNif: content.issuer.nif,
    number: content.number,
    issueDate: aeatDate(content.issueDate),
    invoiceType: content.invoiceType,
    taxTotal: content.taxTotal,
    total: content.total,
    previousHash: previous?.hash ?? '',
    generatedAt,
  });
  return { ...content, kind: 'registration', ...(previous ? { previous } : {}), generatedAt, hash };
}

export function chainCancellation(issuer: Party, cancelled: { readonly number: string; readonly issueDate: string }, previous: ChainLink | undefined, at: Date): CancellationRecord {
  const generatedAt = generationTimestamp(at);
  const hash = cancellationHash({ issuerNif: issuer.nif, number: cancelled.number, issueDate: aeatDate(cancelled.issueDate), previousHash: previous?.hash ?? '', generatedAt });
  return { kind: 'cancellation', issuer, number: cancelled.number, issueDate: cancelled.issueDate, ...(previous ? { previous } : {}), generatedAt, hash };
}
