import { type SupplierProfile, issue, validationError } from '@einvoice/domain';
import { parseKeepingSealed, reviseByOnboarding } from './revise';

/** An area's onboarding as small as one can be: a name, a tax id, and one detail of its own. */
const parse = (body: unknown): SupplierProfile => {
  const b = body as { name?: unknown; tax_id?: unknown; branches?: number[] };
  if (typeof b.name !== 'string' || !b.name) throw validationError([issue('name', 'FIELD.REQUIRED', 'name is required.')]);
  return { registeredName: b.name, identifiers: [{ scheme: 'T:TAX', id: String(b.tax_id) }], country: 'TY', areaDetails: { branches: b.branches ?? [] } };
};
const revise = reviseByOnboarding({
  fields: ['name', 'branches'],
  bodyOf: (p) => ({ name: p.registeredName, tax_id: p.identifiers[0].id, branches: p.areaDetails?.branches }),
  parse,
});

describe('#47 reviseByOnboarding: a change read again by the area\'s onboarding parse', () => {
  const onboarded: SupplierProfile = { ...parse({ name: 'Acme', tax_id: 'T1', branches: [1] }), areaDetails: { branches: [1], toldByAuthority: 'x' } };

  it('given a change, then the parsed profile, with what the area keeps beyond the body and the identifiers as onboarded', () => {
    const revised = revise.apply(onboarded, { branches: [1, 2], name: 'Acme Ltd' });
    expect(revised).toEqual({ registeredName: 'Acme Ltd', identifiers: [{ scheme: 'T:TAX', id: 'T1' }], country: 'TY', areaDetails: { branches: [1, 2], toldByAuthority: 'x' } });
  });

  it('given null for a required field, then the parse\'s own error at it', () => {
    expect(() => revise.apply(onboarded, { name: null })).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ path: 'name', code: 'FIELD.REQUIRED' })] }));
  });
});

describe('#47 parseKeepingSealed: a change to a supplier whose onboarding body requires credentials it seals', () => {
  /** An onboarding that requires a secret and, as every area's, reads none into the profile. */
  const parseWithSecret = (body: unknown): SupplierProfile => {
    const b = body as { secret?: unknown };
    if (typeof b.secret !== 'string' || !b.secret) throw validationError([issue('secret', 'FIELD.REQUIRED', 'secret is required.')]);
    return parse(body);
  };
  const sealedRevise = reviseByOnboarding({
    fields: ['name'],
    bodyOf: (p) => ({ name: p.registeredName, tax_id: p.identifiers[0].id, branches: p.areaDetails?.branches }),
    parse: parseKeepingSealed(parseWithSecret, ['secret']),
  });

  it('given a change without the credential, then it is read by the onboarding\'s parse, and no stand-in reaches the profile', () => {
    const revised = sealedRevise.apply(parse({ name: 'Acme', tax_id: 'T1', branches: [1] }), { name: 'Acme Ltd' });
    expect(revised).toEqual({ registeredName: 'Acme Ltd', identifiers: [{ scheme: 'T:TAX', id: 'T1' }], country: 'TY', areaDetails: { branches: [1] } });
    expect(JSON.stringify(revised)).not.toContain('sealed-at-onboarding');
  });
});
