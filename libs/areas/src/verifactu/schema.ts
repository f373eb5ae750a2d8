/**
 * Request bodies of the Spanish area (seed 002 "Spain"; decisions in README.md): onboarding,
 * report (`/generate`) and rectify. Tax lines take both spellings the seed shows
 * (`tax_base`/`repercutida_quota` and `taxable_base`/`charged_tax`); amounts are JSON numbers or
 * numeric strings (the seed sends `total_amount` and `repercutida_quota` as strings).
 */
import { registerDecorator, Matches } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
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

/** The OpenAPI texts of fields that several bodies share (#47). */
const DOC = {
  number: 'The invoice number and series: the AEAT\'s NumSerieFactura (IDFactura), 1 to 60 printable ASCII characters, unique per issuer; it travels in the QR link.',
  issueDate: 'The invoice\'s issue date (yyyy-mm-dd): the AEAT\'s FechaExpedicionFactura (IDFactura), written dd-mm-yyyy in the record and the QR.',
  rectified: 'The invoice rectified, as its own record named it:',
  amount: 'A number or a numeric string, at most 12 digits and 2 decimals (AEAT ImporteSgn12.2Type).',
  issuerNif: 'The issuer\'s NIF (NIF, NIE or CIF, control character checked): the AEAT\'s IDEmisorFactura and ObligadoEmision/NIF.',
  issuerName: 'The issuer\'s name or company name: the AEAT\'s NombreRazonEmisor (TextMax120Type).',
} as const;

/** `POST /es/verifactu/onboard`. */
export class VerifactuOnboardingBody {
  /** The issuer's NIF (NIF/NIE/CIF, control character checked). */
  @JSONSchema({ description: `${DOC.issuerNif} Spaces and hyphens are dropped, letters uppercased; one issuer per NIF and account (409 SUPPLIER.EXISTS).`, example: '89890001K' })
  @Text(9) nif!: string;
  /** NombreRazon, at most 120 characters (AEAT TextMax120Type). */
  @JSONSchema({ description: `${DOC.issuerName} rectify's name must repeat it.`, example: 'Empresa de Pruebas SL' })
  @Text(120) name!: string;
  /** Live mode: the issuer's own certificate for the AEAT's mutual TLS (PEM), with its private key; sealed at rest, never returned. */
  @JSONSchema({ description: 'Live mode only: the issuer\'s own certificate (PEM) for the AEAT\'s mutual TLS, valid today, with private_key_pem (both or neither). Without it, the representative\'s configured certificate is used (AEAT error 4112 if it may not act for the issuer). Sealed at rest, never answered.', example: '-----BEGIN CERTIFICATE-----\nMIIC…\n-----END CERTIFICATE-----\n' })
  @Text(20_000, { optional: true }) certificate_pem?: string;
  @JSONSchema({ description: 'Live mode only: the private key (PEM, unencrypted) of certificate_pem, which it must match. Sealed at rest, never answered.', example: '-----BEGIN PRIVATE KEY-----\nMIIE…\n-----END PRIVATE KEY-----\n' })
  @Text(20_000, { optional: true }) private_key_pem?: string;
}

