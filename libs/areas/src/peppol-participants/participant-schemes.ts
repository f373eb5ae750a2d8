/**
 * Participant identifier schemes: the ISO 6523 ICD / Peppol EAS codes a Peppol participant id
 * `iso6523-actorid-upis::<code>:<value>` may carry.
 *
 * Source: OpenPeppol, Peppol Code Lists — "Participant identifier schemes" v9.x
 * (https://docs.peppol.eu/edelivery/codelists/), the same codes as the CEF EAS list that
 * BR-CL-25 / PEPPOL ibr-cl-25 check in BIS Billing 3.0. Kept as data: a new code list release
 * changes these sets only. Shared by the Peppol BIS / PINT SG layer (libs/areas/src/peppol-ubl/identifiers.ts).
 */

/** Codes that name a VAT registration number (e.g. 9925 BE VAT, 9930 DE VAT). */
export const vatSchemeCodes: ReadonlySet<string> = new Set([
  '9906', '9907', '9910', '9912', '9913', '9914', '9915', '9917', '9918', '9919', '9920', '9922', '9923', '9924', '9925',
  '9926', '9927', '9928', '9929', '9930', '9931', '9932', '9933', '9934', '9935', '9936', '9937', '9938', '9939', '9940',
  '9941', '9942', '9943', '9944', '9945', '9946', '9947', '9948', '9949', '9950', '9951', '9952', '9953', '9957',
]);

/** Every code a participant id may use (e.g. 0208 BE enterprise number, 0204 Leitweg-ID, 0195 SG UEN, 0088 GLN). */
export const participantSchemeCodes: ReadonlySet<string> = new Set([
  '0002', '0007', '0009', '0037', '0060', '0088', '0096', '0097', '0106', '0130', '0135', '0142', '0147', '0151', '0154',
  '0158', '0170', '0177', '0183', '0184', '0188', '0190', '0191', '0192', '0193', '0194', '0195', '0196', '0198', '0199',
  '0200', '0201', '0202', '0203', '0204', '0205', '0208', '0209', '0210', '0211', '0212', '0213', '0215', '0216', '0217',
  '0218', '0221', '0225', '0230', '0235', '0240', '0242', '0244', '0245', '0246', '9901', '9959',
  ...vatSchemeCodes,
]);

/** The identifier scheme of every Peppol participant id (Peppol Policy for use of identifiers 4.x, POLICY 1). */
export const PARTICIPANT_ID_SCHEME = 'iso6523-actorid-upis';

/**
 * ISO 6523 ICD of the Malaysian TIN: PINT MY's EndpointID scheme (schemeID="0230" in the official
 * PINT MY 1.3.1 examples). Participants under it receive PINT MY (document-types.ts).
 */
export const PINT_MY_ENDPOINT_SCHEME = '0230';
