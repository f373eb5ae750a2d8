import { AppError } from '@einvoice/domain';
import { receivingParty } from '../fixtures/bodies';
import { buildTdd, type TddOptions } from './tdd';
import { readTdd } from './tdd-rules';
import { issuerWith, renderedExamples, renderedInvoice } from './test-documents';
import { all, first, parseXml, textAt, type XmlElement } from '../../shared/xml-read';
import { NS } from './namespaces';

const options = (over: Partial<TddOptions> = {}): TddOptions => ({
  reporterRole: 'C2',
  ftaId: '0242:000006-TESTBED.3001',
  representativeId: '0242:000123-OUR-AP',
  issuedAt: new Date('2026-07-01T10:15:30.456Z'),
  transportHeaderId: 'c0ffee00-0000-4000-8000-000000000001',
  ...over,
});

const tree = (xml: string) => parseXml(xml);
const reported = (root: XmlElement) => first(root, [NS.pxs, 'ReportedTransaction'], [NS.pxs, 'ReportedDocument']);
const endpoint = (e: XmlElement | undefined) => `${e?.attrs.schemeID}:${e?.text}`;
const ruleIds = (xml: string) => readTdd(xml).issues.map((i) => i.ruleId);

describe('buildTdd: the Tax Data Document of a PINT AE invoice', () => {
  describe.each(renderedExamples())('given the official example $example as rendered', ({ xml, issuer }) => {
    const source = tree(xml);
    const selfBilled = textAt(source, [NS.cbc, 'CustomizationID'])?.includes('selfbilling');
    const partyEndpoint = (role: string) => endpoint(first(source, [NS.cac, role], [NS.cac, 'Party'], [NS.cbc, 'EndpointID']));

    it.each(['C2', 'C3'] as const)('when reported as %s, then the FTA\'s checks pass and the reporting party is that side\'s participant', (role) => {
      const tdd = buildTdd(xml, options({ reporterRole: role }));
      expect(readTdd(tdd.xml).issues).toEqual([]);
      const root = tree(tdd.xml);
      expect(textAt(root, [NS.pxs, 'ReporterRole'])).toBe(role === 'C2' ? '01' : '02');
      const sender = selfBilled ? 'AccountingCustomerParty' : 'AccountingSupplierParty';
      const receiver = selfBilled ? 'AccountingSupplierParty' : 'AccountingCustomerParty';
      expect(endpoint(first(root, [NS.pxs, 'ReportingParty'], [NS.cbc, 'EndpointID']))).toBe(partyEndpoint(role === 'C2' ? sender : receiver));
      if (!selfBilled && role === 'C2') expect(partyEndpoint(sender)).toBe(issuer.peppolId);
      const doc = reported(root);
      expect(textAt(doc, [NS.cbc, 'ID'])).toBe(textAt(source, [NS.cbc, 'ID']));
      expect(textAt(doc, [NS.cbc, 'UUID'])).toBe('4b6000ca-0128-4bdc-99a6-406f2909247f');
    });
  });

  it('given a standard tax invoice, when reported by the sender, then the header, parties and the projection carry exactly what the notes list', () => {
    const root = tree(buildTdd(renderedInvoice(), options()).xml);
    expect(textAt(root, [NS.cbc, 'CustomizationID'])).toBe('urn:peppol:taxdata:ae-1');
    expect(textAt(root, [NS.cbc, 'ProfileID'])).toBe('urn:peppol:taxreporting');
    expect(first(root, [NS.cbc, 'ID'])).toBeUndefined(); // ibr-tdd-03
    expect([textAt(root, [NS.cbc, 'IssueDate']), textAt(root, [NS.cbc, 'IssueTime'])]).toEqual(['2026-07-01', '10:15:30Z']);
    expect([textAt(root, [NS.pxs, 'DocumentTypeCode']), textAt(root, [NS.pxs, 'DocumentScope']), textAt(root, [NS.pxs, 'ReporterRole'])]).toEqual(['S', 'D', '01']);
    expect(endpoint(first(root, [NS.pxs, 'ReportingParty'], [NS.cbc, 'EndpointID']))).toBe('0235:1234567890');
    expect(endpoint(first(root, [NS.pxs, 'ReceivingParty'], [NS.cbc, 'EndpointID']))).toBe('0242:000006-TESTBED.3001');
    expect(endpoint(first(root, [NS.pxs, 'ReportersRepresentative'], [NS.cac, 'PartyIdentification'], [NS.cbc, 'ID']))).toBe('0242:000123-OUR-AP');
    expect(textAt(root, [NS.pxs, 'ReportedTransaction'], [NS.pxs, 'TransportHeaderID'])).toBe('c0ffee00-0000-4000-8000-000000000001');
    const doc = reported(root);
    expect(doc?.children.map((c) => c.name)).toEqual([
      'CustomizationID', 'ProfileID', 'ID', 'UUID', 'IssueDate', 'DocumentTypeCode', 'DocumentCurrencyCode',
      'AccountingSupplierParty', 'AccountingCustomerParty', 'TaxTotal', 'MonetaryTotal',
    ]);
    expect([textAt(doc, [NS.cbc, 'ID']), textAt(doc, [NS.cbc, 'IssueDate']), textAt(doc, [NS.pxs, 'DocumentTypeCode']), textAt(doc, [NS.cbc, 'DocumentCurrencyCode'])])
      .toEqual(['INV-2026-0001', '2026-07-01', '380', 'AED']);
    const seller = first(doc, [NS.cac, 'AccountingSupplierParty'], [NS.cac, 'Party']);
    expect(seller?.children.map((c) => c.name)).toEqual(['PartyTaxScheme']); // ibr-tdd-41/42
    expect([textAt(seller, [NS.cac, 'PartyTaxScheme'], [NS.cbc, 'CompanyID']), textAt(seller, [NS.cac, 'PartyTaxScheme'], [NS.cac, 'TaxScheme'], [NS.cbc, 'ID'])])
      .toEqual(['123456789000003', 'VAT']);
    expect(textAt(doc, [NS.cac, 'AccountingCustomerParty'], [NS.cac, 'Party'], [NS.cac, 'PartyTaxScheme'], [NS.cbc, 'CompanyID'])).toBe(receivingParty.trn);
    const tax = all(doc, [NS.cac, 'TaxTotal']);
    expect(tax.map((t) => t.children.map((c) => `${c.name} ${c.attrs.currencyID} ${c.text}`))).toEqual([['TaxAmount AED 50.00']]);
    const monetary = first(doc, [NS.pxs, 'MonetaryTotal']);
    expect(monetary?.children.map((c) => `${c.name} ${c.attrs.currencyID} ${c.text}`)).toEqual(['TaxExclusiveAmount AED 1000.00']);
    expect(first(root, [NS.pxs, 'ReportedTransaction'], [NS.pxs, 'CustomContent'])).toBeUndefined();
  });

  it('given a USD invoice with its AED totals, when reported, then the tax currency, a tax total per currency and the AED total (BTAE-20) as custom content', () => {
    const xml = renderedInvoice({ document_currency: 'USD', total_tax_amount_in_aed: '183.63', total_amount_with_tax_in_aed: '3856.13' });
    const root = tree(buildTdd(xml, options()).xml);
    const doc = reported(root);
    expect(textAt(doc, [NS.cbc, 'TaxCurrencyCode'])).toBe('AED');
    expect(all(doc, [NS.cac, 'TaxTotal'], [NS.cbc, 'TaxAmount']).map((t) => `${t.attrs.currencyID} ${t.text}`)).toEqual(['USD 50.00', 'AED 183.63']);
    const custom = first(root, [NS.pxs, 'ReportedTransaction'], [NS.pxs, 'CustomContent']);
    expect([textAt(custom, [NS.cbc, 'ID']), textAt(custom, [NS.cbc, 'Value'])]).toEqual(['BTAE-20', '3856.13']);
    expect(ruleIds(buildTdd(xml, options()).xml)).toEqual([]);
  });

  it('given the UBL, when reported, then the source document is embedded unchanged after its XML declaration', () => {
    const xml = renderedInvoice();
    const tdd = buildTdd(xml, options());
    const body = xml.slice(xml.indexOf('<Invoice'));
    expect(tdd.xml).toContain(`<cec:ExtensionContent>${body.trimEnd()}</cec:ExtensionContent>`);
    const embedded = first(tree(tdd.xml), [NS.pxs, 'ReportedTransaction'], [NS.pxs, 'SourceDocument'], [NS.cec, 'ExtensionContent'], [NS.invoice, 'Invoice']);
    expect(textAt(embedded, [NS.cbc, 'ID'])).toBe('INV-2026-0001');
  });

  it('given text in the invoice that looks like markup or a replacement pattern, when reported, then it stays text', () => {
    const xml = renderedInvoice({ note: 'Price < 5 & "$&" \uE000source-document\uE000' });
    const tdd = buildTdd(xml, options());
    expect(readTdd(tdd.xml).issues).toEqual([]);
    const embedded = first(tree(tdd.xml), [NS.pxs, 'ReportedTransaction'], [NS.pxs, 'SourceDocument'], [NS.cec, 'ExtensionContent'], [NS.invoice, 'Invoice']);
    expect(textAt(embedded, [NS.cbc, 'Note'])).toBe('Price < 5 & "$&" \uE000source-document\uE000');
  });

  it('given a self-billed invoice (389), when reported by each side, then C2 reports for the buyer that issued it and C3 for the seller', () => {
    const xml = renderedInvoice({ document_type: '389', flags: { is_selfbilled: true } });
    const party = (role: 'C2' | 'C3') => endpoint(first(tree(buildTdd(xml, options({ reporterRole: role })).xml), [NS.pxs, 'ReportingParty'], [NS.cbc, 'EndpointID']));
    expect([party('C2'), party('C3')]).toEqual(['0235:1234567890', receivingParty.peppol_id]);
    expect(ruleIds(buildTdd(xml, options({ reporterRole: 'C3' })).xml)).toEqual([]);
  });

  it('given a credit note, when reported, then its type code and the CreditNote travel', () => {
    const xml = renderedInvoice({ document_type: '381', credit_note_reason_code: 'DL8.61.1.A', document_references: [{ document_identifier: 'INV-1', issue_date: '2026-06-01' }] });
    const root = tree(buildTdd(xml, options()).xml);
    expect(textAt(reported(root), [NS.pxs, 'DocumentTypeCode'])).toBe('381');
    expect(first(root, [NS.pxs, 'ReportedTransaction'], [NS.pxs, 'SourceDocument'], [NS.cec, 'ExtensionContent'], [NS.creditNote, 'CreditNote'])).toBeDefined();
  });

  it('given a seller without a TRN, when reported, then its TIN (the participant id) is the one PartyTaxScheme; the FTA refuses it only when VAT is charged', () => {
    const noTrn = issuerWith('1555555555', null);
    const standard = buildTdd(renderedInvoice({}, undefined, noTrn), options());
    const seller = first(reported(tree(standard.xml)), [NS.cac, 'AccountingSupplierParty'], [NS.cac, 'Party'], [NS.cac, 'PartyTaxScheme']);
    expect([textAt(seller, [NS.cbc, 'CompanyID']), textAt(seller, [NS.cac, 'TaxScheme'], [NS.cbc, 'ID'])]).toEqual(['1555555555', 'TIN']);
    expect(ruleIds(standard.xml)).toEqual(['FTA-AE-01']);
    const zeroRated = renderedInvoice({ lines: [{ item_name: 'Export', quantity: '1', unit_code: 'H87', unit_price: '10.00', tax_category: 'Z' }] }, undefined, noTrn);
    expect(ruleIds(buildTdd(zeroRated, options()).xml)).toEqual([]);
  });

  it('given UBL from another access point with its own prefixes and a default namespace, when reported, then the same TDD facts are read', () => {
    const ours = renderedInvoice();
    const theirs = ours
      .replace(/xmlns:cbc=/, 'xmlns:b=').replace(/<(\/?)cbc:/g, '<$1b:')
      .replace(/xmlns:cac=/, 'xmlns:a=').replace(/<(\/?)cac:/g, '<$1a:')
      .replace('<?xml version="1.0" encoding="UTF-8"?>', '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- from C2 -->');
    const facts = (xml: string) => readTdd(buildTdd(xml, options({ reporterRole: 'C3' })).xml);
    expect(facts(theirs)).toEqual(facts(ours));
    expect(facts(theirs).issues).toEqual([]);
  });

  it.each([
    ['not XML', 'this is not xml'],
    ['not an invoice', '<?xml version="1.0"?><Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>'],
    ['a DOCTYPE', '<!DOCTYPE x [<!ENTITY e "e">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>'],
  ])('given %s, when a TDD is asked for, then UAE_FTA.UNREADABLE_DOCUMENT, which a retry cannot fix', (_what, ubl) => {
    let thrown: unknown;
    try {
      buildTdd(ubl, options());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ code: 'UAE_FTA.UNREADABLE_DOCUMENT', retriable: false });
  });
});

