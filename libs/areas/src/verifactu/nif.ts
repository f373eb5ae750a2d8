/**
 * Spanish tax identifiers (NIF) with their control character, as the AEAT checks them: DNI
 * (8 digits + letter), NIE (X/Y/Z + 7 digits + letter), the K/L/M personal NIFs (letter + 7 digits
 * + letter) and legal entities' NIF, formerly CIF (letter + 7 digits + control digit or letter).
 */

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const ENTITY_LETTERS = 'ABCDEFGHJNPQRSUVW';
const ENTITY_CONTROL_LETTERS = 'JABCDEFGHI';
/** Entity kinds whose control is always a letter (public bodies, non-resident entities...) or always a digit. */
const CONTROL_IS_LETTER = 'NPQRSW';
const CONTROL_IS_DIGIT = 'ABEH';

/** The identifier upper-cased without spaces or dashes, as the AEAT writes it. */
export function normalizeNif(value: string): string {
  return value.toUpperCase().replace(/[\s-]/g, '');
}

/** True when `value` (normalized) is a NIF whose control character is right. */
export function isValidNif(value: string): boolean {
  const nif = normalizeNif(value);
  if (/^\d{8}[A-Z]$/.test(nif)) return DNI_LETTERS[Number(nif.slice(0, 8)) % 23] === nif[8];
  if (/^[XYZ]\d{7}[A-Z]$/.test(nif)) return DNI_LETTERS[Number(`${'XYZ'.indexOf(nif[0])}${nif.slice(1, 8)}`) % 23] === nif[8];
  if (/^[KLM]\d{7}[A-Z]$/.test(nif)) return DNI_LETTERS[Number(nif.slice(1, 8)) % 23] === nif[8];
  if (new RegExp(`^[${ENTITY_LETTERS}]\\d{7}[0-9A-J]$`).test(nif)) return entityControlMatches(nif);
  return false;
}

function entityControlMatches(nif: string): boolean {
  const digits = nif.slice(1, 8).split('').map(Number);
  let total = 0;
  digits.forEach((digit, index) => {
    // Positions 1, 3, 5, 7 (index even): doubled, its digits summed; 2, 4, 6: as they are.
    if (index % 2 === 0) {
      const doubled = digit * 2;
      total += Math.floor(doubled / 10) + (doubled % 10);
    } else {
      total += digit;
    }
  });
  const control = (10 - (total % 10)) % 10;
  const given = nif[8];
  const asLetter = ENTITY_CONTROL_LETTERS[control];
  if (CONTROL_IS_LETTER.includes(nif[0])) return given === asLetter;
  if (CONTROL_IS_DIGIT.includes(nif[0])) return given === String(control);
  return given === String(control) || given === asLetter;
}