/** One DetalleDesglose of the record's Desglose (IVA, Impuesto 01, general regime, ClaveRegimen 01). */
export class VerifactuTaxLine {
  @JSONSchema({ description: `The taxable base at this rate: the AEAT's BaseImponibleOimporteNoSujeto. Give it once, as tax_base or taxable_base. ${DOC.amount}`, example: 100 })
  @Amount({ optional: true }) tax_base?: number | string;
  @JSONSchema({ description: 'The other spelling of tax_base (the seed shows both): one of the two per line.', example: 100 })
  @Amount({ optional: true }) taxable_base?: number | string;
  /** IVA rate in percent (TipoImpositivo, two decimals at most). */
  @JSONSchema({ description: 'The IVA rate in percent (21 for 21 %, 0 to 100): the AEAT\'s TipoImpositivo.', example: 21 })
  @Amount() tax_rate!: number | string;
  @JSONSchema({ description: `The IVA charged on this base: the AEAT's CuotaRepercutida; their sum is CuotaTotal. Give it once, as repercutida_quota or charged_tax; 0 or absent on an exempt, S2, N1 or N2 line. ${DOC.amount}`, example: '21.00' })
  @Amount({ optional: true }) repercutida_quota?: number | string;
  @JSONSchema({ description: 'The other spelling of repercutida_quota (the seed shows both): one of the two per line.', example: '21.00' })
  @Amount({ optional: true }) charged_tax?: number | string;
  /** CalificacionOperacion (README.md "Tax lines"): S1 subject (default), S2 reverse charge, N1/N2 not subject. */
  @JSONSchema({ description: 'The AEAT\'s CalificacionOperacion: S1 subject and taxed (the default), S2 reverse charge, N1/N2 not subject; absent on an exempt line.', example: 'S1' })
  @OneOf(['S1', 'S2', 'N1', 'N2'], { optional: true }) qualification?: 'S1' | 'S2' | 'N1' | 'N2';
  /** OperacionExenta E1–E6: an exempt line (then no qualification, no rate, no tax). */
  @JSONSchema({ description: 'The AEAT\'s OperacionExenta (E1 article 20 LIVA … E6 other grounds): an exempt line, which has no qualification and charges no tax.', example: 'E1' })
  @OneOf(['E1', 'E2', 'E3', 'E4', 'E5', 'E6'], { optional: true }) exemption?: 'E1' | 'E2' | 'E3' | 'E4' | 'E5' | 'E6';
}

/** Destinatario: required for F1 and R1, absent from F2 (AEAT validation "Agrupación Destinatarios"). */
export class VerifactuRecipient {
  @JSONSchema({ description: 'The recipient\'s Spanish NIF (control character checked): the AEAT\'s Destinatarios/IDDestinatario/NIF.', example: 'B00000000' })
  @Text(9) nif!: string;
  @JSONSchema({ description: 'The recipient\'s name or company name: the AEAT\'s IDDestinatario/NombreRazon (TextMax120Type).', example: 'Cliente SA' })
  @Text(120) name!: string;
}

/** One FacturasRectificadas/IDFacturaRectificada. */
export class VerifactuRectifiedInvoice {
  @JSONSchema({ description: `${DOC.rectified} its NumSerieFactura (IDFacturaRectificada).`, example: 'F-2026-0001' })
  @Text(60) @Matches(PRINTABLE_ASCII, { message: 'must be printable ASCII characters' }) document_identifier!: string;
  @JSONSchema({ description: `${DOC.rectified} its FechaExpedicionFactura (yyyy-mm-dd).`, example: '2026-11-25' })
  @DateText() issue_date!: string;
}

