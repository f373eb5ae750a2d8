import { makeTestCertificates } from '../shared/testing/certificates';
import { peppolDocumentIds } from '../peppol-reporting/identifiers';
import { answerMls, isMlsDocumentType, parseDocumentTypeId, serviceProviderIdOf } from './exchange';
import { MLS_DOCUMENT_TYPE_ID, MLS_PROCESS_ID, parseMls } from './mls';

describe('#46 Peppol envelope identifiers', () => {
  it('splits a document type id into its scheme, root namespace, root and CustomizationID', () => {
    expect(parseDocumentTypeId(MLS_DOCUMENT_TYPE_ID)).toEqual({
      scheme: 'busdox-docid-qns',
      namespace: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2',
      root: 'ApplicationResponse',
      customizationId: 'urn:peppol:edec:mls:1.0',
    });
    expect(parseDocumentTypeId('not a document type')).toBeUndefined();
    expect(isMlsDocumentType(MLS_DOCUMENT_TYPE_ID)).toBe(true);
  });

  it('finds no envelope in a document without CustomizationID or ProfileID: it cannot be routed', () => {
    const xml = '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:ID>1</cbc:ID></Invoice>';
    expect(peppolDocumentIds(xml)).toBeUndefined();
  });
});

describe('#46 the service provider id of an access point, from its certificate (SPIS: 0242 and the seat number)', () => {
  it('reads POP000123 as 0242:000123, and nothing from a CN that is no seat id', () => {
    expect(serviceProviderIdOf(makeTestCertificates('/CN=POP000123/O=Test Access Point/C=BE').client.cert)).toBe('0242:000123');
    expect(serviceProviderIdOf(makeTestCertificates('/CN=ap.example.com/C=BE').client.cert)).toBeUndefined();
  });
});

describe('#46 the MLS a receiving access point answers with (MLS 1.0)', () => {
  const base = { mlsId: 'mls-1', issuedAt: '2026-03-15T10:00:05.000Z', ourServiceProviderId: '0242:000111', theirServiceProviderId: 'iso6523-actorid-upis::0242:000222', instanceIdentifier: 'sbdh-1' };

  it('AP for an accepted message, from our service provider id to theirs, naming the message\'s InstanceIdentifier', () => {
    const mls = answerMls({ ...base, verdict: { accepted: true } });
    expect(mls).toMatchObject({
      senderParticipantId: 'iso6523-actorid-upis::0242:000111',
      receiverParticipantId: 'iso6523-actorid-upis::0242:000222',
      documentTypeId: MLS_DOCUMENT_TYPE_ID,
      processId: MLS_PROCESS_ID,
    });
    expect(parseMls(mls.payload)).toEqual({ id: 'mls-1', issuedAt: base.issuedAt, sender: '0242:000111', receiver: '0242:000222', responseCode: 'AP', messageId: 'sbdh-1', issues: [] });
  });

  it('RE with its description and issues for a rejected one', () => {
    const issues = [{ location: 'NA', description: '[BR-02] An Invoice shall have an Invoice number (BT-1).', reason: 'BV' as const }];
    const mls = parseMls(answerMls({ ...base, verdict: { accepted: false, description: 'The document breaks 1 rule(s)', issues } }).payload);
    expect(mls).toMatchObject({ responseCode: 'RE', description: 'The document breaks 1 rule(s)', issues });
  });
});
