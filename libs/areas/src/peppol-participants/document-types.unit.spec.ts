import { findReceivableDocumentType, fullDocumentTypeId, metadataProfileIdsOf, pintAeDocumentTypes, pintMyDocumentTypes, receivableDocumentTypesOf, serviceProviderDocumentTypes } from './document-types';
import { MLS_DOCUMENT_TYPE_ID, MLS_PROCESS_ID } from '../peppol-ubl/mls';
import { toLookupParticipants } from './lookup';

const malaysian = 'iso6523-actorid-upis::0230:c25845632020';
const belgian = 'iso6523-actorid-upis::9925:be0123456749';
const pintMyInvoice = 'peppol-doctype-wildcard::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:peppol:pint:billing-1@my-1::2.1';
const pintSgInvoice = 'peppol-doctype-wildcard::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:peppol:pint:billing-1@sg-1::2.1';

describe('document types a participant hosted here receives, by its identifier scheme', () => {
  it('given a Malaysian participant (ICD 0230), then PINT MY billing and self-billing invoices and credit notes, nothing else', () => {
    expect(receivableDocumentTypesOf(malaysian).map(fullDocumentTypeId)).toEqual([
      pintMyInvoice,
      'peppol-doctype-wildcard::urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:peppol:pint:billing-1@my-1::2.1',
      'peppol-doctype-wildcard::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:peppol:pint:selfbilling-1@my-1::2.1',
      'peppol-doctype-wildcard::urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:peppol:pint:selfbilling-1@my-1::2.1',
    ]);
    expect(findReceivableDocumentType(malaysian, pintMyInvoice)?.processId).toBe('urn:peppol:bis:billing');
    expect(findReceivableDocumentType(malaysian, pintSgInvoice)).toBeUndefined();
  });

  it('given a participant of another scheme (BE/DE/SG area), then BIS Billing 3.0 and PINT SG, never PINT MY', () => {
    expect(receivableDocumentTypesOf(belgian).map((t) => t.name)).toEqual([
      'Peppol BIS Billing 3.0 Invoice', 'Peppol BIS Billing 3.0 Credit Note', 'PINT SG Invoice', 'PINT SG Credit Note',
    ]);
    expect(findReceivableDocumentType(belgian, pintSgInvoice)?.name).toBe('PINT SG Invoice');
    expect(findReceivableDocumentType(belgian, pintMyInvoice)).toBeUndefined();
    // 0230 must be the ICD itself, not a value that starts with it.
    expect(receivableDocumentTypesOf('iso6523-actorid-upis::0088:0230123456789')).not.toBe(pintMyDocumentTypes);
  });

  it('given a UAE participant (ICD 0235), then PINT AE billing and self-billing, nothing else', () => {
    const emirati = 'iso6523-actorid-upis::0235:1234567890';
    expect(receivableDocumentTypesOf(emirati)).toBe(pintAeDocumentTypes);
    expect(receivableDocumentTypesOf(emirati).map((t) => t.value)).toEqual([
      'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:peppol:pint:billing-1@ae-1::2.1',
      'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:peppol:pint:billing-1@ae-1::2.1',
      'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:peppol:pint:selfbilling-1@ae-1::2.1',
      'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:peppol:pint:selfbilling-1@ae-1::2.1',
    ]);
    expect(metadataProfileIdsOf(emirati)).toEqual(['urn:peppol:bis:billing', 'urn:peppol:bis:selfbilling']);
    expect(findReceivableDocumentType(emirati, pintMyInvoice)).toBeUndefined();
  });

  it('the lookup offers the processes of those document types', () => {
    expect(metadataProfileIdsOf(malaysian)).toEqual(['urn:peppol:bis:billing', 'urn:peppol:bis:selfbilling']);
    const shaped = toLookupParticipants({ participantId: malaysian, smlStatus: 'activated', pdfFile: null, registrationDate: null, businessEntities: [] }, 'x');
    expect(shaped.Participant.AccessPointConfigurations.AccessPointConfiguration.MetadataProfileIds.ProfileId).toEqual(['urn:peppol:bis:billing', 'urn:peppol:bis:selfbilling']);
    expect(shaped.Participant.Meta.ParticipantIdentifier).toEqual({ Scheme: 'iso6523-actorid-upis', IdentifierCode: '0230', IdentifierValue: 'c25845632020' });
  });

  it('given an access point\'s own participant (ICD 0242, its service provider id), then the MLS only, as MLS 1.0 names it', () => {
    const accessPoint = 'iso6523-actorid-upis::0242:000111';
    expect(receivableDocumentTypesOf(accessPoint)).toBe(serviceProviderDocumentTypes);
    expect(receivableDocumentTypesOf(accessPoint).map(fullDocumentTypeId)).toEqual([MLS_DOCUMENT_TYPE_ID]);
    expect(metadataProfileIdsOf(accessPoint).map((p) => `cenbii-procid-ubl::${p}`)).toEqual([MLS_PROCESS_ID]);
  });
});
