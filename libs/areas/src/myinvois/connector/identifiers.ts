/**
 * MyInvois identifier formats: TINs and the ids that go with Validate Taxpayer's TIN, and the
 * ids the authority assigns (submission uid, document uuid, long id). Sources: SDK FAQ "How to
 * retrieve and validate the accuracy of my TIN?" and "01 validate taxpayer tin" (examples
 * C25845632020, BRN 201901234567, NRIC 770625015324, passport A12345678).
 */
import { randomBytes } from 'node:crypto';
import { TinIdType } from './connector';

/** Non-individual TIN prefixes listed in the SDK FAQ. */
export const NON_INDIVIDUAL_TIN_PREFIXES = ['C', 'CS', 'D', 'E', 'F', 'FA', 'PT', 'TA', 'TC', 'TN', 'TR', 'TP', 'J', 'LE'] as const;

/** General TINs for consolidated/foreign parties (notes: EI00000000010 general public, ...020 foreign buyer). */
export const GENERAL_TINS = ['EI00000000010', 'EI00000000020', 'EI00000000030', 'EI00000000040'] as const;

export type TinKind = 'individual' | 'non-individual' | 'general';
export type TinFormatCheck = { readonly ok: true; readonly kind: TinKind } | { readonly ok: false; readonly reason: string };

const MAX_TIN_LENGTH = 14;
// Longest prefix first so that `CS` is not read as `C` + `S...`.
const NON_INDIVIDUAL = new RegExp(`^(${[...NON_INDIVIDUAL_TIN_PREFIXES].sort((a, b) => b.length - a.length).join('|')})(\\d+)$`);

/**
 * Checks a TIN against the published format: individual `IG` + digits; non-individual prefix +
 * digits with no leading zero after the prefix and always ending in 0; at most 14 characters.
 * Digit counts (8–12) are an assumption from the published examples.
 */
export function checkTinFormat(tin: string): TinFormatCheck {
  if ((GENERAL_TINS as readonly string[]).includes(tin)) return { ok: true, kind: 'general' };
  if (tin.length > MAX_TIN_LENGTH) return { ok: false, reason: `A TIN has at most ${MAX_TIN_LENGTH} characters.` };
  const individual = /^IG(\d+)$/.exec(tin);
  if (individual) {
    const digits = individual[1];
    if (digits.length < 8 || digits.length > 12) return { ok: false, reason: 'An individual TIN is IG followed by 8 to 12 digits.' };
    return { ok: true, kind: 'individual' };
  }
  if (/^(OG|SG)\d+$/.test(tin)) return { ok: false, reason: 'Individual TINs now start with IG (replacing OG/SG).' };
  const other = NON_INDIVIDUAL.exec(tin);
  if (!other) return { ok: false, reason: 'A TIN starts with IG or a non-individual prefix (C, CS, D, E, F, FA, PT, TA, TC, TN, TR, TP, J, LE) followed by digits.' };
  const digits = other[2];
  if (digits.startsWith('0')) return { ok: false, reason: 'Remove the leading zeros after the prefix (C01234567890 is C1234567890).' };
  if (!digits.endsWith('0')) return { ok: false, reason: 'A non-individual TIN always ends with 0.' };
  if (digits.length < 8 || digits.length > 12) return { ok: false, reason: 'A non-individual TIN has 8 to 12 digits after the prefix.' };
  return { ok: true, kind: 'non-individual' };
}

/** Format of the id that goes with a TIN; seed limits: NRIC/passport/army at most 12 chars. */
export function checkIdValue(idType: TinIdType, idValue: string): boolean {
  switch (idType) {
    case 'BRN':
      // New-format business registration number: 12 digits, starting with the year (201901234567).
      return /^(19|20)\d{10}$/.test(idValue);
    case 'NRIC':
      // YYMMDD + place-of-birth code + 4 digits, no dashes (770625015324).
      return /^\d{12}$/.test(idValue);
    case 'PASSPORT':
      return /^[A-Z0-9]{5,12}$/i.test(idValue);
    case 'ARMY':
      return /^[A-Z0-9]{3,12}$/i.test(idValue);
    default: {
      const _exhaustive: never = idType;
      return _exhaustive;
    }
  }
}

export const TIN_ID_TYPES: readonly TinIdType[] = ['NRIC', 'PASSPORT', 'BRN', 'ARMY'];

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** `length` characters of `alphabet` from `random` bytes (injected for deterministic tests). */
export function randomId(length: number, alphabet: string = CROCKFORD, random: (n: number) => Uint8Array = randomBytes): string {
  const bytes = random(length);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[bytes[i] % alphabet.length];
  return out;
}

/** Submission uid and document uuid: 26 upper-case Crockford base32 characters (assumed from observed values). */
export function authorityUid(random?: (n: number) => Uint8Array): string {
  return randomId(26, CROCKFORD, random);
}

/** Long id of a valid document (used in the public validation link): 40+ alphanumerics (assumed). */
export function authorityLongId(random?: (n: number) => Uint8Array): string {
  return randomId(44, ALPHANUMERIC, random);
}
