/**
 * How the OpenAPI document shows the Peppol participant answers (#47): the lookup shape of seed 000
 * (libs/areas/src/peppol-participants/lookup.ts) and the service's own answers (participants.service.ts);
 * kept beside the controller so that it stays a list of routes.
 */
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { LOOKUP_XMLNS } from '@einvoice/areas';
import { nullable, statusAnswer, statusField, successAnswer } from '../http/openapi-answers';

const PID = 'iso6523-actorid-upis::0208:1082643130';
const INVOICE_TYPE = 'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';

/** Path and query parameters. */
export const pidParam = { name: 'pid', description: 'The participant id `iso6523-actorid-upis::<ISO 6523 code>:<value>`, URL-encoded.', example: PID };
export const lookupPidQuery = {
  name: 'pid', isArray: true, type: String,
  description: 'A participant id of your account; repeat it (up to 100) to look up several at once: `Participants` is then an array in the order asked.',
  example: PID,
};
export const documentTypeQuery = { name: 'documentTypeId', description: 'The full document type id `<scheme>::<value>`, or its bare value.', example: INVOICE_TYPE };

const nameProperties: Record<string, SchemaObject> = {
  Name: { type: 'string', example: 'Brussels Widgets NV' },
  Language: nullable({ type: 'string' }, { example: 'nl' }),
};

/** One `Participants` object of the lookup shape. */
const participantsObject: SchemaObject = {
  type: 'object',
  properties: {
    xmlns: { type: 'string', description: 'The Peppol Directory business card namespace whose names the shape uses.', example: LOOKUP_XMLNS },
    Participant: {
      type: 'object',
      properties: {
        Meta: {
          type: 'object',
          properties: {
            ParticipantIdentifier: {
              type: 'object',
              properties: {
                Scheme: { type: 'string', example: 'iso6523-actorid-upis' },
                IdentifierCode: { type: 'string', description: 'ISO 6523 ICD / EAS code.', example: '0208' },
                IdentifierValue: { type: 'string', example: '1082643130' },
              },
            },
            SmlActivation: { type: 'boolean', description: 'Whether the SML confirmed its publication (after POST /1.0/sml/activate/{pid}): senders can then find it.', example: true },
            PdActivation: { type: 'boolean', description: 'Always false: this service does not publish to the Peppol Directory.', example: false },
            PdfFile: nullable({ type: 'string' }, { description: 'The KYC document\'s file name; null without KYC.', example: null }),
            RegistrationDate: nullable({ type: 'string', format: 'date-time' }, { description: 'When it was created.', example: '2026-12-01T09:15:02.118Z' }),
          },
        },
        BusinessCard: {
          type: 'object',
          properties: {
            BusinessEntity: {
              type: 'object',
              description: 'The first business entity of its creation.',
              properties: {
                Names: { type: 'object', properties: { Name: { type: 'array', items: { type: 'object', properties: nameProperties } } } },
                CountryCode: { type: 'string', example: 'BE' },
                GeographicalInformation: nullable({ type: 'string' }, { example: null }),
                AdditionalInformation: nullable({ type: 'string' }, { example: null }),
              },
            },
          },
        },
        AccessPointConfigurations: {
          type: 'object',
          properties: {
            AccessPointConfiguration: {
              type: 'object',
              properties: {
                EndpointId: { type: 'string', description: 'The AS4 endpoint its SMP entries publish (AS4_PUBLIC_URL).', example: 'https://ap.einvoice.example/as4' },
                MetadataProfileIds: {
                  type: 'object',
                  properties: { ProfileId: { type: 'array', items: { type: 'string' }, description: 'The processes of the document types it receives.', example: ['urn:fdc:peppol.eu:2017:poacc:billing:01:1.0', 'urn:peppol:bis:billing'] } },
                },
              },
            },
          },
        },
      },
    },
  },
};

