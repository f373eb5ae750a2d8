/** The two MyInvois forms from one tree, type codes, and the document hash. */
import { createHash } from 'node:crypto';
import { myInvoisArea as my } from './area';
import { invoiceBody, line, seller, sst, supplier } from './fixtures/bodies';
import { hashDocument } from './hash';
import { myInvoisJson } from './render-json';

const parsed = (over: Record<string, unknown> = {}) => my.parseDocument('invoice', invoiceBody(over), supplier);
type J = Record<string, { _?: unknown; [k: string]: unknown }[]>;

describe('MyInvois JSON form', () => {
  const json = myInvoisJson(parsed({ DocumentCurrencyCode: 'USD', TaxExchangeRate: '4.72', Discounts: [{ Amount: 1, Reason: 'Loyalty' }] }), supplier);
  const inv = (json.Invoice as J[])[0];
  it('given a document, when rendered as JSON, then the root carries _D, _A, _B and one Invoice', () => {
    expect(Object.keys(json)).toEqual(['_D', '_A', '_B', 'Invoice']);
    expect(json._D).toBe('urn:oasis:names:specification:ubl:schema:xsd:Invoice-2');
    expect(json._A).toContain('CommonAggregateComponents-2');
    expect(json._B).toContain('CommonBasicComponents-2');
    expect(json.Invoice).toHaveLength(1);
  });
  it('given a leaf with attributes, when rendered, then the value is under _ and attributes are siblings', () => {
    expect(inv.InvoiceTypeCode).toEqual([{ _: '01', listVersionID: '1.0' }]);
    expect(inv.IssueTime).toEqual([{ _: '10:30:00Z' }]);
  });
  it('given amounts, quantities, rates and indicators, when rendered, then they are JSON numbers and booleans', () => {
    const total = (inv.LegalMonetaryTotal[0] as unknown as J).PayableAmount;
    expect(total).toEqual([{ _: 105, currencyID: 'USD' }]);
    expect((inv.TaxExchangeRate[0] as unknown as J).CalculationRate).toEqual([{ _: 4.72 }]);
    expect((inv.AllowanceCharge[0] as unknown as J).ChargeIndicator).toEqual([{ _: false }]);
    expect((inv.InvoiceLine[0] as unknown as J).InvoicedQuantity).toEqual([{ _: 2, unitCode: 'C62' }]);
  });
  it('given repeated elements, when rendered, then every element is an array of objects', () => {
    const party = ((inv.AccountingSupplierParty[0] as unknown as J).Party[0] as unknown as J);
    expect(party.PartyIdentification.map((p) => ((p as unknown as J).ID[0]).schemeID)).toEqual(['TIN', 'BRN', 'SST', 'TTX']);
    const walk = (v: unknown): void => {
      if (typeof v !== 'object' || v === null) return;
      for (const [k, child] of Object.entries(v)) {
        if (k === '_' || typeof child === 'string') continue;
        expect(Array.isArray(child)).toBe(true);
        (child as unknown[]).forEach(walk);
      }
    };
    walk(inv);
  });
  it('given the XML and JSON of one document, when compared, then both carry the same elements', () => {
    const { xml, json: text } = my.render(parsed(), supplier);
    const xmlNames = [...xml.matchAll(/<(?:cac|cbc):(\w+)[ >]/g)].map((m) => m[1]);
    const jsonNames: string[] = [];
    const walk = (v: Record<string, unknown>) => Object.entries(v).forEach(([k, child]) => {
      if (!Array.isArray(child)) return;
      for (const c of child) { jsonNames.push(k); walk(c as Record<string, unknown>); }
    });
    walk((JSON.parse(text).Invoice as Record<string, unknown>[])[0]);
    expect(jsonNames.sort()).toEqual(xmlNames.sort());
  });
});

describe('type codes and references', () => {
  it.each([['01', '01'], ['02', '02'], ['03', '03'], ['04', '04']])('given invoice type %s, when rendered, then InvoiceTypeCode %s', (t, code) => {
    const doc = parsed({ InvoiceTypeCode: t, InvoiceDocumentReference: [{ UUID: 'LHDN-UUID-1', InternalID: 'INV-1' }] });
    const { xml } = my.render(doc, supplier);
    expect(xml).toContain(`<cbc:InvoiceTypeCode listVersionID="1.0">${code}</cbc:InvoiceTypeCode>`);
    expect(xml).toMatch(/<cac:BillingReference>\s*<cac:InvoiceDocumentReference>\s*<cbc:ID>INV-1<\/cbc:ID>\s*<cbc:UUID>LHDN-UUID-1<\/cbc:UUID>/);
  });
  it.each([['01', '11'], ['02', '12'], ['03', '13'], ['04', '14']])('given self-billed type %s, when rendered, then InvoiceTypeCode %s and the roles swap', (t, code) => {
    const { CustomerParty: _c, ...rest } = invoiceBody({ InvoiceTypeCode: t, InvoiceDocumentReference: [{ UUID: 'U', InternalID: 'I' }] });
    const doc = my.parseDocument('self-billed', { ...rest, SupplierParty: seller, InvoiceLines: [line('Palm fruit', 1, 10, [{ TaxType: '06' }])] }, supplier);
    const { xml } = my.render(doc, supplier);
    expect(xml).toContain(`listVersionID="1.0">${code}<`);
    const [sellerXml, buyerXml] = xml.split('<cac:AccountingCustomerParty>');
    expect(sellerXml).toContain('<cbc:ID schemeID="TIN">IG21136626090</cbc:ID>');
    expect(sellerXml).toContain('<cbc:IndustryClassificationCode name="NOT APPLICABLE">00000</cbc:IndustryClassificationCode>');
    expect(buyerXml).toContain(`<cbc:ID schemeID="TIN">${supplier.tin}</cbc:ID>`);
  });
});

describe('document hash', () => {
  it('given a text, when hashed, then the hex digest is SHA-256 of its UTF-8 bytes and the document is their Base64', () => {
    const text = '{"a":"Ringgit – RM"}';
    const h = hashDocument(text, 'JSON');
    expect(h.sha256Hex).toBe(createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'));
    expect(h.sha256Hex).toMatch(/^[0-9a-f]{64}$/);
    expect(Buffer.from(h.documentBase64, 'base64').toString('utf8')).toBe(text);
    expect(Buffer.from(h.sha256Base64, 'base64').toString('hex')).toBe(h.sha256Hex);
  });
  it('given the same document rendered twice, when hashed, then the hashes are equal; a changed amount changes them', () => {
    const a = my.render(parsed(), supplier);
    const b = my.render(parsed(), supplier);
    expect(a.sha256).toEqual(b.sha256);
    expect(a.sha256.xml).toBe(hashDocument(a.xml, 'XML').sha256Hex);
    expect(a.sha256.json).toBe(hashDocument(a.json, 'JSON').sha256Hex);
    const c = my.render(parsed({ InvoiceLines: [line('Widget', 2, 50.01, [sst()])] }), supplier);
    expect(c.sha256.xml).not.toBe(a.sha256.xml);
    expect(c.sha256.json).not.toBe(a.sha256.json);
  });
});
