import { findReceivableDocumentType, receivableDocumentTypesOf } from './document-types';
import { LOOKUP_XMLNS, toLookupParticipants } from './lookup';
import { renderServiceGroup, renderSignedServiceMetadata } from './smp';

describe('#3 lookup shape', () => {
  it('maps a participant to the seed\'s lookup object', () => {
    const shaped = toLookupParticipants({
      participantId: 'iso6523-actorid-upis::0208:0123456749',
      smlStatus: 'activated',
      pdfFile: 'kyc.pdf',
      registrationDate: '2026-03-15T10:00:00.000Z',
      businessEntities: [{
        names: [{ name: 'Brussels Widgets NV', language: 'nl' }], countryCode: 'BE', geographicalInformation: 'Brussels',
        additionalInformation: 'Widgets', additionalIdentifiers: [], contacts: [],
      }],
    }, 'https://ap.example/as4');
    expect(shaped).toEqual({
      xmlns: LOOKUP_XMLNS,
      Participant: {
        Meta: {
          ParticipantIdentifier: { Scheme: 'iso6523-actorid-upis', IdentifierCode: '0208', IdentifierValue: '0123456749' },
          SmlActivation: true,
          PdActivation: false,
          PdfFile: 'kyc.pdf',
          RegistrationDate: '2026-03-15T10:00:00.000Z',
        },
        BusinessCard: {
          BusinessEntity: {
            Names: { Name: [{ Name: 'Brussels Widgets NV', Language: 'nl' }] },
            CountryCode: 'BE',
            GeographicalInformation: 'Brussels',
            AdditionalInformation: 'Widgets',
          },
        },
        AccessPointConfigurations: {
          AccessPointConfiguration: {
            EndpointId: 'https://ap.example/as4',
            MetadataProfileIds: { ProfileId: ['urn:fdc:peppol.eu:2017:poacc:billing:01:1.0', 'urn:peppol:bis:billing'] },
          },
        },
      },
    });
  });

  it.each(['activation_requested', 'not_published', 'deactivated'])('shows SmlActivation false while %s', (smlStatus) => {
    const shaped = toLookupParticipants({ participantId: 'iso6523-actorid-upis::0208:0123456749', smlStatus, pdfFile: null, registrationDate: null, businessEntities: [] }, 'x');
    expect(shaped.Participant.Meta.SmlActivation).toBe(false);
  });
});

describe('#3 SMP XML', () => {
  const pid = 'iso6523-actorid-upis::9925:be0123456749';

  it('lists one URL-encoded reference per receivable document type', () => {
    const xml = renderServiceGroup(pid, 'http://smp.example', receivableDocumentTypesOf(pid));
    expect(xml).toContain('<smp:ServiceGroup xmlns:smp="http://busdox.org/serviceMetadata/publishing/1.0/"');
    expect(xml).toContain(`<id:ParticipantIdentifier scheme="iso6523-actorid-upis">${pid.replace('iso6523-actorid-upis::', '')}</id:ParticipantIdentifier>`);
    expect(xml.match(/<smp:ServiceMetadataReference href="http:\/\/smp\.example\/smp\/iso6523-actorid-upis%3A%3A9925%3Abe0123456749\/services\/[^"]+"/g)).toHaveLength(4);
  });

  it('renders the AS4 endpoint of a document type', () => {
    const type = findReceivableDocumentType(
      pid,
      'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
    )!;
    const xml = renderSignedServiceMetadata(pid, type, { endpointUri: 'https://ap.example/as4', certificate: 'CERT', serviceDescription: 'd', technicalContactUrl: 'https://x' });
    expect(xml).toContain('<smp:Endpoint transportProfile="peppol-transport-as4-v2_0">');
    expect(xml).toContain('<wsa:Address>https://ap.example/as4</wsa:Address>');
    expect(xml).toContain('<id:ProcessIdentifier scheme="cenbii-procid-ubl">urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</id:ProcessIdentifier>');
  });

  it('finds document types by full id or bare value, never a case variant', () => {
    const t = receivableDocumentTypesOf(pid)[2];
    expect(findReceivableDocumentType(pid, t.value)).toBe(t);
    expect(findReceivableDocumentType(pid, `${t.scheme}::${t.value}`)).toBe(t);
    expect(findReceivableDocumentType(pid, t.value.toUpperCase())).toBeUndefined();
  });
});
