/** Every business rule of rules.ts, each with a failing and a passing case. */
import { myInvoisArea as my } from './area';
import { customer, foreignCustomer, generalPublic, invoiceBody, line, onboardingBody, seller, sst, supplier } from './fixtures/bodies';
import { codes, issuesOf } from './fixtures/issues';
import type { DocumentKind } from './schema-document';

const ok = (over: Record<string, unknown>, kind: DocumentKind = 'invoice') => expect(() => my.parseDocument(kind, invoiceBody(over), supplier)).not.toThrow();
const fails = (over: Record<string, unknown>, kind: DocumentKind = 'invoice') => codes(issuesOf(() => my.parseDocument(kind, invoiceBody(over), supplier)));
const taxes = (...LineTaxes: Record<string, unknown>[]) => ({ InvoiceLines: [line('Item', 1, 100, LineTaxes)] });
const ref = [{ UUID: 'F9D425P6DS7D8IU', InternalID: 'INV-2026-0001' }];

describe('onboarding other_ids (TIN type decides)', () => {
  const onb = (over: Record<string, unknown>) => codes(issuesOf(() => my.parseOnboarding(onboardingBody(over))));
  it('given a business TIN without brn, when onboarded, then other_ids.brn is required', () => {
    expect(onb({ other_ids: { sst: 'NA' } })).toEqual(['other_ids.brn MYINVOIS.ID_REQUIRED']);
  });
  it('given a non-Malaysian individual without passport, when onboarded, then other_ids.passport is required; with it, accepted', () => {
    expect(onb({ tin_number: 'IG21136626090', country: 'SGP', state: '17', other_ids: { nric: '770625015324' } })).toEqual(['other_ids.passport MYINVOIS.ID_REQUIRED']);
    expect(my.parseOnboarding(onboardingBody({ tin_number: 'IG21136626090', country: 'SGP', state: '17', other_ids: { passport: 'K1234567' } })).supplier.otherIds.passport).toBe('K1234567');
  });
  it('given a Malaysian individual without nric or army, when onboarded, then other_ids.nric is required; with army, accepted', () => {
    expect(onb({ tin_number: 'IG21136626090', other_ids: {} })).toEqual(['other_ids.nric MYINVOIS.ID_REQUIRED']);
    expect(() => my.parseOnboarding(onboardingBody({ tin_number: 'IG21136626090', other_ids: { army: 'T3012345' } }))).not.toThrow();
  });
  it.each(['X12345', 'C', 'IGABC', 'c2584563202'])('given TIN %s, when onboarded, then MYINVOIS.TIN_FORMAT', (tin) => {
    expect(onb({ tin_number: tin })).toContain('tin_number MYINVOIS.TIN_FORMAT');
  });
  it.each(['C2584563202', 'IG21136626090', 'CS1234567890', 'D1234567890', 'LE1234567890', 'TN12345678'])('given TIN %s, when onboarded, then accepted', (tin) => {
    const ids = tin.startsWith('IG') ? { nric: '770625015324' } : { brn: '1' };
    expect(() => my.parseOnboarding(onboardingBody({ tin_number: tin, other_ids: ids }))).not.toThrow();
  });
  it('given a malformed sst, when onboarded, then MYINVOIS.SST_FORMAT; NA and two numbers pass', () => {
    expect(onb({ other_ids: { brn: '1', sst: 'SST123' } })).toEqual(['other_ids.sst MYINVOIS.SST_FORMAT']);
    expect(() => my.parseOnboarding(onboardingBody({ other_ids: { brn: '1', sst: 'NA' } }))).not.toThrow();
    expect(() => my.parseOnboarding(onboardingBody({ other_ids: { brn: '1', sst: 'W10-1808-32000001;J31-1808-22000009' } }))).not.toThrow();
  });
  it('given state 18 and country XYZ, when onboarded, then state and country codes are refused', () => {
    expect(onb({ state: '18', country: 'XYZ' })).toEqual(['state MYINVOIS.STATE_CODE', 'country MYINVOIS.COUNTRY_CODE']);
  });
});

