/**
 * Request bodies of the Argentine area (seed 002 "Argentina"; README.md): AFIP's own field names
 * (WSFEv1), as the seed gives them, plus what the issue decided (`CondicionIVAReceptorId`, `Tributos`,
 * the service dates). Each field's description names the WSFEv1 element it fills (FECAESolicitar's
 * `FeCabReq`/`FECAEDetRequest`), for the OpenAPI document (#47).
 */
import { IsInt, IsOptional, Min } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { NestedList, Num, Text } from '../shared/fields';

const Int = (opts: { optional?: boolean } = {}) => Num(opts);
/** yyyymmdd, as WSFEv1 writes dates. */
const DATE = 'a date written yyyymmdd';

export class AfipOnboardingBody {
  @JSONSchema({ description: 'The taxpayer\'s CUIT, 11 digits with its check digit (hyphens allowed: `30-71839452-6`): WSFEv1\'s `Auth.Cuit`, and the `cuit` header of the other routes. It identifies the taxpayer and cannot change.', example: '30718394526' })
  @Text(13) cuit!: string;
  @JSONSchema({ description: 'The taxpayer\'s legal name (razón social), as registered at AFIP.', example: 'Comercio SRL' })
  @Text(300) legal_name!: string;
  /** The points of sale (RECE) the taxpayer registered at AFIP. */
  @JSONSchema({ description: 'The points of sale (RECE, web services) registered at AFIP (`FEParamGetPtosVenta`): when given, a voucher for another `PtoVta` is refused (400, AFIP\'s 10005).', example: [1] })
  @IsOptional() @IsInt({ each: true, message: 'must be whole numbers' }) @Min(1, { each: true, message: 'must be at least 1' }) points_of_sale?: number[];
  /** Live mode: the WSAA certificate and its key (PEM), sealed at rest, never returned. */
  @JSONSchema({ description: 'Live mode: the taxpayer\'s WSAA certificate (X.509, PEM) from AFIP\'s "Administración de Certificados Digitales", for the `wsfe` service; checked to be valid today and to match the key, sealed at rest, never returned. Without it, the service\'s own certificate signs (the taxpayer delegated WSFE to it).', example: '-----BEGIN CERTIFICATE-----\nMIIDSzCCAjOgAwIBAgIIW1ZnD0s9P3AwDQYJKoZIhvcNAQENBQAwODEaMBgGA1UEAwwRQ29tcHV0…\n-----END CERTIFICATE-----\n' })
  @Text(20000, { optional: true }) certificate_pem?: string;
  @JSONSchema({ description: 'Live mode: the certificate\'s RSA private key (PEM), sent with it; sealed at rest, never returned or logged.', example: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7…\n-----END PRIVATE KEY-----\n' })
  @Text(20000, { optional: true }) private_key_pem?: string;
}

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
  @JSONSchema({ description: 'The VAT rate, from the `rates` catalog (FEParamGetTiposIva): 3 = 0 %, 4 = 10.5 %, 5 = 21 %, 6 = 27 %, 8 = 5 %, 9 = 2.5 %: `AlicIva.Id`. No rate twice (10019).', example: 5 })
  @Int() Id!: number;
  @JSONSchema({ description: 'The net amount taxed at this rate: `AlicIva.BaseImp`; Σ BaseImp = ImpNeto (10061).', example: 100 })
  @Num() BaseImp!: number;
  @JSONSchema({ description: 'The VAT at this rate: `AlicIva.Importe`; Σ Importe = ImpIVA within 0.01 (10023).', example: 21 })
  @Num() Importe!: number;
}

export class AfipTributo {
  @JSONSchema({ description: 'The tax, from the `tax-types` catalog (FEParamGetTiposTributos): 1 national, 2 provincial, 3 municipal, 4 internal taxes, 5 IIBB, 6 VAT perception, 7 IIBB perception, 99 other…: `Tributo.Id`.', example: 7 })
  @Int() Id!: number;
  @JSONSchema({ description: 'Its description: `Tributo.Desc`.', example: 'Percepción IIBB Buenos Aires' })
  @Text(80, { optional: true }) Desc?: string;
  @JSONSchema({ description: 'The amount it is levied on: `Tributo.BaseImp`.', example: 100 })
  @Num() BaseImp!: number;
  @JSONSchema({ description: 'Its rate in percent: `Tributo.Alic`.', example: 3 })
  @Num() Alic!: number;
  @JSONSchema({ description: 'Its amount: `Tributo.Importe`; Σ Importe = ImpTrib (10029).', example: 3 })
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
  @JSONSchema({ description: 'How many vouchers the detail covers (CbteHasta − CbteDesde + 1): `FeCabReq.CantReg`; 1 for classes A, C and FCE (10012).', example: 1 })
  @Int() CantReg!: number;
  @JSONSchema({ description: 'The point of sale (a RECE one registered at AFIP): `FeCabReq.PtoVta`; one of the taxpayer\'s `points_of_sale` when it gave them.', example: 1 })
  @Int() PtoVta!: number;
  @JSONSchema({ description: 'The voucher type, from the `voucher-types` catalog (FEParamGetTiposCbte): 1/6/11 Factura A/B/C, 2/7/12 Nota de Débito, 3/8/13 Nota de Crédito, 201+ FCE MiPyMEs: `FeCabReq.CbteTipo`.', example: 1 })
  @Int() CbteTipo!: number;
  @JSONSchema({ description: 'What is sold, from the `concept-types` catalog: 1 products, 2 services, 3 both: `Concepto`. Services (2, 3) need FchServDesde, FchServHasta and FchVtoPago (10049).', example: 1 })
  @Int() Concepto!: number;
  @JSONSchema({ description: 'The receiver\'s document type, from the `document-types` catalog: 80 CUIT, 86 CUIL, 96 DNI, 99 other (consumidor final): `DocTipo`; class A takes 80 (10013).', example: 80 })
  @Int() DocTipo!: number;
  @JSONSchema({ description: 'The receiver\'s document number (its CUIT for DocTipo 80; 0 for an anonymous consumidor final): `DocNro`.', example: 30712345671 })
  @Num() DocNro!: number;
  /** The voucher's first number; left out with `CbteHasta`, the gateway numbers the voucher (NUMBERS_LEFT_OUT). */
  @Int({ optional: true }) @JSONSchema({ description: `First voucher number (AFIP's), \`CbteDesde\`: the sequence's last (last-voucher) + 1 (10016). ${NUMBERS_LEFT_OUT}`, example: 1 }) CbteDesde?: number;
  /** The voucher's last number (= CbteDesde + CantReg - 1). */
  @Int({ optional: true }) @JSONSchema({ description: `Last voucher number (AFIP's), \`CbteHasta\`: CbteDesde + CantReg − 1. ${NUMBERS_LEFT_OUT}`, example: 1 }) CbteHasta?: number;
  /** yyyymmdd; today when absent. */
  @JSONSchema({ description: `The voucher's date, ${DATE} (today in Argentina when absent): \`CbteFch\`; within 5 days of today for products, 10 for services, and not before the sequence's last voucher (10016).`, example: '20261125' })
  @Text(8, { optional: true }) CbteFch?: string;
  @JSONSchema({ description: 'The total: `ImpTotal` = ImpTotConc + ImpNeto + ImpOpEx + ImpTrib + ImpIVA (class C: ImpNeto + ImpTrib), within 0.01 (10048).', example: 121 })
  @Num() ImpTotal!: number;
  @JSONSchema({ description: 'The amount not subject to VAT (no taxable concept): `ImpTotConc`.', example: 0 })
  @Num() ImpTotConc!: number;
  @JSONSchema({ description: 'The net amount taxed: `ImpNeto`; Σ Iva[].BaseImp (10061).', example: 100 })
  @Num() ImpNeto!: number;
  @JSONSchema({ description: 'The exempt amount: `ImpOpEx`.', example: 0 })
  @Num() ImpOpEx!: number;
  @JSONSchema({ description: 'The VAT: `ImpIVA`; Σ Iva[].Importe (10023); Iva is required when it is above 0 (10018). Class C: 0.', example: 21 })
  @Num() ImpIVA!: number;
  @JSONSchema({ description: 'The other taxes: `ImpTrib`; Σ Tributos[].Importe, with Tributos present exactly when it is above 0 (10024, 10029).', example: 0 })
  @Num() ImpTrib!: number;
  @JSONSchema({ description: 'The currency, from the `currencies` catalog (FEParamGetTiposMonedas): `PES` pesos, `DOL` US dollars, `060` euros…: `MonId`.', example: 'PES' })
  @Text(3) MonId!: string;
  @JSONSchema({ description: 'The exchange rate to pesos: `MonCotiz`; 1 for PES (10039).', example: 1 })
  @Num() MonCotiz!: number;
  @JSONSchema({ description: 'The VAT by rate: `Iva.AlicIva[]`. Required with a net amount (10070); class C sends none (10071).', example: [{ Id: 5, BaseImp: 100, Importe: 21 }] })
  @NestedList(() => AfipIva, { optional: true }) Iva?: AfipIva[];
  @JSONSchema({ description: 'The other taxes (perceptions, internal taxes): `Tributos.Tributo[]`.', example: [{ Id: 7, Desc: 'Percepción IIBB Buenos Aires', BaseImp: 100, Alic: 3, Importe: 3 }] })
  @NestedList(() => AfipTributo, { optional: true }) Tributos?: AfipTributo[];
  @JSONSchema({ description: `Services (Concepto 2, 3): the first day of the service, ${DATE}: \`FchServDesde\` (10049), not after FchServHasta (10032).`, example: '20261101' })
  @Text(8, { optional: true }) FchServDesde?: string;
  @JSONSchema({ description: `Services: the last day of the service, ${DATE}: \`FchServHasta\`.`, example: '20261130' })
  @Text(8, { optional: true }) FchServHasta?: string;
  @JSONSchema({ description: `Services: when payment is due, ${DATE}, not before CbteFch: \`FchVtoPago\` (10036).`, example: '20261210' })
  @Text(8, { optional: true }) FchVtoPago?: string;
  @JSONSchema({ description: 'The receiver\'s VAT condition (RG 5616; FEParamGetCondicionIvaReceptor): 1 responsable inscripto, 4 exento, 5 consumidor final, 6 monotributista…: `CondicionIVAReceptorId`. Derived when absent where unambiguous (class A → 1, DocTipo 99 → 5), else refused (10246).', example: 1 })
  @Int({ optional: true }) CondicionIVAReceptorId?: number;
}
