import { AppError, FieldIssue } from '@einvoice/domain';
import { parseInvoice, parseOnboarding } from './codec';
import { profiles } from '../peppol-ubl/profiles';
import { renderDocument } from '../peppol-ubl/render';
import { participantIdFor, peppolEndpointFor } from '../peppol-ubl/identifiers';
import { beInvoice, customers, line, suppliers } from '../peppol-ubl/fixtures/bodies';
import { peppolDefinitions } from './definitions';
import type { ReportedDocumentView } from '../registry/area';

function issuesOf(fn: () => unknown): FieldIssue[] {
  try { fn(); } catch (e) { expect(e).toBeInstanceOf(AppError); return [...(e as AppError).issues]; }
  throw new Error('expected a validation error');
}
const codes = (issues: FieldIssue[]) => issues.map((i) => `${i.path} ${i.code}`);

describe('invoice schema (seed fields)', () => {
  it('given the minimal valid body, when parsed, then defaults are applied', () => {
    const dto = parseInvoice(profiles.be, beInvoice());
    expect(dto.DocumentCurrencyCode).toBe('EUR');
    expect(dto.BuyerReference).toBe('INV-2026-0001');
    expect(dto.InvoiceLines[0].InvoicedQuantity).toBe(1);
    expect(parseInvoice(profiles.sg, { ...beInvoice({ DocumentType: 'Invoice', CustomerParty: customers.sg,
      InvoiceLines: [line('x', 100, undefined, 'standard', 9, 'SG')], TotalIncludingVat: 109 }) }).DocumentCurrencyCode).toBe('SGD');
  });
  it.each([
    ['ID too long', { ID: 'x'.repeat(51) }, 'ID FIELD.TOO_LONG'],
    ['ID missing', { ID: undefined }, 'ID FIELD.REQUIRED'],
    ['DocumentType not a string', { DocumentType: 380 }, 'DocumentType FIELD.INVALID_TYPE'],
    ['IssueDate not a calendar day', { IssueDate: '2026-02-30' }, 'IssueDate FIELD.INVALID_FORMAT'],
    ['IssueDate in another format', { IssueDate: '15/03/2026' }, 'IssueDate FIELD.INVALID_FORMAT'],
    ['currency lower case', { DocumentCurrencyCode: 'eur' }, 'DocumentCurrencyCode FIELD.INVALID_FORMAT'],
    ['currency unknown', { DocumentCurrencyCode: 'XYZ' }, 'DocumentCurrencyCode BR-CL-04'],
    ['no lines', { InvoiceLines: [] }, 'InvoiceLines FIELD.TOO_FEW'],
    ['total as string', { TotalIncludingVat: '121' }, 'TotalIncludingVat FIELD.INVALID_TYPE'],
    ['customer name too long', { CustomerParty: { ...customers.be, RegisteredName: 'x'.repeat(301) } }, 'CustomerParty.RegisteredName FIELD.TOO_LONG'],
    ['zip too long', { CustomerParty: { ...customers.be, address: { ...customers.be.address, ZipCode: '12345678901' } } }, 'CustomerParty.address.ZipCode FIELD.TOO_LONG'],
    ['country not alpha-2', { CustomerParty: { ...customers.be, address: { ...customers.be.address, Country: 'BEL' } } }, 'CustomerParty.address.Country FIELD.INVALID_FORMAT'],
    ['street too long', { CustomerParty: { ...customers.be, address: { ...customers.be.address, Street: 'x'.repeat(151) } } }, 'CustomerParty.address.Street FIELD.TOO_LONG'],
    ['city too long', { CustomerParty: { ...customers.be, address: { ...customers.be.address, City: 'x'.repeat(51) } } }, 'CustomerParty.address.City FIELD.TOO_LONG'],
    ['customer id too long', { CustomerParty: { ...customers.be, Identifiers: [{ Scheme: '0088', ID: 'x'.repeat(51) }] } }, 'CustomerParty.Identifiers[0].ID FIELD.TOO_LONG'],
    ['customer scheme unknown', { CustomerParty: { ...customers.be, Identifiers: [{ Scheme: 'XX:ID', ID: '1' }] } }, 'CustomerParty.Identifiers[0].Scheme FIELD.INVALID_VALUE'],
    ['description too long', { InvoiceLines: [line('x'.repeat(301), 100, 1, 'standard', 21, 'BE')] }, 'InvoiceLines[0].Description FIELD.TOO_LONG'],
    ['tax type not in enum', { InvoiceLines: [line('x', 100, 1, 'luxury', 21, 'BE')] }, 'InvoiceLines[0].TaxType.TaxType FIELD.INVALID_VALUE'],
    ['tax rate as string', { InvoiceLines: [{ ...line('x', 100, 1, 'standard', 21, 'BE'), TaxType: { TaxRate: '21', TaxType: 'standard', TaxCountry: 'BE' } }] }, 'InvoiceLines[0].TaxType.TaxRate FIELD.INVALID_TYPE'],
    ['quantity as string', { InvoiceLines: [{ ...line('x', 100, 1, 'standard', 21, 'BE'), InvoicedQuantity: '1' }] }, 'InvoiceLines[0].InvoicedQuantity FIELD.INVALID_TYPE'],
    ['tax country of another area', { InvoiceLines: [line('x', 100, 1, 'standard', 21, 'DE')] }, 'InvoiceLines[0].TaxType.TaxCountry FIELD.INVALID_VALUE'],
    ['due date malformed', { DueDate: '2026-13-01' }, 'DueDate FIELD.INVALID_FORMAT'],
    ['buyer reference too long', { BuyerReference: 'x'.repeat(201) }, 'BuyerReference FIELD.TOO_LONG'],
  ])('given %s, when parsed, then the issue is reported', (_name, override, expected) => {
    expect(codes(issuesOf(() => parseInvoice(profiles.be, beInvoice(override))))).toContain(expected);
  });
});