describe('document header rules', () => {
  it('given a foreign currency without TaxExchangeRate, when parsed, then it is required; with it, accepted', () => {
    expect(fails({ DocumentCurrencyCode: 'USD' })).toEqual(['TaxExchangeRate MYINVOIS.EXCHANGE_RATE_REQUIRED']);
    ok({ DocumentCurrencyCode: 'USD', TaxExchangeRate: 4.72 });
    ok({ DocumentCurrencyCode: 'USD', TaxExchangeRate: '4.72' });
  });
  it('given a zero exchange rate or an unknown currency, when parsed, then both are refused', () => {
    expect(fails({ DocumentCurrencyCode: 'XYZ', TaxExchangeRate: 0 })).toEqual(['DocumentCurrencyCode MYINVOIS.CURRENCY_CODE', 'TaxExchangeRate FIELD.INVALID_VALUE']);
  });
  it.each(['02', '03', '04'])('given type %s without InvoiceDocumentReference, when parsed, then it is required; with it, accepted', (t) => {
    expect(fails({ InvoiceTypeCode: t })).toEqual(['InvoiceDocumentReference MYINVOIS.DOCUMENT_REFERENCE_REQUIRED']);
    expect(fails({ InvoiceTypeCode: t, InvoiceDocumentReference: [] })).toEqual(['InvoiceDocumentReference MYINVOIS.DOCUMENT_REFERENCE_REQUIRED']);
    ok({ InvoiceTypeCode: t, InvoiceDocumentReference: ref });
  });
  it('given a document reference without UUID or InternalID, when parsed, then each is required', () => {
    expect(fails({ InvoiceTypeCode: '02', InvoiceDocumentReference: [{ UUID: 'U' }, { InternalID: 'I' }] }))
      .toEqual(['InvoiceDocumentReference[0].InternalID FIELD.REQUIRED', 'InvoiceDocumentReference[1].UUID FIELD.REQUIRED']);
  });
  it.each([['CustomsImportForm', 'E123-456'], ['Incoterms', 'C&F']])('given %s with special characters, when parsed, then refused', (field, value) => {
    expect(fails({ [field]: value })).toEqual([`${field} MYINVOIS.SPECIAL_CHARACTERS`]);
  });
  it('given alphanumeric CustomsImportForm and Incoterms, when parsed, then accepted', () => ok({ CustomsImportForm: 'E12345678912', Incoterms: 'CIF' }));
  it('given negative document discounts, charges and prepayments, when parsed, then each is refused', () => {
    expect(fails({ Discounts: [{ Amount: -1 }], Charges: [{ Amount: -2 }], Prepayments: [{ Amount: -3 }] }))
      .toEqual(['Discounts[0].Amount MYINVOIS.NEGATIVE_AMOUNT', 'Charges[0].Amount MYINVOIS.NEGATIVE_AMOUNT', 'Prepayments[0].Amount MYINVOIS.NEGATIVE_AMOUNT']);
  });
});

describe('party rules', () => {
  const { CustomerBRN: _brn, ...noIds } = customer;
  it('given a customer without any of BRN/NRIC/Passport/ArmyID, when parsed, then exactly one is required', () => {
    expect(fails({ CustomerParty: noIds })).toEqual(['CustomerParty.CustomerBRN MYINVOIS.ONE_ID_REQUIRED']);
  });
  it('given a customer with two ids, when parsed, then the second is named', () => {
    expect(fails({ CustomerParty: { ...customer, CustomerNRIC: '770625015324' } })).toEqual(['CustomerParty.CustomerNRIC MYINVOIS.ONE_ID_REQUIRED']);
  });
  it.each(['CustomerNRIC', 'CustomerPassport', 'CustomerArmyID'])('given only %s, when parsed, then accepted', (k) => ok({ CustomerParty: { ...noIds, [k]: '770625015324' } }));
  it('given a foreign buyer with EI00000000020 and state 17, when parsed, then accepted', () => ok({ CustomerParty: foreignCustomer }));
  it('given a customer TIN of the wrong shape, when parsed, then MYINVOIS.TIN_FORMAT', () => {
    expect(fails({ CustomerParty: { ...customer, CustomerTIN: '12345' } })).toEqual(['CustomerParty.CustomerTIN MYINVOIS.TIN_FORMAT']);
  });
  it.each([[[]], [['a', 'b', 'c', 'd']]])('given AddressLines %j, when parsed, then 1..3 lines are required', (lines) => {
    expect(fails({ CustomerParty: { ...customer, AddressLines: lines } })).toEqual(['CustomerParty.AddressLines MYINVOIS.ADDRESS_LINES']);
  });
  it('given an empty address line, when parsed, then its index is named; three lines pass', () => {
    expect(fails({ CustomerParty: { ...customer, AddressLines: ['a', ' '] } })).toEqual(['CustomerParty.AddressLines[1] MYINVOIS.ADDRESS_LINES']);
    ok({ CustomerParty: { ...customer, AddressLines: ['a', 'b', 'c'] } });
  });
  it('given state 00 and country ZZZ, when parsed, then the codes are refused', () => {
    expect(fails({ CustomerParty: { ...customer, CountrySubentityCode: '00', CountryCode: 'ZZZ' } }))
      .toEqual(['CustomerParty.CountrySubentityCode MYINVOIS.STATE_CODE', 'CustomerParty.CountryCode MYINVOIS.COUNTRY_CODE']);
  });
  const recipient = { RecipientName: 'Gudang', RecipientTIN: 'C20880050010', CityName: 'Klang', AddressLines: ['Jalan 88'], CountrySubentityCode: '10', CountryCode: 'MYS' };
  it('given a delivery recipient without an id, when parsed, then one of the Recipient ids is required; with one, accepted', () => {
    expect(fails({ DeliveryDetails: recipient })).toEqual(['DeliveryDetails.RecipientBRN MYINVOIS.ONE_ID_REQUIRED']);
    ok({ DeliveryDetails: { ...recipient, RecipientBRN: '1' } });
  });
  it('given two Recipient ids, when parsed, then refused', () => {
    expect(fails({ DeliveryDetails: { ...recipient, RecipientBRN: '1', RecipientArmyID: '2' } })).toEqual(['DeliveryDetails.RecipientArmyID MYINVOIS.ONE_ID_REQUIRED']);
  });
});

