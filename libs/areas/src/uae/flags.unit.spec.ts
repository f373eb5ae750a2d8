import { transactionTypeCode, transactionTypePositions } from './flags';
import type { UaeDocument } from './document';

const none: UaeDocument['flags'] = { is_ftz: false, is_deemed: false, is_margin: false, is_summary: false, is_continuous: false,
  is_dab: false, is_ecommerce: false, is_export: false, is_selfbilled: false };

describe('transactionTypeCode (BTAE-02, cbc:ProfileExecutionID)', () => {
  it('given no flag raised, when coded, then 00000000 (seed "Flags")', () => {
    expect(transactionTypeCode(none)).toBe('00000000');
  });

  it('given only is_ftz, when coded, then 10000000 (seed "Flags")', () => {
    expect(transactionTypeCode({ ...none, is_ftz: true })).toBe('10000000');
  });

  it.each([
    ['is_deemed', '01000000'], ['is_margin', '00100000'], ['is_summary', '00010000'], ['is_continuous', '00001000'], ['is_dab', '00000100'],
    // Issue 10: the PINT AE Schematron wins, 7 is e-commerce (ibr-142-ae) and 8 export (ibr-135-ae, ibr-152-ae).
    ['is_ecommerce', '00000010'], ['is_export', '00000001'],
  ] as const)('given only %s, when coded, then %s', (flag, code) => {
    expect(transactionTypeCode({ ...none, [flag]: true })).toBe(code);
  });

  it('given is_selfbilled, when coded, then no position changes (self-billing is told by the type code)', () => {
    expect(transactionTypeCode({ ...none, is_selfbilled: true, is_export: true })).toBe('00000001');
    expect(transactionTypePositions).not.toContain('is_selfbilled');
  });

  it('given every positional flag, when coded, then 11111111 (ibr-154-ae: eight 0/1 characters)', () => {
    const all = Object.fromEntries(Object.keys(none).map((k) => [k, true])) as UaeDocument['flags'];
    expect(transactionTypeCode(all)).toMatch(/^1{8}$/);
  });
});