/** What both bodies share. */
class VerifactuRecordBody {
  /** NumSerieFactura, at most 60 characters (TextoIDFacturaType). */
  @JSONSchema({ description: `${DOC.number} A number already used by the issuer: 409 DOCUMENT.DUPLICATE_ID.`, example: 'F-2026-0001' })
  @Text(60) @Matches(PRINTABLE_ASCII, { message: 'must be printable ASCII characters' }) document_identifier!: string;
  @JSONSchema({ description: DOC.issueDate, example: '2026-11-25' })
  @DateText() issue_date!: string;
  /** DescripcionOperacion, at most 500 characters. */
  @JSONSchema({ description: 'What the invoice is for: the AEAT\'s DescripcionOperacion.', example: 'Consulting, November' })
  @Text(500) description!: string;
  @JSONSchema({
    description: 'The IVA breakdown, one line per rate and qualification: the AEAT\'s Desglose, 1 to 12 DetalleDesglose (more: 400 VERIFACTU.TOO_MANY_LINES).',
    example: [{ tax_base: 100, tax_rate: 21, repercutida_quota: '21.00' }],
  })
  @NestedList(() => VerifactuTaxLine, { min: 1 }) taxlines!: VerifactuTaxLine[];
  @JSONSchema({ description: `The invoice total: the AEAT's ImporteTotal, the sum of the bases and the tax charged within ±0.02 (the AEAT's tolerance), else 400 VERIFACTU.TOTAL_MISMATCH; it travels in the QR link. ${DOC.amount}`, example: '121.00' })
  @Amount() total_amount!: number | string;
  @JSONSchema({ description: 'The recipient: the AEAT\'s Destinatarios/IDDestinatario. Required for F1 and R1, refused on F2 (AEAT "Agrupación Destinatarios").', example: { nif: 'B00000000', name: 'Cliente SA' } })
  @Nested(() => VerifactuRecipient, { optional: true }) recipient?: VerifactuRecipient;
  /** A corrected re-send (Subsanacion S) with RechazoPrevio N, S or X (README.md "previous_rejection"). */
  @JSONSchema({ description: 'Only to re-send a corrected record of the same invoice (Subsanacion S): the AEAT\'s RechazoPrevio, N the record was accepted, S the previous send was rejected, X it never reached the AEAT.', example: 'S' })
  @OneOf(['N', 'S', 'X'], { optional: true }) previous_rejection?: 'N' | 'S' | 'X';
}

/** `POST /es/verifactu/generate`. */
export class VerifactuReportBody extends VerifactuRecordBody {
  @JSONSchema({ description: 'The AEAT\'s TipoFactura: F1 a full invoice (with recipient), F2 a simplified one (no recipient; over 3,000 euros the AEAT refuses it, 1150).', example: 'F1' })
  @OneOf(['F1', 'F2']) invoice_type!: 'F1' | 'F2';
}

/** `POST /es/verifactu/rectify`. */
export class VerifactuRectifyBody extends VerifactuRecordBody {
  @JSONSchema({ description: 'The AEAT\'s TipoFactura R1: a rectifying invoice under article 80.1, 80.2 or 80.6 LIVA or for a well-founded error.', example: 'R1' })
  @OneOf(['R1']) invoice_type!: 'R1';
  /** The issuer, as onboarded. */
  @JSONSchema({ description: `${DOC.issuerNif} Must be the participant's own, as onboarded (else 400 VERIFACTU.ISSUER_MISMATCH).`, example: '89890001K' })
  @Text(9) nif!: string;
  @JSONSchema({ description: `${DOC.issuerName} Must be the participant's name as onboarded (else 400 VERIFACTU.ISSUER_MISMATCH).`, example: 'Empresa de Pruebas SL' })
  @Text(120) name!: string;
  @JSONSchema({ description: 'The AEAT\'s TipoRectificativa: I, by differences (the record carries the new amounts; no ImporteRectificacion).', example: 'I' })
  @OneOf(['I']) rectification_type!: 'I';
  @JSONSchema({ description: 'The invoices this one rectifies: the AEAT\'s FacturasRectificadas.', example: [{ document_identifier: 'F-2026-0001', issue_date: '2026-11-25' }] })
  @NestedList(() => VerifactuRectifiedInvoice, { min: 1 }) rectified_invoices!: VerifactuRectifiedInvoice[];
}

/** `POST /es/verifactu/cancel`: the invoice whose record is cancelled (RegistroAnulacion). */
export class VerifactuCancelBody {
  @JSONSchema({ description: 'The cancelled invoice\'s number, as its record named it: the AEAT\'s NumSerieFacturaAnulada (RegistroAnulacion/IDFactura). No record of this issuer with this number and date: 404.', example: 'F-2026-0001' })
  @Text(60) @Matches(PRINTABLE_ASCII, { message: 'must be printable ASCII characters' }) document_identifier!: string;
  @JSONSchema({ description: 'The cancelled invoice\'s issue date (yyyy-mm-dd): the AEAT\'s FechaExpedicionFacturaAnulada.', example: '2026-11-25' })
  @DateText() issue_date!: string;
}
