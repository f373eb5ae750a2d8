import { checkCustomerIdentifiers, checkSupplierIdentifiers } from './identifiers';

describe('#9 identifier messages say what is wrong', () => {
  it('given a BE number of the right shape with wrong check digits, then the message says so, not "must be BE followed by 10 digits"', () => {
    const [onboarding] = checkSupplierIdentifiers([{ scheme: 'BE:VAT', id: 'BE0123456748' }], ['BE:VAT'], ['BE:VAT']);
    expect(onboarding).toMatchObject({ path: 'identifiers[0].id', code: 'FIELD.INVALID_FORMAT' });
    expect(onboarding.message).toContain('wrong check digits');
    const [customer] = checkCustomerIdentifiers([{ Scheme: 'BE:KBO', ID: '0123456748' }], 'CustomerParty.Identifiers');
    expect(customer.message).toContain('wrong check digits');
  });

  it('given a malformed BE number, then the message gives the format', () => {
    const [bad] = checkSupplierIdentifiers([{ scheme: 'BE:VAT', id: 'BE12' }], ['BE:VAT'], ['BE:VAT']);
    expect(bad.message).toBe('identifiers[0].id must be BE followed by 10 digits, e.g. BE0123456749');
  });
});