describe('line rules', () => {
  it('given TaxType E without a reason, when parsed, then TaxExemptionReason is required; with it, accepted', () => {
    expect(fails(taxes({ TaxType: 'E' }))).toEqual(['InvoiceLines[0].LineTaxes[0].TaxExemptionReason MYINVOIS.EXEMPTION_REASON_REQUIRED']);
    ok(taxes({ TaxType: 'E', TaxExemptionReason: 'Exempt under Sales Tax (Exemption) Order 2018' }));
  });
  it('given TaxRate together with TaxBaseUnit and TaxPerUnit, when parsed, then refused at TaxPerUnit', () => {
    expect(fails(taxes({ TaxType: '02', TaxRate: 0.06, TaxBaseUnit: 2, TaxPerUnit: 10 }))).toEqual(['InvoiceLines[0].LineTaxes[0].TaxPerUnit MYINVOIS.TAX_RATE_OR_PER_UNIT']);
  });
  it('given TaxBaseUnit without TaxPerUnit (and the reverse), when parsed, then the missing one is named', () => {
    expect(fails(taxes({ TaxType: '03', TaxBaseUnit: 2 }))).toEqual(['InvoiceLines[0].LineTaxes[0].TaxPerUnit MYINVOIS.TAX_RATE_OR_PER_UNIT']);
    expect(fails(taxes({ TaxType: '03', TaxPerUnit: 10 }))).toEqual(['InvoiceLines[0].LineTaxes[0].TaxBaseUnit MYINVOIS.TAX_RATE_OR_PER_UNIT']);
  });
  it('given neither form for sales tax, when parsed, then TaxRate is required; 06 needs none', () => {
    expect(fails(taxes({ TaxType: '01' }))).toEqual(['InvoiceLines[0].LineTaxes[0].TaxRate MYINVOIS.TAX_RATE_OR_PER_UNIT']);
    ok(taxes({ TaxType: '06' }));
  });
  it('given the per-unit form alone, when parsed, then accepted', () => ok(taxes({ TaxType: '03', TaxBaseUnit: 2, TaxPerUnit: 10 })));
  it('given TaxRate 6 (a percentage), when parsed, then refused as not a fraction', () => {
    expect(fails(taxes({ TaxType: '02', TaxRate: 6 }))).toEqual(['InvoiceLines[0].LineTaxes[0].TaxRate MYINVOIS.TAX_RATE_FRACTION']);
  });
  it('given the error on the third line second tax, when parsed, then the full path names it', () => {
    const lines = [line('a', 1, 1, [sst()]), line('b', 1, 1, [sst()]), line('c', 1, 1, [sst(), { TaxType: '03', TaxRate: 0.1, TaxPerUnit: 10 }])];
    expect(fails({ InvoiceLines: lines })).toEqual(['InvoiceLines[2].LineTaxes[1].TaxPerUnit MYINVOIS.TAX_RATE_OR_PER_UNIT']);
  });
  it.each([[['22']], [['0222']], [['02-']]])('given ClassificationCode %j, when parsed, then exactly 3 characters are required', (cc) => {
    expect(fails({ InvoiceLines: [line('a', 1, 1, [sst()], { ClassificationCode: cc })] })).toEqual(['InvoiceLines[0].ClassificationCode[0] MYINVOIS.CLASSIFICATION_CODE']);
  });
  it('given no ClassificationCode entries, when parsed, then one is required; two valid pass', () => {
    expect(fails({ InvoiceLines: [line('a', 1, 1, [sst()], { ClassificationCode: [] })] })).toEqual(['InvoiceLines[0].ClassificationCode MYINVOIS.CLASSIFICATION_CODE']);
    ok({ InvoiceLines: [line('a', 1, 1, [sst()], { ClassificationCode: ['022', '004'] })] });
  });
  it('given a negative price, a zero quantity and a bad unit, when parsed, then each is refused', () => {
    expect(fails({ InvoiceLines: [line('a', 0, -1, [sst()], { UOM: 'kg' })] }))
      .toEqual(['InvoiceLines[0].PriceAmount MYINVOIS.NEGATIVE_AMOUNT', 'InvoiceLines[0].InvoicedQuantity FIELD.INVALID_VALUE', 'InvoiceLines[0].UOM FIELD.INVALID_FORMAT']);
  });
});