describe('document types', () => {
  it.each(['71', '380', '383', '877', '381', '396', '532'])('given BE DocumentType %s, when parsed, then it is accepted', (t) => {
    const credit = ['381', '396', '532'].includes(t) ? { BillingReference: { ID: 'INV-1' } } : {};
    expect(parseInvoice(profiles.be, beInvoice({ DocumentType: t, ...credit })).DocumentType).toBe(t);
  });
  it('given an unknown code, when parsed, then INVALID_VALUE lists the accepted values', () => {
    const [found] = issuesOf(() => parseInvoice(profiles.be, beInvoice({ DocumentType: '999' })));
    expect(found.code).toBe('FIELD.INVALID_VALUE');
    expect(found.message).toContain('380, 383');
  });
  it('given a SG name on a BE invoice, when parsed, then it is refused', () => {
    expect(codes(issuesOf(() => parseInvoice(profiles.be, beInvoice({ DocumentType: 'Invoice' }))))).toEqual(['DocumentType FIELD.INVALID_VALUE']);
  });
  it('given a credit note without BillingReference, when parsed, then BillingReference is required', () => {
    expect(codes(issuesOf(() => parseInvoice(profiles.be, beInvoice({ DocumentType: '381' }))))).toEqual(['BillingReference FIELD.REQUIRED']);
  });
  it('given an SG DebitNote, when rendered, then it is an Invoice with type code 383', () => {
    const dto = parseInvoice(profiles.sg, beInvoice({ DocumentType: 'DebitNote', CustomerParty: customers.sg, InvoiceLines: [line('x', 100, 1, 'standard', 9, 'SG')], TotalIncludingVat: 109 }));
    expect(renderDocument(profiles.sg, dto, suppliers.sg, 'u')).toContain('<cbc:InvoiceTypeCode>383</cbc:InvoiceTypeCode>');
  });
});

describe('totals', () => {
  it('given a wrong total, when parsed, then the message names the expected total', () => {
    const [found] = issuesOf(() => parseInvoice(profiles.be, beInvoice({ TotalIncludingVat: 121.01 })));
    expect(found).toMatchObject({ path: 'TotalIncludingVat', code: 'DOCUMENT.TOTAL_MISMATCH', message: 'TotalIncludingVat is 121.01 but the lines with VAT come to 121.00' });
  });
  it('given 0.1 and 0.2 prices, when summed, then the total is exact', () => {
    const lines = [line('a', 0.1, 1, 'zero', 0, 'BE'), line('b', 0.2, 1, 'zero', 0, 'BE')];
    expect(parseInvoice(profiles.be, beInvoice({ InvoiceLines: lines, TotalIncludingVat: 0.3 })).TotalIncludingVat).toBe(0.3);
  });
  it('given VAT per group, when computed, then it is rounded per group, not per line (BR-CO-17)', () => {
    // 3 × 0.05 at 21 %: per line 0.01 each = 0.03; per group 0.15 × 21 % = 0.0315 → 0.03; and 1.5 × 10.01 = 15.015 → 15.02
    const lines = [line('a', 0.05, 1, 'standard', 21, 'BE'), line('b', 0.05, 1, 'standard', 21, 'BE'), line('c', 0.05, 1, 'standard', 21, 'BE'), line('d', 10.01, 1.5, 'zero', 0, 'BE')];
    expect(parseInvoice(profiles.be, beInvoice({ InvoiceLines: lines, TotalIncludingVat: 15.2 })).ID).toBe('INV-2026-0001');
  });
});

