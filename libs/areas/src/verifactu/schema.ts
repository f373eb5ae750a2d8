/**
 * Request bodies of the Spanish area (seed 002 "Spain"; decisions in README.md): onboarding,
 * report (`/generate`) and rectify. Tax lines take both spellings the seed shows
 * (`tax_base`/`repercutida_quota` and `taxable_base`/`charged_tax`); amounts are JSON numbers or
 * numeric strings (the seed sends `total_amount` and `repercutida_quota` as strings).
 */
import { registerDecorator, Matches } from 'class-validator';
import { DateText, Nested, NestedList, OneOf, Text } from '../shared/fields';

/** At most 12 integer digits and 2 decimals, signed (AEAT ImporteSgn12.2Type), as a number or a string. */
export const AMOUNT = /^-?\d{1,12}(\.\d{1,2})?$/;

function Amount(opts: { optional?: boolean } = {}): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isAeatAmount',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'must be an amount with at most 12 digits and 2 decimals (a number or a numeric string)' },
      validator: {
        validate: (value: unknown) =>
          (opts.optional && value === undefined) || ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'string') && AMOUNT.test(String(value)),
      },
    });
}

/** Printable ASCII only: the number travels in the QR's URL (QR specification section 4). */
const PRINTABLE_ASCII = /^[\x20-\x7E]+$/;

/** `POST /es/verifactu/onboard`. */
export class VerifactuOnboardingBody {
  /** The issuer's NIF (NIF/NIE/CIF, control character checked). */
  @Text(9) nif!: string;
  /** NombreRazon, at most 120 characters (AEAT TextMax120Type). */
  @Text(120) name!: string;
  /** Live mode: the issuer's own certificate for the AEAT's mutual TLS (PEM), with its private key; sealed at rest, never returned. */
  @Text(20_000, { optional: true }) certificate_pem?: string;
  @Text(20_000, { optional: true }) private_key_pem?: string;
}

export class VerifactuTaxLine {
  @Amount({ optional: true }) tax_base?: number | string;
  @Amount({ optional: true }) taxable_base?: number | string;
  /** IVA rate in percent (TipoImpositivo, two decimals at most). */
  @Amount() tax_rate!: number | string;
  @Amount({ optional: true }) repercutida_quota?: number | string;
  @Amount({ optional: true }) charged_tax?: number | string;
  /** CalificacionOperacion (README.md "Tax lines"): S1 subject (default), S2 reverse charge, N1/N2 not subject. */
  @OneOf(['S1', 'S2', 'N1', 'N2'], { optional: true }) qualification?: 'S1' | 'S2' | 'N1' | 'N2';
  /** OperacionExenta E1–E6: an exempt line (then no qualification, no rate, no tax). */
  @OneOf(['E1', 'E2', 'E3', 'E4', 'E5', 'E6'], { optional: true }) exemption?: 'E1' | 'E2' | 'E3' | 'E4' | 'E5' | 'E6';
}

/** Destinatario: required for F1 and R1, absent from F2 (AEAT validation "Agrupación Destinatarios"). */
export class VerifactuRecipient {
  @Text(9) nif!: string;
  @Text(120) name!: string;
}

export class VerifactuRectifiedInvoice {
  @Text(60) @Matches(PRINTABLE_ASCII, { message: 'must be printable ASCII characters' }) document_identifier!: string;
  @DateText() issue_date!: string;
}

/** What both bodies share. */
class VerifactuRecordBody {
  /** NumSerieFactura, at most 60 characters (TextoIDFacturaType). */
  @Text(60) @Matches(PRINTABLE_ASCII, { message: 'must be printable ASCII characters' }) document_identifier!: string;
  @DateText() issue_date!: string;
  /** DescripcionOperacion, at most 500 characters. */
  @Text(500) description!: string;
  @NestedList(() => VerifactuTaxLine, { min: 1 }) taxlines!: VerifactuTaxLine[];
  @Amount() total_amount!: number | string;
  @Nested(() => VerifactuRecipient, { optional: true }) recipient?: VerifactuRecipient;
  /** A corrected re-send (Subsanacion S) with RechazoPrevio N, S or X (README.md "previous_rejection"). */
  @OneOf(['N', 'S', 'X'], { optional: true }) previous_rejection?: 'N' | 'S' | 'X';
}

/** `POST /es/verifactu/generate`. */
export class VerifactuReportBody extends VerifactuRecordBody {
  @OneOf(['F1', 'F2']) invoice_type!: 'F1' | 'F2';
}

/** `POST /es/verifactu/rectify`. */
export class VerifactuRectifyBody extends VerifactuRecordBody {
  @OneOf(['R1']) invoice_type!: 'R1';
  /** The issuer, as onboarded. */
  @Text(9) nif!: string;
  @Text(120) name!: string;
  @OneOf(['I']) rectification_type!: 'I';
  @NestedList(() => VerifactuRectifiedInvoice, { min: 1 }) rectified_invoices!: VerifactuRectifiedInvoice[];
}

/** `POST /es/verifactu/cancel`: the invoice whose record is cancelled (RegistroAnulacion). */
export class VerifactuCancelBody {
  @Text(60) @Matches(PRINTABLE_ASCII, { message: 'must be printable ASCII characters' }) document_identifier!: string;
  @DateText() issue_date!: string;
}
