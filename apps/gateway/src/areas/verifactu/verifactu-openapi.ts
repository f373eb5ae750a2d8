/**
 * How the OpenAPI document shows the Spanish answers (#47), as libs/areas/src/verifactu/definition.ts
 * builds them (`onboarding.respond`, `documents.respond`, `presentRecord`), kept beside the controller
 * so that the controller stays a list of routes.
 */
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { nullable, onboardedAnswer, successAnswer, uuidField } from '../../http/openapi-answers';

const UUID = '01938a7e-5c2b-7d41-9f3e-6a1b2c3d4e5f';
const QR_LINK = 'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=F-1764662400&fecha=25-11-2026&importe=121.00';
const QR_CODE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAKQAAACkAQAAAAAI1mFfAAAA…';
const HASH = '3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E8AEF8AE0A1F4C67B0A27B';

const uuid = uuidField('The record\'s id: read it with GET /es/verifactu/records/{uuid}.', UUID);
/** An amount as the caller sent it (a number or a numeric string). */
const amount = (description: string, example: string): SchemaObject => ({ oneOf: [{ type: 'string' }, { type: 'number' }], description, example });

/** `POST /es/verifactu/onboard`'s 201. */
export const verifactuOnboardedSchema = onboardedAnswer('Participant onboarded.', {
  participant_id: uuidField('The issuer\'s id: send it as the participant-id header of its records.', '0f8e8b1c-6a57-4d57-9d5e-2f0f3c1d9a11'),
});

/** `POST generate` and `rectify`'s 200. */
export const verifactuRecordMadeSchema = successAnswer(
  {
    message: {
      type: 'object',
      required: ['uuid', 'qr_link', 'qr_code'],
      properties: {
        uuid,
        qr_link: { type: 'string', format: 'uri', description: 'The AEAT\'s ValidarQR link (nif, numserie, fecha dd-mm-yyyy, importe), printed on the invoice as its QR; prewww2.aeat.es in the sandbox.', example: QR_LINK },
        qr_code: { type: 'string', description: 'The QR of qr_link as a PNG data URI (error correction M, sized to print at 40 x 40 mm).', example: QR_CODE },
      },
    },
  },
  { message: { uuid: UUID, qr_link: QR_LINK, qr_code: QR_CODE } },
);

/** `POST cancel`'s 200: a cancellation record has no QR. */
export const verifactuCancelledSchema = successAnswer(
  { message: { type: 'object', required: ['uuid'], properties: { uuid } } },
  { message: { uuid: '01938a80-1f4d-7a22-8c10-3b2a1d0e9f87' } },
);

/** `GET /es/verifactu/records/{uuid}`'s 200. */
export const verifactuRecordSchema = successAnswer(
  {
    data: {
      type: 'object',
      required: ['uuid', 'document_identifier', 'issue_date', 'invoice_type', 'hash', 'previous_hash', 'generated_at', 'aeat_status'],
      properties: {
        uuid,
        document_identifier: { type: 'string', description: 'The invoice\'s NumSerieFactura (for a cancellation, the cancelled invoice\'s).', example: 'F-1764662400' },
        issue_date: { type: 'string', format: 'date', description: 'The invoice\'s issue date (FechaExpedicionFactura).', example: '2026-11-25' },
        invoice_type: { type: 'string', enum: ['F1', 'F2', 'R1', 'anulacion'], description: 'The TipoFactura, or `anulacion` for a cancellation record (RegistroAnulacion).', example: 'F1' },
        total_amount: amount('ImporteTotal, as sent; absent from a cancellation.', '121.00'),
        tax_total: { type: 'string', description: 'CuotaTotal, the sum of the tax charged, two decimals; absent from a cancellation.', example: '21.00' },
        hash: { type: 'string', pattern: '^[0-9A-F]{64}$', description: 'The record\'s Huella (SHA-256, uppercase hex), chaining it to the issuer\'s previous record.', example: HASH },
        previous_hash: nullable({ type: 'string' }, { description: 'The previous record\'s Huella (Encadenamiento/RegistroAnterior); null for the issuer\'s first record (PrimerRegistro).', example: null }),
        generated_at: { type: 'string', description: 'FechaHoraHusoGenRegistro: when the record was made, Spain\'s mainland time with its offset.', example: '2026-11-25T10:15:02+01:00' },
        aeat_status: {
          type: 'string',
          enum: ['Pendiente', 'Correcto', 'AceptadoConErrores', 'Incorrecto'],
          description: '`Pendiente` until the AEAT answered (the record waits for its issuer\'s next batch, at most one every TiempoEsperaEnvio), then the AEAT\'s EstadoRegistro.',
          example: 'Correcto',
        },
        aeat_csv: { type: 'string', description: 'The AEAT\'s CSV (secure verification code) of the send that carried the record, once answered.', example: '9F3A61C2D4B7E058' },
        aeat_errors: {
          type: 'array',
          description: 'With AceptadoConErrores or Incorrecto: the AEAT\'s CodigoErrorRegistro and DescripcionErrorRegistro.',
          items: { type: 'object', properties: { code: { type: 'string', example: '2000' }, message: { type: 'string', example: 'El cálculo de la huella suministrada es incorrecta.' } } },
        },
        qr_link: { type: 'string', format: 'uri', description: 'The invoice\'s ValidarQR link; absent from a cancellation.', example: QR_LINK },
      },
    },
  },
  {
    data: {
      uuid: UUID, document_identifier: 'F-1764662400', issue_date: '2026-11-25', invoice_type: 'F1', total_amount: '121.00', tax_total: '21.00',
      hash: HASH, previous_hash: null, generated_at: '2026-11-25T10:15:02+01:00', aeat_status: 'Correcto', aeat_csv: '9F3A61C2D4B7E058', qr_link: QR_LINK,
    },
  },
);