describe('tax rules', () => {
  it.each([
    ['standard at 0 %', line('x', 100, 1, 'standard', 0, 'BE'), 'InvoiceLines[0].TaxType.TaxRate BR-S-05'],
    ['zero at 6 %', line('x', 100, 1, 'zero', 6, 'BE'), 'InvoiceLines[0].TaxType.TaxRate BR-Z-05'],
    ['exempt without reason', line('x', 100, 1, 'exempt', 0, 'BE'), 'InvoiceLines[0].TaxType.TaxExemptionReason FIELD.REQUIRED'],
    ['not_registered in BE', line('x', 100, 1, 'not_registered', 0, 'BE'), 'InvoiceLines[0].TaxType.TaxType FIELD.INVALID_VALUE'],
    ['negative price', line('x', -100, 1, 'zero', 0, 'BE'), 'InvoiceLines[0].PriceAmount BR-27'],
  ])('given %s, when parsed, then it is refused', (_n, l, expected) => {
    expect(codes(issuesOf(() => parseInvoice(profiles.be, beInvoice({ InvoiceLines: [l], TotalIncludingVat: 100 }))))).toContain(expected);
  });
  it('given reverse charge to a buyer without VAT number, when parsed, then BR-AE-02', () => {
    const customer = { ...customers.nl, Identifiers: [{ Scheme: '0088', ID: '5790000436071' }] };
    expect(codes(issuesOf(() => parseInvoice(profiles.be, beInvoice({ CustomerParty: customer, InvoiceLines: [line('x', 100, 1, 'reverse_charge', 0, 'BE')], TotalIncludingVat: 100 })))))
      .toEqual(['CustomerParty.Identifiers BR-AE-02']);
  });
  it('given reduced GST in Singapore, when parsed, then the TaxType is not allowed for the area', () => {
    const body = beInvoice({ DocumentType: 'Invoice', CustomerParty: customers.sg, InvoiceLines: [line('x', 100, 1, 'reduced', 5, 'SG')], TotalIncludingVat: 105 });
    expect(issuesOf(() => parseInvoice(profiles.sg, body))[0].message).toContain('accepted values: standard, zero, export, exempt, outside_scope, not_registered');
  });
  it('given a USD Singapore invoice without exchange rate, when parsed, then BR-113-GST-SG', () => {
    const body = beInvoice({ DocumentType: 'Invoice', DocumentCurrencyCode: 'USD', CustomerParty: customers.sg, InvoiceLines: [line('x', 100, 1, 'standard', 9, 'SG')], TotalIncludingVat: 109 });
    expect(codes(issuesOf(() => parseInvoice(profiles.sg, body)))).toEqual(['TaxExchangeRate BR-113-GST-SG']);
  });
  it('given a domestic German invoice without payment means, when parsed, then DE-R-001', () => {
    const body = beInvoice({ CustomerParty: customers.de, InvoiceLines: [line('x', 100, 1, 'standard', 19, 'DE')], TotalIncludingVat: 119 });
    expect(codes(issuesOf(() => parseInvoice(profiles.de, body, suppliers.de)))).toEqual(['PaymentMeans DE-R-001']);
  });
  it('given a BE supplier with only a KBO number and a standard line, when parsed with the supplier, then BR-S-02', () => {
    const supplier = { ...suppliers.be, identifiers: [{ scheme: 'BE:KBO', id: '0123456749' }] };
    expect(codes(issuesOf(() => parseInvoice(profiles.be, beInvoice(), supplier)))).toEqual(['supplier.identifiers BR-S-02']);
  });
});