describe('consolidated documents', () => {
  const lines = { InvoiceLines: [line('Receipts 0001-0150', 1, 1500, [sst(0.06)])] };
  it('given the general public with no ids, when parsed as consolidated, then accepted', () => ok({ CustomerParty: generalPublic, ...lines }, 'consolidated'));
  it('given CustomerTIN NA, when parsed and rendered, then the general-public TIN is rendered', () => {
    const doc = my.parseDocument('consolidated', invoiceBody({ CustomerParty: { ...generalPublic, CustomerTIN: 'NA' }, ...lines }), supplier);
    expect(my.render(doc, supplier).xml).toContain('<cbc:ID schemeID="TIN">EI00000000010</cbc:ID>');
  });
  it('given a named buyer TIN, when parsed as consolidated, then the general-public TIN is required', () => {
    expect(fails({ CustomerParty: customer, ...lines }, 'consolidated')).toEqual(['CustomerParty.CustomerTIN MYINVOIS.GENERAL_PUBLIC_TIN']);
  });
  it('given DeliveryDetails, when parsed as consolidated, then refused', () => {
    expect(fails({ CustomerParty: generalPublic, DeliveryDetails: {}, ...lines }, 'consolidated')).toEqual(['DeliveryDetails MYINVOIS.NOT_ALLOWED']);
  });
  it('given the same general public body as a single invoice, when parsed, then an id is required', () => {
    expect(fails({ CustomerParty: generalPublic, ...lines })).toEqual(['CustomerParty.CustomerBRN MYINVOIS.ONE_ID_REQUIRED']);
  });
});

describe('self-billed documents', () => {
  const sb = (over: Record<string, unknown> = {}) => { const { CustomerParty: _c, ...rest } = invoiceBody(over); return { SupplierParty: seller, ...rest, InvoiceLines: [line('Oil palm fruit', 1000, 0.8, [{ TaxType: '06' }])], ...over }; };
  it('given a SupplierParty, when parsed as self-billed, then accepted', () => {
    expect(my.parseDocument('self-billed', sb(), supplier).kind).toBe('self-billed');
  });
  it('given a CustomerParty as well, when parsed as self-billed, then refused', () => {
    expect(codes(issuesOf(() => my.parseDocument('self-billed', { ...sb(), CustomerParty: customer }, supplier)))).toEqual(['CustomerParty MYINVOIS.NOT_ALLOWED']);
  });
  it('given a seller without an id, when parsed, then exactly one Supplier id is required', () => {
    const { SupplierNRIC: _n, ...noId } = seller;
    expect(codes(issuesOf(() => my.parseDocument('self-billed', sb({ SupplierParty: noId }), supplier)))).toEqual(['SupplierParty.SupplierBRN MYINVOIS.ONE_ID_REQUIRED']);
  });
  it('given service tax charged by a seller without SST, when parsed with the supplier, then SupplierParty.SupplierSST is required', () => {
    expect(codes(issuesOf(() => my.parseDocument('self-billed', sb({ InvoiceLines: [line('x', 1, 1, [sst()])] }), supplier)))).toEqual(['SupplierParty.SupplierSST MYINVOIS.SST_REQUIRED']);
  });
});

describe('rules that need the onboarded supplier', () => {
  const noSst = { ...supplier, otherIds: { brn: '1' } };
  it('given sales tax charged by a supplier without SST, when parsed with it, then the SST number is required; without the supplier, not checked', () => {
    expect(codes(issuesOf(() => my.parseDocument('invoice', invoiceBody(taxes({ TaxType: '01', TaxRate: 0.1 })), noSst)))).toEqual(['supplier.other_ids.sst MYINVOIS.SST_REQUIRED']);
    expect(() => my.parseDocument('invoice', invoiceBody(taxes({ TaxType: '01', TaxRate: 0.1 })))).not.toThrow();
  });
  it('given tourism tax charged by a supplier without TTX, when parsed, then the TTX number is required', () => {
    expect(codes(issuesOf(() => my.parseDocument('invoice', invoiceBody(taxes({ TaxType: '03', TaxBaseUnit: 1, TaxPerUnit: 10 })), noSst)))).toEqual(['supplier.other_ids.ttx MYINVOIS.TTX_REQUIRED']);
  });
  it('given exempt lines only, when parsed with a supplier without SST, then accepted', () => {
    expect(() => my.parseDocument('invoice', invoiceBody(taxes({ TaxType: 'E', TaxExemptionReason: 'Exempt' })), noSst)).not.toThrow();
  });
});
