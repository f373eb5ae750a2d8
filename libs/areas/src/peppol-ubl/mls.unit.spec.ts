import { buildMls, mlsViolations, MlsFormatError, parseMls, type Mls } from './mls';

const accepted: Mls = {
  id: '5b0e1d62-6a7e-4b8e-9b0a-0d9b7b8c7a11',
  issuedAt: '2026-07-01T10:00:02.000Z',
  sender: '0242:000006-TESTBED.3001',
  receiver: '0242:000123-OUR-AP',
  responseCode: 'AP',
  messageId: 'c0ffee00-0000-4000-8000-000000000001',
  issues: [],
};

const rejected: Mls = {
  ...accepted,
  responseCode: 'RE',
  description: 'The TDD was rejected: 2 rule(s) broken.',
  issues: [
    { location: 'NA', description: '[ibr-tdd-42] Exactly 1 seller PartyTaxScheme element MUST be present', reason: 'BV' },
    { location: '/pxs:TaxData[1]/cbc:IssueTime[1]', description: 'Not a time', reason: 'SV' },
  ],
};

describe('Peppol MLS 1.0: build and parse', () => {
  it.each([['AP', accepted], ['AB', { ...accepted, responseCode: 'AB' as const }], ['RE with its issues', rejected]])(
    'given an MLS %s, when built and parsed, then the same MLS',
    (_what, mls) => {
      expect(parseMls(buildMls(mls))).toEqual(mls);
    },
  );

  it('given an MLS, when built, then the ApplicationResponse of the MLS customization with zoned time and service-provider endpoints', () => {
    const xml = buildMls(rejected);
    expect(xml).toContain('<ApplicationResponse xmlns="urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2"');
    expect(xml).toContain('<cbc:CustomizationID>urn:peppol:edec:mls:1.0</cbc:CustomizationID>');
    expect(xml).toContain('<cbc:ProfileID>urn:peppol:edec:mls</cbc:ProfileID>');
    expect(xml).toContain('<cbc:IssueTime>10:00:02Z</cbc:IssueTime>');
    expect(xml).toContain('<cbc:EndpointID schemeID="0242">000006-TESTBED.3001</cbc:EndpointID>');
    expect(xml).toMatch(/<cac:DocumentReference>\s*<cbc:ID>c0ffee00-0000-4000-8000-000000000001<\/cbc:ID>/);
    expect(xml).toMatch(/<cac:Status>\s*<cbc:StatusReasonCode>BV<\/cbc:StatusReasonCode>/);
  });

  it.each([
    ['RE without a description', { ...rejected, description: undefined }, ['SCH-MLS-19']],
    ['RE without issues', { ...rejected, issues: [] }, ['SCH-MLS-22', 'SCH-MLS-23']],
    ['RE with a warning only', { ...rejected, issues: [{ location: 'NA', description: 'w', reason: 'BW' as const }] }, ['SCH-MLS-23']],
    ['AP with a failure', { ...accepted, issues: [{ location: 'NA', description: 'x', reason: 'BV' as const }] }, ['SCH-MLS-24']],
    ['a participant scheme that is not four digits', { ...accepted, sender: 'FTA:1' }, ['SCH-MLS-10']],
    ['no reference to the message', { ...accepted, messageId: ' ' }, ['SCH-MLS-21']],
  ])('given %s, then the MLS rules it breaks, and no XML is built', (_what, mls, rules) => {
    expect(mlsViolations(mls as Mls)).toEqual(rules);
    expect(() => buildMls(mls as Mls)).toThrow(rules[0]);
  });

  it('given an MLS written by someone else (ubl: prefix, offset time, BW on AB), then it is read', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<ubl:ApplicationResponse xmlns:ubl="urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2"
  xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
  xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:peppol:edec:mls:1.0</cbc:CustomizationID><cbc:ProfileID>urn:peppol:edec:mls</cbc:ProfileID>
  <cbc:ID>MLS-ID123</cbc:ID><cbc:IssueDate>2026-07-01</cbc:IssueDate><cbc:IssueTime>14:00:00+04:00</cbc:IssueTime>
  <cac:SenderParty><cbc:EndpointID schemeID="0242">123456</cbc:EndpointID></cac:SenderParty>
  <cac:ReceiverParty><cbc:EndpointID schemeID="0242">234567</cbc:EndpointID></cac:ReceiverParty>
  <cac:DocumentResponse><cac:Response><cbc:ResponseCode>AB</cbc:ResponseCode></cac:Response>
    <cac:DocumentReference><cbc:ID>90f14eff-3705-4869-ad3c-caae270a234e</cbc:ID></cac:DocumentReference>
    <cac:LineResponse><cac:LineReference><cbc:LineID>NA</cbc:LineID></cac:LineReference>
      <cac:Response><cbc:Description>A warning</cbc:Description><cac:Status><cbc:StatusReasonCode>BW</cbc:StatusReasonCode></cac:Status></cac:Response></cac:LineResponse>
  </cac:DocumentResponse>
</ubl:ApplicationResponse>`;
    expect(parseMls(xml)).toMatchObject({ id: 'MLS-ID123', issuedAt: '2026-07-01T10:00:00.000Z', sender: '0242:123456', responseCode: 'AB', issues: [{ reason: 'BW' }] });
  });

  it.each([
    ['not XML', 'nope', []],
    ['another customization', buildMls(accepted).replace('urn:peppol:edec:mls:1.0', 'urn:fdc:peppol.eu:poacc:trns:invoice_response:3'), ['SCH-MLS-01']],
    ['a time without zone', buildMls(accepted).replace('10:00:02Z', '10:00:02'), ['SCH-MLS-06']],
    ['an unknown response code', buildMls(accepted).replace('<cbc:ResponseCode>AP', '<cbc:ResponseCode>OK'), ['SCH-MLS-18']],
    ['two document responses', buildMls(accepted).replace(/(<cac:DocumentResponse>[\s\S]*<\/cac:DocumentResponse>)/, '$1$1'), ['SCH-MLS-15']],
  ])('given %s, then MlsFormatError with the broken rules', (_what, xml, rules) => {
    let thrown: unknown;
    try {
      parseMls(xml);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MlsFormatError);
    expect((thrown as MlsFormatError).violations).toEqual(rules);
  });
});