describe('readTdd: what the FTA checks of a TDD', () => {
  const good = () => buildTdd(renderedInvoice(), options()).xml;

  it.each([
    ['the seller PartyTaxScheme removed', (x: string) => x.replace(/(<cac:AccountingSupplierParty>\s*<cac:Party>)[\s\S]*?(<\/cac:Party>)/, '$1<cbc:EndpointID schemeID="0235">1</cbc:EndpointID>$2'),
      ['ibr-tdd-42', 'FTA-AE-01']],
    ['the FTA addressed with a participant scheme', (x: string) => x.replace('schemeID="0242">000006', 'schemeID="0235">000006'), ['ibr-tdd-17']],
    ['a total with VAT added', (x: string) => x.replace('</cbc:TaxExclusiveAmount>', '</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="AED">1050.00</cbc:TaxInclusiveAmount>'), ['ibr-tdd-54']],
    ['a zone on the issue date and none on the time', (x: string) => x.replace('<cbc:IssueDate>2026-07-01</cbc:IssueDate>\n  <cbc:IssueTime>10:15:30Z', '<cbc:IssueDate>2026-07-01Z</cbc:IssueDate>\n  <cbc:IssueTime>10:15:30'),
      ['ibr-tdd-04', 'ibr-tdd-05']],
    ['an unknown reporter role', (x: string) => x.replace('<pxs:ReporterRole>01<', '<pxs:ReporterRole>C2<'), ['ibr-tdd-08']],
    ['a reported number other than the source\'s', (x: string) => x.replace('<cbc:ID>INV-2026-0001</cbc:ID>', '<cbc:ID>INV-OTHER</cbc:ID>'), ['FTA-AE-02']],
    ['the buyer as the reporter of role 01', (x: string) => x.replace('schemeID="0235">1234567890</cbc:EndpointID>\n  </pxs:ReportingParty>', 'schemeID="0235">1345678901</cbc:EndpointID>\n  </pxs:ReportingParty>'),
      ['FTA-AE-03']],
  ])('given a TDD with %s, then the broken rules are named as business rule violations', (_what, mutate, expected) => {
    const mutated = mutate(good());
    expect(mutated).not.toBe(good());
    const issues = readTdd(mutated).issues;
    expect(issues.map((i) => i.ruleId)).toEqual(expected);
    expect(issues.every((i) => i.reason === 'BV' && i.message.startsWith(`[${i.ruleId}]`))).toBe(true);
  });

  it('given text that is not XML or not a TaxData, then a syntax violation', () => {
    expect(readTdd('<pxs:TaxData').issues).toEqual([expect.objectContaining({ reason: 'SV', ruleId: 'XML' })]);
    expect(readTdd(renderedInvoice()).issues).toEqual([expect.objectContaining({ reason: 'SV', ruleId: 'XSD' })]);
  });

  it('given a good TDD, then its facts: role, parties, the document and the seller\'s tax id', () => {
    expect(readTdd(good()).facts).toEqual({
      reporterRole: '01',
      reportingParty: '0235:1234567890',
      representative: '0242:000123-OUR-AP',
      documentId: 'INV-2026-0001',
      documentUuid: 'b7f74c42-5e5a-4b9d-8f00-000000000001',
      documentTypeCode: '380',
      sellerTaxId: '123456789000003',
    });
  });
});
