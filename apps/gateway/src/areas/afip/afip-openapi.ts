/**
 * How the OpenAPI document shows the Argentine routes' answers (#47), as the area builds them
 * (libs/areas/src/afip/codec.ts `respond`, definition.ts `present`, connector.ts `read`): the README's first
 * document, authorised by the sandbox AFIP.
 */
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { nullable, onboardedAnswer, uuidField } from '../../http/openapi-answers';

const CUIT = '30718394526';
const supplierId = '3d5f7a91-2c4e-4b6d-8f10-a2b4c6d8e0f2';
const voucherId = '019ad0e1-7f2a-7b3c-9d4e-5f6a7b8c9d0e';
const CAE = '76482193054127';
const qrLink =
  'https://www.afip.gob.ar/fe/qr/?p=eyJ2ZXIiOjEsImZlY2hhIjoiMjAyNi0xMS0yNSIsImN1aXQiOjMwNzE4Mzk0NTI2LCJwdG9WdGEiOjEsInRpcG9DbXAiOjEsIm5yb0NtcCI6MSwiaW1wb3J0ZSI6MTIxLCJtb25lZGEiOiJQRVMiLCJjdHoiOjEsInRpcG9Eb2NSZWMiOjgwLCJucm9Eb2NSZWMiOjMwNzEyMzQ1NjcxLCJ0aXBvQ29kQXV0IjoiRSIsImNvZEF1dCI6NzY0ODIxOTMwNTQxMjd9';

export const afipCuitHeader = {
  description: 'The taxpayer: its CUIT as onboarded (11 digits; hyphens allowed). Malformed: 400; not onboarded by your account: 404.',
  example: CUIT,
};

export const afipVoucherIdParam = { name: 'id', description: 'The voucher\'s id: a 202\'s `data.documentId`.', example: voucherId };

const integer = (description: string, example: number): SchemaObject => ({ type: 'integer', description, example });
/** The three numbers the reads take, as query parameters (or the same names in a JSON body, as the seed sends them). */
export const afipReadParams = {
  PtoVta: { name: 'PtoVta', required: false, description: 'The point of sale (WSFEv1 `PtoVta`). Required, here or in a JSON body.', example: 1 },
  CbteTipo: { name: 'CbteTipo', required: false, description: 'The voucher type (WSFEv1 `CbteTipo`, the `voucher-types` catalog: 1 Factura A…). Required, here or in a JSON body.', example: 1 },
  CbteNro: { name: 'CbteNro', required: false, description: 'The voucher number (WSFEv1 `CbteNro`). Required, here or in a JSON body.', example: 1 },
};

/** `POST /ar/einvoice/onboard`'s 201. */
export const afipOnboardedSchema = onboardedAnswer('Taxpayer onboarded.', {
  supplier_uuid: uuidField('The supplier id (`/v1/suppliers/{id}`); the area\'s routes name the taxpayer by its CUIT.', supplierId),
  cuit: { type: 'string', description: 'The CUIT, 11 digits without hyphens: the `cuit` header.', example: CUIT },
  legal_name: { type: 'string', example: 'Comercio SRL' },
});

/** `last-voucher`'s 200 (FECompUltimoAutorizado). */
export const afipLastVoucherSchema: SchemaObject = {
  type: 'object',
  required: ['PtoVta', 'CbteTipo', 'CbteNro'],
  properties: {
    PtoVta: integer('The point of sale asked.', 1),
    CbteTipo: integer('The voucher type asked.', 1),
    CbteNro: integer('The last number AFIP authorised in the sequence; 0 when none: the next voucher is CbteNro + 1.', 0),
  },
  example: { PtoVta: 1, CbteTipo: 1, CbteNro: 0 },
};

const afipError: SchemaObject = {
  type: 'object',
  properties: { Code: { anyOf: [{ type: 'integer' }, { type: 'string' }], description: 'AFIP\'s code (the service\'s own, such as `AFIP.NO_CERTIFICATE`, a string).' }, Msg: { type: 'string' } },
};

/** The README's voucher as AFIP answered it; with its QR link once authorised. */
const answered = {
  Cuit: Number(CUIT),
  PtoVta: 1,
  CbteTipo: 1,
  FchProceso: '20261125103012',
  CantReg: 1,
  Cantidad: 1,
  Resultado: 'A',
  FeDetResp: [{ Concepto: 1, DocTipo: 80, DocNro: 30712345671, CbteDesde: 1, CbteHasta: 1, CbteFch: '20261125', Resultado: 'A', CAE, CAEFchVto: '20261205', Observaciones: [] }],
  Errors: [],
};
const authorised = { ...answered, QrLink: qrLink };

