/**
 * How the OpenAPI document shows the Belgian, German and Singaporean answers (#47), as the area's codec
 * builds them (libs/areas/src/peppol/codec.ts) and the pipeline's onboarding answers
 * (pipeline/onboarding.ts); kept beside the controller so that it stays a list of routes.
 */
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { peppolExamples, type PeppolAreaCode } from '@einvoice/areas';
import { nullable, onboardedAnswer, successAnswer, uuidField } from '../../http/openapi-answers';

// Document ids are UUID version 7 (time-ordered), as the gateway makes them (@einvoice/domain timeOrderedUuid).
const DOCUMENT_ID = '01a23544-fe02-7011-9d9b-aa2a75a0f12d';
const SUPPLIER_ID = '0f8e8b1c-6a57-4d57-9d5e-2f0f3c1d9a11';

/** The header naming the supplier (the area's, `supplier_uuid`). */
export const supplierHeaderParam = (name: string) => ({
  name, required: true, description: 'The supplier\'s id its onboarding answered (`data.supplier_uuid`).', example: SUPPLIER_ID,
});
/** The `{uuid}` of the document reads. */
export const uuidParam = { name: 'uuid', description: 'The document\'s id its submission answered (`data.DocumentID`).', example: DOCUMENT_ID };

const deliveryStatus = nullable({ type: 'string', enum: ['Scheduled', 'Sent', 'Delivered', 'Failed'] }, {
  description:
    '`Scheduled`: accepted, queued for delivery; `Sent`: the receiving access point took it over AS4 (live Peppol), its Message Level Status still to come; ' +
    '`Delivered`: delivered (and, live, confirmed by its Message Level Status); `Failed`: see `DeliveryFailure`.',
  example: 'Delivered',
});

const deliveryFailure: SchemaObject = {
  type: 'object',
  description: 'Only when `DeliveryStatus` is `Failed`: why the delivery failed for good.',
  properties: {
    code: { type: 'string', description: 'A stable code: `PEPPOL.RECEIVER_NOT_FOUND` (no SMP registration), `PEPPOL.REJECTED_BY_RECEIVER` (its Message Level Status), `PEPPOL.UNREACHABLE`...', example: 'PEPPOL.RECEIVER_NOT_FOUND' },
    message: { type: 'string', description: 'What happened, for people.', example: 'No access point serves iso6523-actorid-upis::9925:be0202239951 (no SMP registration in the SML).' },
  },
};

const documentId = uuidField('The document\'s id in this gateway: the `{uuid}` of its reads.', DOCUMENT_ID);

/** `POST /{area}/einvoice/onboard`'s 201. */
export const onboardedSchema = onboardedAnswer('Supplier onboarded.', {
  supplier_uuid: uuidField('The supplier\'s id: send it as the `supplier_uuid` header of its documents and webhooks.', SUPPLIER_ID),
});

/** `POST /{area}/einvoice/generate/invoice`'s 202. */
export const scheduledSchema = successAnswer(
  {
    data: {
      type: 'object',
      required: ['DocumentID', 'DeliveryStatus'],
      properties: { DocumentID: documentId, DeliveryStatus: { type: 'string', enum: ['Scheduled'], example: 'Scheduled' } },
    },
  },
  { data: { DocumentID: DOCUMENT_ID, DeliveryStatus: 'Scheduled' } },
);

/** `GET /{area}/einvoice/delivery-status/{uuid}`'s 200. */
export const deliveryStatusSchema = successAnswer(
  {
    data: {
      type: 'object',
      required: ['DocumentID', 'DeliveryStatus'],
      properties: { DocumentID: documentId, DeliveryStatus: deliveryStatus, DeliveryFailure: deliveryFailure },
    },
  },
  { data: { DocumentID: DOCUMENT_ID, DeliveryStatus: 'Delivered' } },
);

/** The submitted body as stored: with the defaults the area applied (currency, buyer reference, quantities). */
function storedInvoice(code: PeppolAreaCode, currency: string): Record<string, unknown> {
  const body = peppolExamples[code].invoice.first.value as Record<string, unknown>;
  return { ...body, DocumentCurrencyCode: currency, BuyerReference: body.ID };
}

/** `GET /{area}/einvoice/get-document/{uuid}`'s 200: the area's first invoice, as it reads back. */
export function documentSchema(code: PeppolAreaCode): SchemaObject {
  return successAnswer(
    {
      data: {
        description: 'The submitted fields as validated, with the defaults applied (DocumentCurrencyCode, BuyerReference, InvoicedQuantity), plus `uuid`.',
        allOf: [
          { $ref: '#/components/schemas/InvoiceBody' },
          { type: 'object', required: ['uuid'], properties: { uuid: documentId, DeliveryFailure: deliveryFailure } },
        ],
      },
    },
    { data: { uuid: DOCUMENT_ID, ...storedInvoice(code, code === 'sg' ? 'SGD' : 'EUR') } },
  );
}