const participantsExample = {
  xmlns: LOOKUP_XMLNS,
  Participant: {
    Meta: {
      ParticipantIdentifier: { Scheme: 'iso6523-actorid-upis', IdentifierCode: '0208', IdentifierValue: '1082643130' },
      SmlActivation: true, PdActivation: false, PdfFile: null, RegistrationDate: '2026-12-01T09:15:02.118Z',
    },
    BusinessCard: { BusinessEntity: { Names: { Name: [{ Name: 'Brussels Widgets NV', Language: 'nl' }] }, CountryCode: 'BE', GeographicalInformation: null, AdditionalInformation: null } },
    AccessPointConfigurations: {
      AccessPointConfiguration: { EndpointId: 'https://ap.einvoice.example/as4', MetadataProfileIds: { ProfileId: ['urn:fdc:peppol.eu:2017:poacc:billing:01:1.0', 'urn:peppol:bis:billing'] } },
    },
  },
};

/** The lookup's 200: `Participants` one object, or an array for several `pid`. */
export const lookupSchema: SchemaObject = {
  type: 'object',
  required: ['Participants'],
  properties: { Participants: { oneOf: [participantsObject, { type: 'array', items: participantsObject }] } },
  example: { Participants: participantsExample },
};

/** The participant as created (201 of create and of KYC completion): the lookup shape, not yet in the SML. */
export const createdSchema: SchemaObject = {
  type: 'object',
  required: ['Participants'],
  properties: { Participants: participantsObject },
  example: { Participants: { ...participantsExample, Participant: { ...participantsExample.Participant, Meta: { ...participantsExample.Participant.Meta, SmlActivation: false } } } },
};

/** 202 of create when the account must sign KYC first. */
export const kycPendingSchema = statusAnswer(
  statusField('kyc_pending'),
  {
    message: { type: 'string', example: 'KYC signing is required before the participant is created.' },
    method: { type: 'array', items: { type: 'string', enum: ['PDF_AUTHORIZATION_DOCUMENT'] }, description: 'How to complete it: POST /1.0/participant/{pid}/kyc.', example: ['PDF_AUTHORIZATION_DOCUMENT'] },
    data: { type: 'object', properties: { pid: { type: 'string', example: PID } } },
  },
  { message: 'KYC signing is required before the participant is created.', method: ['PDF_AUTHORIZATION_DOCUMENT'], data: { pid: PID } },
);

/** `GET /1.0/participant/{pid}/capabilities`'s 200. */
export const capabilitiesSchema = successAnswer(
  {
    data: {
      type: 'object',
      properties: {
        pid: { type: 'string', example: PID },
        documentTypeId: { type: 'string', example: INVOICE_TYPE },
        canReceive: { type: 'boolean', description: 'Whether a sender can deliver this document type to it through this access point now.', example: true },
        reason: {
          type: 'string',
          enum: ['SUPPORTED', 'PARTICIPANT.NOT_HOSTED', 'SML.NOT_PUBLISHED', 'DOCUMENT_TYPE.NOT_SUPPORTED'],
          description: 'Why (or why not): not registered here, not published in the SML, or a document type it does not receive.',
          example: 'SUPPORTED',
        },
        message: { type: 'string', example: 'The participant receives Peppol BIS Billing 3.0 Invoice.' },
      },
    },
  },
  { data: { pid: PID, documentTypeId: INVOICE_TYPE, canReceive: true, reason: 'SUPPORTED', message: 'The participant receives Peppol BIS Billing 3.0 Invoice.' } },
);

/** The SML routes' answers: 200 once the SML did it, 202 while it is slower than SML_WAIT_MS. */
export function smlSchema(done: 'activated' | 'deactivated', requested: 'activation_requested' | 'deactivation_requested'): { ok: SchemaObject; pending: SchemaObject } {
  const answer = (status: string, state: string) => statusAnswer(
    statusField(status),
    { data: { type: 'object', properties: { pid: { type: 'string', example: PID }, status: statusField(state) } } },
    { data: { pid: PID, status: state } },
  );
  return { ok: answer('success', done), pending: answer('pending', requested) };
}