describe('onboarding and identifiers', () => {
  const onboard = (o: Record<string, unknown>) => ({ registered_name: 'Acme', identifiers: [{ scheme: 'BE:VAT', id: 'BE 0123.456.749' }], country: 'BE', ...o });
  it('given a valid BE onboarding, when parsed, then identifiers are normalized', () => {
    expect(parseOnboarding(profiles.be, onboard({})).identifiers).toEqual([{ scheme: 'BE:VAT', id: 'BE0123456749' }]);
  });
  it.each([
    ['registered_name too long', { registered_name: 'x'.repeat(301) }, 'registered_name FIELD.TOO_LONG'],
    ['no identifiers', { identifiers: [] }, 'identifiers FIELD.TOO_FEW'],
    ['contact_number too long', { contact_number: '1'.repeat(21) }, 'contact_number FIELD.TOO_LONG'],
    ['city too long', { city: 'x'.repeat(51) }, 'city FIELD.TOO_LONG'],
    ['county too long', { county: 'x'.repeat(151) }, 'county FIELD.TOO_LONG'],
    ['country missing', { country: undefined }, 'country FIELD.REQUIRED'],
    ['a DE scheme in BE', { identifiers: [{ scheme: 'DE:VAT', id: 'DE123456789' }] }, 'identifiers[0].scheme FIELD.INVALID_VALUE'],
    ['a bad KBO check digit', { identifiers: [{ scheme: 'BE:KBO', id: '0123456748' }] }, 'identifiers[0].id FIELD.INVALID_FORMAT'],
  ])('given %s, when onboarding in BE, then it is refused', (_n, o, expected) => {
    expect(codes(issuesOf(() => parseOnboarding(profiles.be, onboard(o))))).toContain(expected);
  });
  it.each([
    ['de', 'DE:VAT', 'DE12345678', false], ['de', 'DE:VAT', 'DE123456789', true], ['de', 'DE:LWID', '04011000-1234512345-06', true],
    ['de', 'DE:LWID', 'ABC', false], ['sg', 'SG:UEN', '200212345Z', true], ['sg', 'SG:UEN', '12345', false], ['sg', 'SG:UEN', 'T08LL1234A', true],
  ] as const)('given %s identifier %s %s, when onboarding, then valid is %s', (area, scheme, id, ok) => {
    const body = { registered_name: 'Acme', identifiers: [{ scheme, id }], country: area.toUpperCase() };
    if (ok) expect(parseOnboarding(profiles[area], body).identifiers).toHaveLength(1);
    else expect(issuesOf(() => parseOnboarding(profiles[area], body)).length).toBeGreaterThan(0);
  });
  it('given SG onboarding without a UEN, when parsed, then SG:UEN is required', () => {
    const body = { registered_name: 'Acme', identifiers: [{ scheme: 'SG:GST', id: 'M2-1234567-K' }], country: 'SG' };
    expect(codes(issuesOf(() => parseOnboarding(profiles.sg, body)))).toEqual(['identifiers FIELD.REQUIRED']);
  });
  it.each([
    ['BE:VAT', 'BE0123456749', '9925', 'BE0123456749', 'iso6523-actorid-upis::9925:be0123456749'],
    ['BE:KBO', '0123.456.749', '0208', '0123456749', 'iso6523-actorid-upis::0208:0123456749'],
    ['DE:VAT', 'DE123456789', '9930', 'DE123456789', 'iso6523-actorid-upis::9930:de123456789'],
    ['DE:LWID', '04011000-1234512345-06', '0204', '04011000-1234512345-06', 'iso6523-actorid-upis::0204:04011000-1234512345-06'],
    ['SG:UEN', '200212345Z', '0195', 'SGUEN200212345Z', 'iso6523-actorid-upis::0195:sguen200212345z'],
  ])('given %s %s, when mapped, then ICD %s and participant id', (scheme, id, icd, value, participant) => {
    expect(peppolEndpointFor(scheme, id)).toEqual({ schemeId: icd, value });
    expect(participantIdFor(scheme, id)).toBe(participant);
  });
});

describe('rendering', () => {
  it('given names with markup characters, when rendered, then they are escaped', () => {
    const dto = parseInvoice(profiles.de, beInvoice({ CustomerParty: customers.de, InvoiceLines: [line('Bolts & <nuts>', 100, 1, 'standard', 19, 'DE')], TotalIncludingVat: 119,
      PaymentMeans: { Code: '58', AccountID: 'DE89370400440532013000' } }));
    const xml = renderDocument(profiles.de, dto, suppliers.de, 'u');
    expect(xml).toContain('Bolts &amp; &lt;nuts&gt;');
    expect(xml).toContain('Münchner Käufer &amp; Söhne &lt;KG&gt;');
    expect(xml).toContain('<cbc:EndpointID schemeID="9930">DE123456789</cbc:EndpointID>');
  });
});

