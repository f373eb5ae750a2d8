import { peppolDocumentIds, sellerCountryOf } from '../peppol-reporting/identifiers';
import { beInvoice, customers, line, suppliers } from '../peppol-ubl/fixtures/bodies';
import { profiles } from '../peppol-ubl/profiles';
import { checkReceivedDocument, receivedSenderOf } from '../peppol-ubl/received';
import { renderDocument } from '../peppol-ubl/render';
import { parseInvoice } from './codec';

const UUID = '2523149b-cb40-4b32-9004-debca57b80ee';
const beXml = () => renderDocument(profiles.be, parseInvoice(profiles.be, beInvoice(), suppliers.be), suppliers.be, UUID);
const sgXml = () => renderDocument(profiles.sg, parseInvoice(profiles.sg, {
  ID: 'SG-1', DocumentType: 'Invoice', IssueDate: '2026-03-15', CustomerParty: customers.sg, InvoiceLines: [line('Cloud hosting', 200, 1, 'standard', 9, 'SG')], TotalIncludingVat: 218,
}, suppliers.sg), suppliers.sg, UUID);
const BIS = 'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';

describe('#46 the envelope of a document this service renders, as the AS4 engine is handed it', () => {
  it('BIS 3.0 (BE) under busdox-docid-qns with the billing process; PINT SG under peppol-doctype-wildcard; COUNTRY_C1 the seller\'s', () => {
    expect({ ...peppolDocumentIds(beXml()), countryC1: sellerCountryOf(beXml()) }).toEqual({ documentTypeId: BIS, processId: 'cenbii-procid-ubl::urn:fdc:peppol.eu:2017:poacc:billing:01:1.0', countryC1: 'BE' });
    expect({ ...peppolDocumentIds(sgXml()), countryC1: sellerCountryOf(sgXml()) }).toEqual({
      documentTypeId: 'peppol-doctype-wildcard::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:peppol:pint:billing-1@sg-1::2.1',
      processId: 'cenbii-procid-ubl::urn:peppol:bis:billing',
      countryC1: 'SG',
    });
  });
});

describe('#46 a document received over Peppol for a receiver hosted here is checked before it is recorded', () => {
  it('given an invoice as this service renders it, under its own document type, then it is accepted with its number, type, date, currency and sender', () => {
    expect(checkReceivedDocument(BIS, beXml())).toEqual({
      ok: true,
      document: { documentNumber: 'INV-2026-0001', typeCode: '380', root: 'Invoice', issueDate: '2026-03-15', currency: 'EUR', sender: { name: 'Brussels Widgets NV', id: 'BE0123456749' } },
    });
    expect(checkReceivedDocument(peppolDocumentIds(sgXml())!.documentTypeId, sgXml())).toMatchObject({ ok: true });
  });

  it('#50 names the sender of a document delivered here (BT-27; BT-31, else BT-34), the list\'s counterparty; nothing when it is not XML', () => {
    expect(receivedSenderOf(beXml())).toEqual({ name: 'Brussels Widgets NV', id: 'BE0123456749' });
    expect(receivedSenderOf(sgXml())).toEqual({ name: suppliers.sg.registeredName, id: expect.any(String) });
    // Without a VAT identifier: its electronic address (the KBO number under 0208).
    expect(receivedSenderOf(beXml().replace(/<cac:PartyTaxScheme>[\s\S]*?<\/cac:PartyTaxScheme>/g, ''))).toEqual({ name: 'Brussels Widgets NV', id: '0123456749' });
    expect(receivedSenderOf('no xml')).toEqual({ name: null, id: null });
  });

  it('given a payload that is not the document its envelope names, then SV', () => {
    expect(checkReceivedDocument(BIS, 'no xml')).toMatchObject({ ok: false, reason: 'SV', code: 'PEPPOL.PAYLOAD_NOT_XML', issues: [{ location: 'NA', reason: 'SV' }] });
    expect(checkReceivedDocument(BIS.replace(/Invoice/g, 'CreditNote'), beXml())).toMatchObject({ ok: false, reason: 'SV', code: 'PEPPOL.PAYLOAD_MISMATCH' });
    expect(checkReceivedDocument(peppolDocumentIds(sgXml())!.documentTypeId, beXml())).toMatchObject({ ok: false, reason: 'SV', code: 'PEPPOL.PAYLOAD_MISMATCH' });
    expect(checkReceivedDocument('Invoice', beXml())).toMatchObject({ ok: false, reason: 'SV', code: 'PEPPOL.DOCUMENT_TYPE_INVALID' });
  });

  it('given an invoice that breaks EN 16931 rules, then BV with every rule broken, the first as its code', () => {
    const xml = beXml().replace(/<cbc:ID>INV-2026-0001<\/cbc:ID>/, '').replace(/<cbc:DocumentCurrencyCode>EUR<\/cbc:DocumentCurrencyCode>/, '');
    const check = checkReceivedDocument(BIS, xml);
    expect(check).toMatchObject({ ok: false, reason: 'BV', code: 'BR-02' });
    expect(check.ok ? [] : check.issues.map((i) => [i.reason, i.description.slice(0, 7)])).toEqual([['BV', '[BR-02]'], ['BV', '[BR-05]']]);
  });
});
