/** Seed 000 field tables: limits, enums, types and the two IssueTime forms. */
import { myInvoisArea as my } from './area';
import { customer, invoiceBody, line, onboardingBody, sst } from './fixtures/bodies';
import { codes, issuesOf } from './fixtures/issues';

const onboardingIssues = (over: Record<string, unknown>) => codes(issuesOf(() => my.parseOnboarding(onboardingBody(over))));
const documentIssues = (over: Record<string, unknown>) => codes(issuesOf(() => my.parseDocument('invoice', invoiceBody(over))));
const withIds = (ids: Record<string, unknown>) => ({ other_ids: { brn: '202001234567', ...ids } });

describe('onboarding body', () => {
  it('given the seed fields, when parsed, then supplier and credentials are split', () => {
    const { supplier, credentials } = my.parseOnboarding(onboardingBody());
    expect(supplier).toMatchObject({ tin: 'C25845632020', msicCode: '47111', state: '14', country: 'MYS', otherIds: { brn: '202001234567' } });
    expect(credentials).toEqual({ clientId: 'client-id', clientSecret: 'client-secret' });
    expect(JSON.stringify(supplier)).not.toContain('client-secret');
  });
  it.each([
    ['registered_name', { registered_name: 'x'.repeat(301) }, { registered_name: 'x'.repeat(300) }, 'registered_name FIELD.TOO_LONG'],
    ['tin_number', { tin_number: 'C123456789012345' }, { tin_number: 'C1234567890123' }, 'tin_number FIELD.TOO_LONG'],
    ['other_ids.sst', withIds({ sst: `${'W10-1808-32000001;'.repeat(2)}` }), withIds({ sst: 'W10-1808-32000001;W10-1808-32000002' }), 'other_ids.sst FIELD.TOO_LONG'],
    ['other_ids.brn', withIds({ brn: 'x'.repeat(21) }), withIds({ brn: 'x'.repeat(20) }), 'other_ids.brn FIELD.TOO_LONG'],
    ['other_ids.nric', withIds({ nric: '1'.repeat(13) }), withIds({ nric: '1'.repeat(12) }), 'other_ids.nric FIELD.TOO_LONG'],
    ['other_ids.passport', withIds({ passport: 'x'.repeat(13) }), withIds({ passport: 'x'.repeat(12) }), 'other_ids.passport FIELD.TOO_LONG'],
    ['other_ids.army', withIds({ army: 'x'.repeat(13) }), withIds({ army: 'x'.repeat(12) }), 'other_ids.army FIELD.TOO_LONG'],
    ['other_ids.ttx', withIds({ ttx: 'x'.repeat(18) }), withIds({ ttx: 'x'.repeat(17) }), 'other_ids.ttx FIELD.TOO_LONG'],
    ['msic_code', { msic_code: '4711' }, { msic_code: '00000' }, 'msic_code FIELD.INVALID_FORMAT'],
    ['industry', { industry: 'x'.repeat(301) }, { industry: 'x'.repeat(300) }, 'industry FIELD.TOO_LONG'],
    ['city', { city: 'x'.repeat(51) }, { city: 'x'.repeat(50) }, 'city FIELD.TOO_LONG'],
    ['street', { street: 'x'.repeat(151) }, { street: 'NA' }, 'street FIELD.TOO_LONG'],
    ['state', { state: '1' }, { state: '17' }, 'state FIELD.INVALID_FORMAT'],
    ['country', { country: 'MY' }, { country: 'MYS' }, 'country FIELD.INVALID_FORMAT'],
    ['contact_number', { contact_number: '0123456789' }, { contact_number: '+60123456789' }, 'contact_number FIELD.INVALID_FORMAT'],
    ['client_id', { client_id: undefined }, { client_id: 'abc' }, 'client_id FIELD.REQUIRED'],
    ['client_secret', { client_secret: 42 }, { client_secret: 'abc' }, 'client_secret FIELD.INVALID_TYPE'],
    ['other_ids', { other_ids: undefined }, { other_ids: { brn: '1' } }, 'other_ids FIELD.REQUIRED'],
  ])('given %s out of bounds, when parsed, then it is refused; at the bound it passes', (_f, bad, good, expected) => {
    expect(onboardingIssues(bad)).toContain(expected);
    expect(() => my.parseOnboarding(onboardingBody(good))).not.toThrow();
  });
});

