import { peppolDefinitions } from './definitions';

const sgRevise = peppolDefinitions.sg.onboarding!.revise!;
const sgProfile = peppolDefinitions.sg.onboarding!.parse({
  registered_name: 'Lion City Traders Pte Ltd', identifiers: [{ scheme: 'SG:UEN', id: '201912345K' }], city: 'Singapore', postal_code: '048616', country: 'SG',
});

describe('#47 a Singapore supplier\'s change, checked by the PINT SG onboarding rules', () => {
  it('given an SG supplier without a street, when the street is sent, then the profile has it and keeps the rest', () => {
    expect(sgRevise.apply(sgProfile, { street: '1 Raffles Place' })).toEqual({ ...sgProfile, street: '1 Raffles Place' });
  });

  it('given a change against the onboarding rules, then the onboarding\'s errors at the fields sent', () => {
    expect(() => sgRevise.apply(sgProfile, { country: 'Singapore', registered_name: 'x'.repeat(301) })).toThrow(
      expect.objectContaining({ issues: expect.arrayContaining([expect.objectContaining({ path: 'country' }), expect.objectContaining({ path: 'registered_name' })]) }),
    );
  });

  it('given null for an optional field, then it is removed; for a required one, then FIELD.REQUIRED', () => {
    expect(sgRevise.apply(sgProfile, { city: null }).city).toBeUndefined();
    expect(() => sgRevise.apply(sgProfile, { country: null })).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ path: 'country', code: 'FIELD.REQUIRED' })] }));
  });

  it('lets every onboarding field change but the identifiers', () => {
    expect(sgRevise.fields).not.toContain('identifiers');
    expect(sgRevise.fields).toEqual(expect.arrayContaining(['registered_name', 'street', 'postal_code', 'contact_email']));
  });
});