/** `create-voucher`'s 200 and `vouchers/{id}`'s: FECAESolicitar's answer, A with the CAE or R with AFIP's codes. */
export const afipVoucherAnswerSchema: SchemaObject = {
  type: 'object',
  required: ['Cuit', 'PtoVta', 'CbteTipo', 'FchProceso', 'CantReg', 'Cantidad', 'Resultado', 'FeDetResp', 'Errors'],
  properties: {
    Cuit: integer('The taxpayer (FeCabResp.Cuit).', Number(CUIT)),
    PtoVta: integer('FeCabResp.PtoVta.', 1),
    CbteTipo: integer('FeCabResp.CbteTipo.', 1),
    FchProceso: { type: 'string', description: 'When AFIP processed it, yyyymmddhhmmss (Argentina\'s time).', example: '20261125103012' },
    CantReg: integer('FeCabResp.CantReg.', 1),
    Cantidad: integer('How many vouchers AFIP authorised (0 unless A).', 1),
    Resultado: { type: 'string', enum: ['A', 'R', 'P'], description: 'A: authorised (the CAE in FeDetResp); R: refused (`Errors`, and the number stays free); P: not answered yet (`vouchers/{id}` only).', example: 'A' },
    FeDetResp: {
      type: 'array',
      description: 'FECAEDetResponse: the voucher\'s numbers (AFIP\'s, when the gateway numbered it), its CAE and AFIP\'s observations.',
      items: {
        type: 'object',
        properties: {
          Concepto: { type: 'integer' }, DocTipo: { type: 'integer' }, DocNro: { type: 'integer' },
          CbteDesde: nullable({ type: 'integer' }, { description: 'Null while a voucher sent without numbers waits.' }),
          CbteHasta: nullable({ type: 'integer' }),
          CbteFch: { type: 'string', description: 'yyyymmdd.' },
          Resultado: { type: 'string', enum: ['A', 'R', 'P'] },
          CAE: { type: 'string', description: 'The 14-digit authorisation code (CAE); empty unless A.' },
          CAEFchVto: { type: 'string', description: 'The CAE\'s expiry, yyyymmdd; empty unless A.' },
          Observaciones: { type: 'array', items: afipError },
        },
      },
      example: authorised.FeDetResp,
    },
    Errors: { type: 'array', description: 'AFIP\'s codes when R (e.g. 10016: the number is not the next one).', items: afipError, example: [] },
    QrLink: { type: 'string', description: 'The voucher\'s QR (RG 4892): AFIP\'s link with the base64 JSON, once authorised.', example: qrLink },
  },
  example: authorised,
};

export const afipVoucherAnswerExamples = {
  authorised: { summary: 'Authorised: Resultado A with the CAE', value: authorised },
  refused: {
    summary: 'Refused: Resultado R with AFIP\'s code (HTTP 200, as AFIP answers)',
    value: {
      ...answered, Cantidad: 0, Resultado: 'R',
      FeDetResp: [{ ...authorised.FeDetResp[0], Resultado: 'R', CAE: '', CAEFchVto: '' }],
      Errors: [{ Code: 10016, Msg: 'El numero o fecha del comprobante no se corresponde con el proximo a autorizar. Consultar metodo FECompUltimoAutorizado.' }],
    },
  },
};

/** `get-voucher`'s 200 (FECompConsultar's ResultGet): the voucher as sent, with AFIP's authorisation. */
export const afipHeldVoucherSchema: SchemaObject = {
  type: 'object',
  additionalProperties: true,
  description: 'The voucher\'s fields as create-voucher sent them (CantReg … CondicionIVAReceptorId), with AFIP\'s:',
  properties: {
    Resultado: { type: 'string', enum: ['A'], example: 'A' },
    CodAutorizacion: { type: 'string', description: 'Its CAE.', example: CAE },
    EmisionTipo: { type: 'string', description: '`CAE`.', example: 'CAE' },
    FchVto: { type: 'string', description: 'The CAE\'s expiry, yyyymmdd.', example: '20261205' },
    FchProceso: { type: 'string', description: 'yyyymmddhhmmss.', example: '20261125103012' },
  },
  example: {
    CantReg: 1, PtoVta: 1, CbteTipo: 1, Concepto: 1, DocTipo: 80, DocNro: 30712345671, CbteDesde: 1, CbteHasta: 1, CbteFch: '20261125',
    ImpTotal: 121, ImpTotConc: 0, ImpNeto: 100, ImpOpEx: 0, ImpIVA: 21, ImpTrib: 0, MonId: 'PES', MonCotiz: 1, Iva: [{ Id: 5, BaseImp: 100, Importe: 21 }],
    CondicionIVAReceptorId: 1, Resultado: 'A', CodAutorizacion: CAE, EmisionTipo: 'CAE', FchVto: '20261205', FchProceso: '20261125103012',
  },
};

/** A catalog's 200 (FEParamGet*). */
export const afipCatalogSchema: SchemaObject = {
  type: 'array',
  items: {
    type: 'object',
    required: ['Id', 'Desc', 'FchDesde', 'FchHasta'],
    properties: {
      Id: { anyOf: [{ type: 'integer' }, { type: 'string' }], description: 'The code (the currencies\': strings such as `PES`).', example: 1 },
      Desc: { type: 'string', example: 'Factura A' },
      FchDesde: { type: 'string', description: 'Valid from, yyyymmdd.', example: '20100917' },
      FchHasta: { type: 'string', description: 'Valid until, yyyymmdd; the string `NULL` when open-ended (as AFIP writes it).', example: 'NULL' },
    },
  },
  example: [
    { Id: 1, Desc: 'Factura A', FchDesde: '20100917', FchHasta: 'NULL' },
    { Id: 2, Desc: 'Nota de Débito A', FchDesde: '20100917', FchHasta: 'NULL' },
  ],
};
