/**
 * Request bodies of the Argentine area (seed 002 "Argentina"; README.md): AFIP's own field names
 * (WSFEv1), as the seed gives them, plus what the issue decided (`CondicionIVAReceptorId`, `Tributos`,
 * the service dates).
 */
import { IsInt, IsOptional, Min } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { NestedList, Num, Text } from '../shared/fields';

export class AfipOnboardingBody {
  @Text(13) cuit!: string;
  @Text(300) legal_name!: string;
  /** The points of sale (RECE) the taxpayer registered at AFIP. */
  @IsOptional() @IsInt({ each: true, message: 'must be whole numbers' }) @Min(1, { each: true, message: 'must be at least 1' }) points_of_sale?: number[];
  /** Live mode: the WSAA certificate and its key (PEM), sealed at rest, never returned. */
  @Text(20000, { optional: true }) certificate_pem?: string;
  @Text(20000, { optional: true }) private_key_pem?: string;
}

const Int = (opts: { optional?: boolean } = {}) => Num(opts);

/** `last-voucher`: one sequence (point of sale and voucher type). */
export class SequenceQuery {
  @Int() PtoVta!: number;
  @Int() CbteTipo!: number;
}

/** `get-voucher`. */
export class VoucherQuery {
  @Int() PtoVta!: number;
  @Int() CbteTipo!: number;
  @Int() CbteNro!: number;
}

export class AfipIva {
  @Int() Id!: number;
  @Num() BaseImp!: number;
  @Num() Importe!: number;
}

export class AfipTributo {
  @Int() Id!: number;
  @Text(80, { optional: true }) Desc?: string;
  @Num() BaseImp!: number;
  @Num() Alic!: number;
  @Num() Importe!: number;
}

/**
 * The service's extension of the seed's `create-voucher` (issue #44; README.md "Numbering"): the numbers may
 * be left out, both together, and are then taken at sending time.
 */
const NUMBERS_LEFT_OUT =
  'Extension of this service: leave CbteDesde and CbteHasta out (both) and the gateway gives the voucher the next number of ' +
  'its sequence (CUIT, PtoVta, CbteTipo) when it sends it to AFIP, atomically: concurrent requests get consecutive numbers, ' +
  'each once, with no need to read last-voucher first; the numbers come back in FeDetResp[0].CbteDesde/CbteHasta ' +
  '(CbteHasta = CbteDesde + CantReg - 1). A retry with the same Idempotency-Key answers for the same voucher (202 with its ' +
  'link, where its number is read): a number is never taken twice for one request. ' +
  'Sent with both, the numbers are the caller\'s, as in WSFEv1.';

/** `create-voucher` (FECAESolicitar with one detail, as the seed flattens it). */
export class CreateVoucherBody {
  @Int() CantReg!: number;
  @Int() PtoVta!: number;
  @Int() CbteTipo!: number;
  @Int() Concepto!: number;
  @Int() DocTipo!: number;
  @Num() DocNro!: number;
  /** The voucher's first number; left out with `CbteHasta`, the gateway numbers the voucher (NUMBERS_LEFT_OUT). */
  @Int({ optional: true }) @JSONSchema({ description: `First voucher number (AFIP's). ${NUMBERS_LEFT_OUT}` }) CbteDesde?: number;
  /** The voucher's last number (= CbteDesde + CantReg - 1). */
  @Int({ optional: true }) @JSONSchema({ description: `Last voucher number (AFIP's). ${NUMBERS_LEFT_OUT}` }) CbteHasta?: number;
  /** yyyymmdd; today when absent. */
  @Text(8, { optional: true }) CbteFch?: string;
  @Num() ImpTotal!: number;
  @Num() ImpTotConc!: number;
  @Num() ImpNeto!: number;
  @Num() ImpOpEx!: number;
  @Num() ImpIVA!: number;
  @Num() ImpTrib!: number;
  @Text(3) MonId!: string;
  @Num() MonCotiz!: number;
  @NestedList(() => AfipIva, { optional: true }) Iva?: AfipIva[];
  @NestedList(() => AfipTributo, { optional: true }) Tributos?: AfipTributo[];
  @Text(8, { optional: true }) FchServDesde?: string;
  @Text(8, { optional: true }) FchServHasta?: string;
  @Text(8, { optional: true }) FchVtoPago?: string;
  @Int({ optional: true }) CondicionIVAReceptorId?: number;
}
