import { isValidNif, normalizeNif } from './nif';

describe('Spanish NIF control characters', () => {
  it.each([
    ['89890001K', 'DNI (the AEAT test taxpayer)'],
    ['12345678Z', 'DNI'],
    ['00000000T', 'DNI'],
    ['X1234567L', 'NIE X'],
    ['Y1234567X', 'NIE Y'],
    ['Z1234567R', 'NIE Z'],
    ['K1234567L', 'K NIF'],
    ['B00000000', 'company, control digit'],
    ['A58818501', 'company, control digit'],
    ['Q2826000H', 'public body, control letter'],
    ['S2800000H', 'public body, control letter'],
    ['G12345674', 'association, control digit'],
    ['G1234567D', 'association, control letter'],
  ])('%s (%s) is valid', (nif) => {
    expect(isValidNif(nif)).toBe(true);
  });

  it.each([
    ['89890001A', 'DNI, wrong letter'],
    ['X1234567A', 'NIE, wrong letter'],
    ['B00000001', 'company, wrong digit'],
    ['A5881850A', 'a company whose control is a digit, given as a letter'],
    ['Q28260008', 'a public body whose control is a letter, given as a digit'],
    ['I1234567A', 'no such entity letter'],
    ['1234567Z', 'seven digits'],
    ['', 'empty'],
  ])('%s (%s) is refused', (nif) => {
    expect(isValidNif(nif)).toBe(false);
  });

  it('reads lower case, spaces and dashes as the AEAT writes the identifier', () => {
    expect(normalizeNif(' b-0000000 0')).toBe('B00000000');
    expect(isValidNif('x-1234567-l')).toBe(true);
  });
});
