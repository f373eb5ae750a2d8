import { parseUaeDocument } from '../document';
import { invoice, issuer, line } from '../fixtures/bodies';
import { renderUae } from '../render';
import { checkUaeRules, selfBillingPairingIssues } from '.';

const noFlags = { is_ftz: false, is_deemed: false, is_margin: false, is_summary: false, is_continuous: false, is_dab: false, is_ecommerce: false, is_export: false, is_selfbilled: false };

const rendered = (body: Record<string, unknown>) => {
  const parsed = parseUaeDocument(body);
  if (!('document' in parsed)) throw new Error(JSON.stringify(parsed.issues));
  return renderUae(parsed.document, issuer, { uuid: '4b6000ca-0128-4bdc-99a6-406f2909247f' }).xml;
};
const codes = (xml: string) => checkUaeRules(xml).map((i) => i.code);

describe('PINT AE rules (ours)', () => {
  it('given a valid tax invoice, then no rule is broken', () => {
    expect(checkUaeRules(rendered(invoice()))).toEqual([]);
  });

  it('given a standard-rated line at 10 %, then ibr-190-ae with the official text, at path Document', () => {
    const issues = checkUaeRules(rendered(invoice({ lines: [line({ tax_percentage: '10' })] })));
    expect(issues).toContainEqual({ path: 'Document', code: 'ibr-190-ae', message: expect.stringMatching(/^\[ibr-190-ae\]-/), severity: 'error' });
  });

  it('given credit transfer without an account, then ibr-192-ae; an invoice without payment means, ibr-191-ae', () => {
    expect(codes(rendered(invoice({ payment_means: [{ type_code: '30' }] })))).toEqual(['ibr-192-ae']);
    expect(codes(rendered(invoice({ payment_means: undefined })))).toEqual(['ibr-191-ae']);
  });

  it('given a 380 made only of exempt lines, then ibr-151-ae (use 480)', () => {
    expect(codes(rendered(invoice({ lines: [line({ tax_category: 'E', tax_percentage: undefined, tax_exemption_reason_code: 'VATEX-AE-EX' })] })))).toContain('ibr-151-ae');
  });

  it('applies only the first matching rule of a pattern: the buyer address is checked by ibr-144-ae, never by ibr-128-ae', () => {
    const xml = rendered(invoice());
    const badEmirate = xml.replace('<cbc:CountrySubentity>AUH</cbc:CountrySubentity>', '<cbc:CountrySubentity>XXX</cbc:CountrySubentity>');
    expect(badEmirate).not.toBe(xml);
    expect(codes(badEmirate)).toEqual([]);
    const noCity = xml.replace(/<cbc:CityName>Abu Dhabi<\/cbc:CityName>/, '');
    expect(codes(noCity)).toEqual(['ibr-144-ae']);
  });

  it('reads code lists per specification: 389 is a self-billing type only (ibr-cl-01)', () => {
    const xml = rendered(invoice()).replace('<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>', '<cbc:InvoiceTypeCode>389</cbc:InvoiceTypeCode>');
    expect(codes(xml)).toContain('ibr-cl-01');
  });

  it('#44 given is_selfbilled on a type self-billing does not know (380, 381), then ibr-cl-01 with the official text; 389, 480, 261, 81 pair with it', () => {
    const flagged = (type: string) => selfBillingPairingIssues({ document_type: type as '380', flags: { ...noFlags, is_selfbilled: true } });
    expect(flagged('380')).toEqual([{ path: 'Document', code: 'ibr-cl-01', message: expect.stringMatching(/^\[ibr-cl-01\]-The document type code/), severity: 'error' }]);
    expect(flagged('381').map((i) => i.code)).toEqual(['ibr-cl-01']);
    expect(['389', '480', '261', '81'].flatMap(flagged)).toEqual([]);
    // A 389 without the flag is accepted and filed identically (seed "Document header").
    expect(selfBillingPairingIssues({ document_type: '389', flags: noFlags })).toEqual([]);
    expect(selfBillingPairingIssues({ document_type: '380', flags: noFlags })).toEqual([]);
  });

  it('reports each broken rule once, however many elements break it', () => {
    const issues = codes(rendered(invoice({ lines: [line({ tax_percentage: '10' }), line({ tax_percentage: '10', item_name: 'Gadget' })] })));
    expect(issues.filter((c) => c === 'ibr-190-ae')).toHaveLength(1);
  });
});