describe('the pipeline\'s codecs of BE/DE/SG (registry entries, seed 002 shapes)', () => {
  const { documents, exchange, onboarding } = peppolDefinitions.be;
  const view = (over: Partial<ReportedDocumentView>): ReportedDocumentView => ({
    documentId: 'd-1', documentNumber: 'INV-2026-0001', documentType: '380', state: 'scheduled', ruleSetId: 'peppol-bis-3:billing:2026.5', authority: null, error: null,
    fields: { ID: 'INV-2026-0001', DocumentType: '380' }, sha256: null, peppol: { deliveryStatus: 'Scheduled' }, createdAt: '', updatedAt: '', ...over,
  });

  it('given a body, when parsed, then the number, the type and the DTO itself as the fields (no copy: issue 11)', () => {
    const parsed = documents!.parse(beInvoice(), suppliers.be);
    expect(parsed).toMatchObject({ number: 'INV-2026-0001', type: '380' });
    expect(parsed.fields).toMatchObject({ ID: 'INV-2026-0001', DocumentCurrencyCode: 'EUR', BuyerReference: 'INV-2026-0001' });
    expect(parsed.payload).toBeUndefined();
  });

  it('given a supplier whose identifiers do not allow a standard line, when parsed with it, then BR-S-02', () => {
    const supplier = { ...suppliers.be, identifiers: [{ scheme: 'BE:KBO', id: '0123456749' }] };
    expect(codes(issuesOf(() => documents!.parse(beInvoice(), supplier)))).toEqual(['supplier.identifiers BR-S-02']);
  });

  it('answers a submission 202 with DocumentID and DeliveryStatus Scheduled', () => {
    expect(documents!.respond!({ documentId: 'd-1', number: 'INV-2026-0001' })).toEqual({ statusCode: 202, body: { status: 'success', data: { DocumentID: 'd-1', DeliveryStatus: 'Scheduled' } } });
  });

  it('shows get-document as uuid plus the fields, and delivery-status as DocumentID and DeliveryStatus', () => {
    expect(documents!.present!(view({}), 'get-document')).toEqual({ status: 'success', data: { uuid: 'd-1', ID: 'INV-2026-0001', DocumentType: '380' } });
    expect(documents!.present!(view({ peppol: { deliveryStatus: 'Delivered' } }), 'delivery-status')).toEqual({ status: 'success', data: { DocumentID: 'd-1', DeliveryStatus: 'Delivered' } });
  });

  it('adds DeliveryFailure to both reads of a failed delivery (#8)', () => {
    const failed = view({ peppol: { deliveryStatus: 'Failed', failure: { code: 'PEPPOL.RECEIVER_NOT_FOUND', message: 'No access point.' } } });
    const DeliveryFailure = { code: 'PEPPOL.RECEIVER_NOT_FOUND', message: 'No access point.' };
    expect(documents!.present!(failed, 'delivery-status')).toEqual({ status: 'success', data: { DocumentID: 'd-1', DeliveryStatus: 'Failed', DeliveryFailure } });
    expect(documents!.present!(failed, 'get-document')).toMatchObject({ data: { uuid: 'd-1', DeliveryFailure } });
  });

  it('makes the supplier a participant by each onboarded identifier', () => {
    const profile = onboarding!.parse({ registered_name: 'Acme', identifiers: [{ scheme: 'BE:VAT', id: 'BE0123456749' }, { scheme: 'BE:KBO', id: '0123456749' }], country: 'BE' });
    expect(exchange!.participantIds(profile)).toEqual(['iso6523-actorid-upis::9925:be0123456749', 'iso6523-actorid-upis::0208:0123456749']);
  });

  it('sends a document as its UBL to the participant of the buyer\'s first identifier', () => {
    const parsed = documents!.parse(beInvoice(), suppliers.be);
    const { xml, receiverParticipantId } = exchange!.envelope(parsed, suppliers.be, '2523149b-cb40-4b32-9004-debca57b80ee');
    const buyer = customers.be.Identifiers[0];
    expect(receiverParticipantId).toBe(participantIdFor(buyer.Scheme, buyer.ID));
    expect(xml).toBe(renderDocument(profiles.be, parsed.fields as never, suppliers.be, '2523149b-cb40-4b32-9004-debca57b80ee'));
  });
});
