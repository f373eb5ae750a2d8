import { createHash } from 'node:crypto';
import { parseUaeDocument, type UaeDocument } from './document';
import { invoice, issuer, line, receivingParty } from './fixtures/bodies';
import { renderUae } from './render';

const parsed = (over: Record<string, unknown> = {}): UaeDocument => {
  const r = parseUaeDocument(invoice(over));
  if ('issues' in r) throw new Error(JSON.stringify(r.issues));
  return r.document;
};
const render = (over: Record<string, unknown> = {}) => renderUae(parsed(over), issuer, { uuid: 'b7f74c42-5e5a-4b9d-8f00-000000000001' });
/** The text of the first `<name>` inside `<within>` (a cheap XPath for these assertions). */
const inside = (xml: string, within: string, name: string) => new RegExp(`<${within}>[\\s\\S]*?<${name}[^>]*>([^<]*)</${name}>`).exec(xml)?.[1];

describe('renderUae: the PINT AE layer', () => {
  it('given a tax invoice, when rendered, then billing identifiers, the transaction type code, the uuid and the SHA-256 of the XML', () => {
    const r = render({ flags: { is_continuous: true } });
    expect([r.customizationId, r.profileId]).toEqual(['urn:peppol:pint:billing-1@ae-1', 'urn:peppol:bis:billing']);
    expect(r.documentTypeId).toBe('peppol-doctype-wildcard::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:peppol:pint:billing-1@ae-1::2.1');
    expect(r.xml).toContain('<cbc:ProfileExecutionID>00001000</cbc:ProfileExecutionID>');
    expect(r.xml).toContain('<cbc:UUID>b7f74c42-5e5a-4b9d-8f00-000000000001</cbc:UUID>');
    expect(r.sha256).toBe(createHash('sha256').update(r.xml).digest('hex'));
  });

  it('given issuing_party overrides, when rendered, then they replace the registration except Peppol id and legal name', () => {
    const xml = render({ issuing_party: { trading_name: 'Widgets', city: 'Jebel Ali', peppol_id: '0235:1999999999', legal_name: 'Other' } }).xml;
    expect(inside(xml, 'cac:AccountingSupplierParty', 'cbc:EndpointID')).toBe('1234567890');
    expect(inside(xml, 'cac:AccountingSupplierParty', 'cbc:RegistrationName')).toBe('Gulf Widgets LLC');
    expect(inside(xml, 'cac:AccountingSupplierParty', 'cbc:CityName')).toBe('Jebel Ali');
    expect(inside(xml, 'cac:AccountingSupplierParty', 'cbc:Name')).toBe('Widgets');
  });

  it('given a self-billed invoice 389, when rendered, then the receiving party sells, the issuer buys, under the self-billing identifiers', () => {
    const r = render({ document_type: '389', flags: { is_selfbilled: true } });
    expect([r.customizationId, r.profileId]).toEqual(['urn:peppol:pint:selfbilling-1@ae-1', 'urn:peppol:bis:selfbilling']);
    expect(inside(r.xml, 'cac:AccountingSupplierParty', 'cbc:RegistrationName')).toBe(receivingParty.legal_name);
    expect(inside(r.xml, 'cac:AccountingCustomerParty', 'cbc:RegistrationName')).toBe(issuer.legalName);
    expect(r.xml).toContain('<cbc:ProfileExecutionID>00000000</cbc:ProfileExecutionID>');
  });

  it('given a 380 with is_selfbilled, when rendered, then it stays a billing document (the type code decides)', () => {
    expect(render({ flags: { is_selfbilled: true } }).customizationId).toBe('urn:peppol:pint:billing-1@ae-1');
  });

  it('given a credit note 381 with a plain reference, when rendered, then a CreditNote with its reason and the corrected invoice', () => {
    const r = render({ document_type: '381', credit_note_reason_code: 'DL8.61.1.A', document_references: [{ document_identifier: 'INV-2026-0001', issue_date: '2026-07-01' }] });
    expect(r.xml).toMatch(/<CreditNote xmlns=/);
    expect(inside(r.xml, 'cac:DiscrepancyResponse', 'cbc:ResponseCode')).toBe('DL8.61.1.A');
    expect(inside(r.xml, 'cac:BillingReference', 'cbc:ID')).toBe('INV-2026-0001');
    expect(r.xml).not.toContain('<cbc:DueDate>');
  });

  it('given E and O lines with a sent rate, when rendered, then no rate on them; E keeps its exemption code and has no line VAT (ibr-163-ae)', () => {
    const xml = render({ document_type: '480', lines: [line({ tax_category: 'E', tax_percentage: '5', tax_exemption_reason_code: 'VATEX-AE-EDU' }), line({ tax_category: 'O', tax_percentage: '5' })] }).xml;
    expect(xml).not.toContain('<cbc:Percent>');
    expect(xml).toContain('<cbc:TaxExemptionReasonCode>VATEX-AE-EDU</cbc:TaxExemptionReasonCode>');
    expect(xml.match(/<cac:ItemPriceExtension>[\s\S]*?<\/cac:ItemPriceExtension>/g)?.map((e) => e.includes('cac:TaxTotal'))).toEqual([false, true]);
  });

  it('given allowances and charges without reason, when rendered, then the documented defaults 95 / ZZZ (ibr-033, ibr-168-ae)', () => {
    const xml = render({ allowance_charges: [{ charge_indicator: false, amount: '10', tax_category: 'S' }, { charge_indicator: true, amount: '5', tax_category: 'E' }],
      lines: [line({ allowance_charges: [{ charge_indicator: true, amount: '1' }] })] }).xml;
    expect(xml.match(/<cbc:AllowanceChargeReasonCode>[^<]+/g)).toEqual(['<cbc:AllowanceChargeReasonCode>95', '<cbc:AllowanceChargeReasonCode>ZZZ', '<cbc:AllowanceChargeReasonCode>ZZZ']);
    // aligned-ibrp-e-07: an E charge states rate 0.
    expect(xml).toMatch(/<cbc:ID>E<\/cbc:ID>\s*<cbc:Percent>0<\/cbc:Percent>/);
  });

  it('given a USD document with the AED totals, when rendered, then tax currency, exchange rate, a second tax total and the AED total (ibr-175-ae)', () => {
    const xml = render({ document_currency: 'USD', total_tax_amount_in_aed: '183.63', total_amount_with_tax_in_aed: '3856.13' }).xml;
    expect(xml).toContain('<cbc:TaxCurrencyCode>AED</cbc:TaxCurrencyCode>');
    expect(inside(xml, 'cac:TaxExchangeRate', 'cbc:CalculationRate')).toBe('3.672505');
    expect(xml).toContain('<cbc:TaxAmount currencyID="AED">183.63</cbc:TaxAmount>');
    expect(xml).toMatch(/<cbc:DocumentTypeCode>aedtotal-incl-vat<\/cbc:DocumentTypeCode>\s*<cbc:DocumentDescription>AED 3856.13</);
  });

  it('given URI and embedded references, when rendered, then the XML embeds the content, attachments are numbered and stored has no content', () => {
    const content = Buffer.from('%PDF-1.7 test').toString('base64');
    const r = render({ document_references: [
      { document_identifier: 'PO-9', attachment_uri: 'https://erp.example.ae/po-9.pdf' },
      { document_identifier: 'TS-1', embedded_document: { mime_code: 'application/pdf', filename: 'timesheet.pdf', content } }] });
    expect(r.xml).toContain(`<cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="timesheet.pdf">${content}</cbc:EmbeddedDocumentBinaryObject>`);
    expect(r.xml).toContain('<cbc:URI>https://erp.example.ae/po-9.pdf</cbc:URI>');
    expect(r.attachments).toEqual([{ index: 1, filename: 'timesheet.pdf', mimeCode: 'application/pdf', bytes: Buffer.from('%PDF-1.7 test') }]);
    expect((r.stored.document_references as unknown[])[1]).toEqual({ document_identifier: 'TS-1',
      embedded_document: { mime_code: 'application/pdf', filename: 'timesheet.pdf', index: 1, size_bytes: 13 } });
    expect(JSON.stringify(r.stored)).not.toContain(content);
  });

  it('given other references and a contract value, when rendered, then each in its UBL reference, the value with the contract', () => {
    const xml = render({ other_references: { despatch_reference: 'D-1', receipt_reference: 'R-1', tender_reference: 'T-1', contract_reference: 'C-1',
      customs_reference: 'CU-1', project_reference: 'P-1' }, contract_value: 'AED 200000' }).xml;
    expect(['DespatchDocumentReference', 'ReceiptDocumentReference', 'StatementDocumentReference', 'OriginatorDocumentReference', 'ContractDocumentReference', 'ProjectReference']
      .map((n) => inside(xml, `cac:${n}`, 'cbc:ID'))).toEqual(['D-1', 'R-1', 'CU-1', 'T-1', 'C-1', 'P-1']);
    expect(inside(xml, 'cac:ContractDocumentReference', 'cbc:DocumentDescription')).toBe('AED 200000');
  });

  it('given a free-zone supply and agent billing, when rendered, then the beneficiary and the principal parties (BTAE-01, BTAE-14)', () => {
    const xml = render({ flags: { is_ftz: true, is_dab: true }, fz_beneficiary_id: 'FZ-77', principal_id: '155667745601003' }).xml;
    expect(inside(xml, 'cac:BuyerCustomerParty', 'cbc:ID')).toBe('FZ-77');
    expect(inside(xml, 'cac:SellerSupplierParty', 'cbc:ID')).toBe('155667745601003');
  });
});