describe('TIN validation body', () => {
  it.each(['BRN', 'NRIC', 'PASSPORT', 'ARMY'])('given id_type %s, when parsed, then it is accepted', (t) => {
    expect(my.parseTinValidation({ tin_number: 'IG21136626090', id_type: t, id_value: '770625015324' }).id_type).toBe(t);
  });
  it('given an id_type outside the enum, when parsed, then INVALID_VALUE', () => {
    expect(codes(issuesOf(() => my.parseTinValidation({ tin_number: 'C1', id_type: 'SSN', id_value: '1' })))).toContain('id_type FIELD.INVALID_VALUE');
  });
  it('given a missing id_value and a malformed TIN, when parsed, then both are reported', () => {
    expect(codes(issuesOf(() => my.parseTinValidation({ tin_number: 'X', id_type: 'BRN' })))).toEqual(['id_value FIELD.REQUIRED']);
    expect(codes(issuesOf(() => my.parseTinValidation({ tin_number: 'X99', id_type: 'BRN', id_value: '1' })))).toEqual(['tin_number MYINVOIS.TIN_FORMAT']);
  });
  it('given an NRIC that is not 12 digits, when parsed, then INVALID_FORMAT', () => {
    expect(codes(issuesOf(() => my.parseTinValidation({ tin_number: 'IG1', id_type: 'NRIC', id_value: '77062501532' })))).toEqual(['id_value FIELD.INVALID_FORMAT']);
  });
});

