/**
 * Request-body examples of the Peppol participant routes in the OpenAPI document (#47). `first` is
 * README.md's first document of the area (```sh example=peppol) with one concrete enterprise number in
 * place of the README's fresh one: check-digit-valid, used by no test, since a participant id is
 * registered once in the database.
 */
import type { RequestExamples } from '../shared/examples';

/** An enterprise number of the newer 1… series (no test draws one): 10826431 and its check digits 97 − (10826431 mod 97) = 30. */
const KBO = '1082643130';

/** A minimal PDF (`%PDF-1.4`, a catalog and a trailer), base64: what a KYC completion carries. */
const SIGNED_PDF = 'JVBERi0xLjQKJcOkw7zDtsOfCjEgMCBvYmoKPDwvVHlwZS9DYXRhbG9nPj4KZW5kb2JqCnRyYWlsZXIKPDwvUm9vdCAxIDAgUj4+CiUlRU9GCg==';

/** The examples of the participant routes' bodies, by operation. */
export const participantExamples: { readonly create: RequestExamples; readonly kyc: RequestExamples } = {
  create: {
    first: {
      summary: 'A Belgian business by its enterprise number (README, the first document)',
      description: 'The participant id comes from the identifier with scheme iso6523-actorid-upis: iso6523-actorid-upis::0208:1082643130.',
      value: {
        businessEntity: [{
          names: { name: [{ language: 'nl', name: 'Brussels Widgets NV' }] }, countryCode: 'BE',
          additionalIdentifiers: { additionalIdentifier: [{ identifierCode: '0208', identifierValue: KBO, scheme: 'iso6523-actorid-upis' }] },
        }],
      },
    },
    fullBusinessCard: {
      summary: 'An explicit participant id and a full business card',
      value: {
        participantIdentifier: `iso6523-actorid-upis::0208:${KBO}`,
        businessEntity: [{
          names: { name: [{ language: 'nl', name: 'Brussels Widgets NV' }, { language: 'fr', name: 'Brussels Widgets SA' }] },
          countryCode: 'BE',
          geographicalInformation: 'Rue de la Loi 16, 1000 Brussels',
          additionalInformation: 'Industrial widgets since 1962.',
          additionalIdentifiers: { additionalIdentifier: [{ identifierCode: '9925', identifierValue: `BE${KBO}`, scheme: 'iso6523-actorid-upis' }] },
          contacts: { contact: [{ type: 'administrative', name: 'Accounts receivable', email: 'peppol@widgets.example', phoneNumber: '+3225551234' }] },
        }],
      },
    },
  },
  kyc: {
    signedAuthorization: {
      summary: 'The signed authorization letter',
      value: { method: 'PDF_AUTHORIZATION_DOCUMENT', fileName: `authorization-${KBO}.pdf`, content: SIGNED_PDF },
    },
  },
};