describe('invoice-type document', () => {
  it('given the minimal body, when parsed, then defaults are applied', () => {
    const { body } = my.parseDocument('invoice', invoiceBody());
    expect(body.DocumentCurrencyCode).toBe('MYR');
    expect(body.InvoiceLines[0].UOM).toBe('C62');
  });
  it.each([['10:30:00Z', '10:30:00Z'], ['10-30-00Z', '10:30:00Z'], ['23-59-59Z', '23:59:59Z']])('given IssueTime %s, when parsed, then it is %s', (given, expected) => {
    expect(my.parseDocument('invoice', invoiceBody({ IssueTime: given })).body.IssueTime).toBe(expected);
  });
  it.each(['10:30:00', '10:30-00Z', '24:00:00Z', '10.30.00Z', '2026-03-15T10:30:00Z'])('given IssueTime %s, when parsed, then INVALID_FORMAT', (t) => {
    expect(documentIssues({ IssueTime: t })).toContain('IssueTime FIELD.INVALID_FORMAT');
  });
  const cust = (over: Record<string, unknown>) => ({ CustomerParty: { ...customer, ...over } });
  const l0 = (over: Record<string, unknown>) => ({ InvoiceLines: [line('x', 1, 1, [sst()], over)] });
  it.each([
    ['ID', { ID: 'x'.repeat(51) }, { ID: 'x'.repeat(50) }, 'ID FIELD.TOO_LONG'],
    ['IssueDate', { IssueDate: '2026-02-30' }, { IssueDate: '2026-02-28' }, 'IssueDate FIELD.INVALID_FORMAT'],
    ['InvoiceTypeCode', { InvoiceTypeCode: '05' }, { InvoiceTypeCode: '01' }, 'InvoiceTypeCode FIELD.INVALID_VALUE'],
    ['InvoiceTotal', { InvoiceTotal: '106' }, { InvoiceTotal: 106 }, 'InvoiceTotal FIELD.INVALID_TYPE'],
    ['DocumentCurrencyCode', { DocumentCurrencyCode: 'ringgit' }, { DocumentCurrencyCode: 'MYR' }, 'DocumentCurrencyCode FIELD.INVALID_FORMAT'],
    ['TaxExchangeRate', { DocumentCurrencyCode: 'USD', TaxExchangeRate: '4,72' }, { DocumentCurrencyCode: 'USD', TaxExchangeRate: '4.72' }, 'TaxExchangeRate FIELD.INVALID_FORMAT'],
    ['CustomsImportForm', { CustomsImportForm: 'x'.repeat(20) }, { CustomsImportForm: 'E'.repeat(19) }, 'CustomsImportForm FIELD.TOO_LONG'],
    ['Incoterms', { Incoterms: 'CIFX' }, { Incoterms: 'CIF' }, 'Incoterms FIELD.TOO_LONG'],
    ['InvoiceLines', { InvoiceLines: [] }, {}, 'InvoiceLines FIELD.TOO_FEW'],
    ['LegalName', cust({ LegalName: 'x'.repeat(301) }), cust({ LegalName: 'x'.repeat(300) }), 'CustomerParty.LegalName FIELD.TOO_LONG'],
    ['CustomerTIN', cust({ CustomerTIN: 'C12345678901234' }), cust({ CustomerTIN: 'C1234567890123' }), 'CustomerParty.CustomerTIN FIELD.TOO_LONG'],
    ['CustomerSST', cust({ CustomerSST: 'x'.repeat(36) }), cust({ CustomerSST: 'NA' }), 'CustomerParty.CustomerSST FIELD.TOO_LONG'],
    ['CityName', cust({ CityName: 'x'.repeat(301) }), cust({ CityName: 'x'.repeat(300) }), 'CustomerParty.CityName FIELD.TOO_LONG'],
    ['CountrySubentityCode', cust({ CountrySubentityCode: '100' }), cust({ CountrySubentityCode: '17' }), 'CustomerParty.CountrySubentityCode FIELD.INVALID_FORMAT'],
    ['CountryCode', cust({ CountryCode: 'MY' }), cust({ CountryCode: 'SGP' }), 'CustomerParty.CountryCode FIELD.INVALID_FORMAT'],
    ['Telephone', cust({ Telephone: '1'.repeat(21) }), cust({ Telephone: '1'.repeat(20) }), 'CustomerParty.Telephone FIELD.TOO_LONG'],
    ['Email', cust({ Email: 'x'.repeat(301) }), cust({ Email: 'a@b.my' }), 'CustomerParty.Email FIELD.TOO_LONG'],
    ['AddressLines type', cust({ AddressLines: 'Jalan 1' }), cust({ AddressLines: ['Jalan 1'] }), 'CustomerParty.AddressLines FIELD.INVALID_TYPE'],
    ['Description', l0({ Description: 'x'.repeat(301) }), l0({ Description: 'x'.repeat(300) }), 'InvoiceLines[0].Description FIELD.TOO_LONG'],
    ['InvoicedQuantity', l0({ InvoicedQuantity: '1' }), l0({ InvoicedQuantity: 1.5 }), 'InvoiceLines[0].InvoicedQuantity FIELD.INVALID_TYPE'],
    ['LineTaxes', l0({ LineTaxes: [] }), l0({}), 'InvoiceLines[0].LineTaxes FIELD.TOO_FEW'],
    ['TaxType', l0({ LineTaxes: [{ TaxType: '07', TaxRate: 0.1 }] }), l0({ LineTaxes: [{ TaxType: '05', TaxRate: 0.1 }] }), 'InvoiceLines[0].LineTaxes[0].TaxType FIELD.INVALID_VALUE'],
    ['TaxExemptionReason', l0({ LineTaxes: [{ TaxType: 'E', TaxExemptionReason: 'x'.repeat(301) }] }), l0({ LineTaxes: [{ TaxType: 'E', TaxExemptionReason: 'x'.repeat(300) }] }), 'InvoiceLines[0].LineTaxes[0].TaxExemptionReason FIELD.TOO_LONG'],
  ])('given %s out of bounds, when parsed, then it is refused; within bounds it passes', (_f, bad, good, expected) => {
    expect(documentIssues(bad)).toContain(expected);
    expect(() => my.parseDocument('invoice', invoiceBody(good))).not.toThrow();
  });
  it('given DeliveryDetails with an empty ShipmentCharges, when parsed, then at least one element is required', () => {
    const d = { RecipientName: 'R', RecipientTIN: 'C1', RecipientBRN: '1', CityName: 'KL', AddressLines: ['a'], CountrySubentityCode: '14', CountryCode: 'MYS' };
    expect(documentIssues({ DeliveryDetails: { ...d, ShipmentCharges: [] } })).toContain('DeliveryDetails.ShipmentCharges FIELD.TOO_FEW');
    expect(() => my.parseDocument('invoice', invoiceBody({ DeliveryDetails: { ...d, ShipmentID: 'x'.repeat(50), ShipmentCharges: [{ Amount: 5 }] } }))).not.toThrow();
    expect(documentIssues({ DeliveryDetails: { ...d, ShipmentID: 'x'.repeat(51) } })).toContain('DeliveryDetails.ShipmentID FIELD.TOO_LONG');
  });
});
