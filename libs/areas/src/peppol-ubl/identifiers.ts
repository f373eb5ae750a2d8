/**
 * Party identifier schemes of the area and their Peppol form: ISO 6523 ICD / EAS code for
 * cbc:EndpointID (BT-34, BT-49) and the SMP participant id `iso6523-actorid-upis::<icd>:<value>`.
 */
import { FieldIssue, issue } from '@einvoice/domain';
import { participantSchemeCodes, vatSchemeCodes } from '../peppol-participants/participant-schemes';
import { isValidNip, normalizeNip } from '../shared/nip';

/** One identifier scheme clients may send. */
export interface IdentifierScheme {
  readonly scheme: string;
  /** ISO 6523 ICD / EAS code used as EndpointID@schemeID. */
  readonly icd: string;
  /** Human description of the expected format, for messages. */
  readonly format: string;
  /** A VAT/GST registration number (BT-31, BT-48). */
  readonly vat: boolean;
  /** A legal registration number (BT-30 PartyLegalEntity/CompanyID). */
  readonly legal: boolean;
  /** Canonical form (spaces and dots removed, upper case). */
  normalize(id: string): string;
  /** Format check of the canonical form (check digits included). */
  valid(id: string): boolean;
  /** For schemes with check digits: true when the canonical form has the right shape but wrong check digits. */
  wrongCheckDigits?(id: string): boolean;
  /** EndpointID value for the canonical form. */
  endpoint(id: string): string;
}

/** Belgian enterprise number check (PEPPOL-COMMON-R043): last two digits = 97 − (first eight mod 97). */
export function validKbo(digits: string): boolean {
  if (!/^[01]\d{9}$/.test(digits)) return false;
  return 97 - (Number(digits.slice(0, 8)) % 97) === Number(digits.slice(8));
}

const compact = (id: string) => id.replace(/[\s.]/g, '').toUpperCase();

const scheme = (s: Omit<IdentifierScheme, 'normalize' | 'endpoint'> & Partial<IdentifierScheme>): IdentifierScheme => ({
  normalize: compact, endpoint: (id) => id, ...s,
});

/** Every scheme of the three areas, keyed by name. */
export const identifierSchemes: Readonly<Record<string, IdentifierScheme>> = {
  // BE VAT = "BE" + the 10-digit enterprise number (0 or 1 first), same check digits.
  'BE:VAT': scheme({ scheme: 'BE:VAT', icd: '9925', format: 'BE followed by 10 digits, e.g. BE0123456749', vat: true, legal: false,
    valid: (id) => /^BE[01]\d{9}$/.test(id) && validKbo(id.slice(2)),
    wrongCheckDigits: (id) => /^BE[01]\d{9}$/.test(id) && !validKbo(id.slice(2)) }),
  'BE:KBO': scheme({ scheme: 'BE:KBO', icd: '0208', format: '10 digits (enterprise number), e.g. 0123456749', vat: false, legal: true,
    normalize: (id) => compact(id).replace(/^BE/, ''), valid: validKbo, wrongCheckDigits: (id) => /^[01]\d{9}$/.test(id) && !validKbo(id) }),
  'DE:VAT': scheme({ scheme: 'DE:VAT', icd: '9930', format: 'DE followed by 9 digits, e.g. DE123456789', vat: true, legal: false,
    valid: (id) => /^DE\d{9}$/.test(id) }),
  // Leitweg-ID: coarse address (2–12 digits), optional fine address, 2 check digits.
  'DE:LWID': scheme({ scheme: 'DE:LWID', icd: '0204', format: 'a Leitweg-ID such as 04011000-1234512345-06', vat: false, legal: false,
    valid: (id) => /^\d{2,12}(-[A-Z0-9]{1,30})?-\d{2}$/.test(id) }),
  // UEN: business 8 digits + letter, local company 9 digits + letter, others T/S/R + yy + 2 letters + 4 digits + letter.
  'SG:UEN': scheme({ scheme: 'SG:UEN', icd: '0195', format: 'a UEN of 9 or 10 characters, e.g. 200212345Z', vat: false, legal: true,
    valid: (id) => /^(\d{8}[A-Z]|\d{9}[A-Z]|[TSR]\d{2}[A-Z]{2}\d{4}[A-Z])$/.test(id),
    // PINT SG examples address participants as 0195:SGUEN<uen>.
    endpoint: (id) => `SGUEN${id}` }),
  // Polish NIP as a VAT number: EAS 9945 (Poland VAT number), written with its PL prefix (BR-CO-09).
  'PL:NIP': scheme({ scheme: 'PL:NIP', icd: '9945', format: 'a NIP of 10 digits, e.g. 5265877635', vat: true, legal: false,
    normalize: (id) => `PL${normalizeNip(id)}`, valid: (id) => /^PL\d{10}$/.test(id) && isValidNip(id) }),
  // GST registration number: the UEN, or the older M2-1234567-K form. Optional, never an endpoint.
  'SG:GST': scheme({ scheme: 'SG:GST', icd: '0195', format: 'a UEN or a number like M2-1234567-K', vat: true, legal: false,
    normalize: (id) => id.replace(/\s/g, '').toUpperCase(),
    valid: (id) => /^(\d{8}[A-Z]|\d{9}[A-Z]|[TSR]\d{2}[A-Z]{2}\d{4}[A-Z]|M[0-9A-Z]-?\d{7}-?[A-Z])$/.test(id),
    endpoint: (id) => `SGUEN${id}` }),
};

// The EAS / participant scheme code lists are data of the participant area (one list, shared).
const vatIcds = vatSchemeCodes;
const easCodes = participantSchemeCodes;

/** A customer identifier resolved to its Peppol form. */
export interface ResolvedIdentifier {
  readonly icd: string;
  readonly value: string;
  readonly vat: boolean;
  readonly legal: boolean;
}

/** Resolves `{scheme, id}` (area scheme or raw 4-digit EAS code), or undefined if unknown/invalid. */
export function resolveIdentifier(schemeName: string, id: string): ResolvedIdentifier | undefined {
  const known = identifierSchemes[schemeName];
  if (known) {
    const value = known.normalize(id);
    return known.valid(value) ? { icd: known.icd, value: known.endpoint(value), vat: known.vat, legal: known.legal } : undefined;
  }
  if (easCodes.has(schemeName) && id.trim() !== '') {
    return { icd: schemeName, value: id.trim(), vat: vatIcds.has(schemeName), legal: false };
  }
  return undefined;
}

/** The cbc:EndpointID (BT-34/BT-49) for an identifier. @throws RangeError if the identifier is invalid. */
export function peppolEndpointFor(schemeName: string, id: string): { schemeId: string; value: string } {
  const resolved = resolveIdentifier(schemeName, id);
  if (!resolved) throw new RangeError(`Not a valid ${schemeName} identifier: ${id}`);
  return { schemeId: resolved.icd, value: resolved.value };
}

/**
 * The Peppol participant id for the SML/SMP. Values are lower-cased: the
 * `iso6523-actorid-upis` scheme is case-insensitive and Peppol directories store it so.
 */
export function participantIdFor(schemeName: string, id: string): string {
  const { schemeId, value } = peppolEndpointFor(schemeName, id);
  return `iso6523-actorid-upis::${schemeId}:${value.toLowerCase()}`;
}

/** What is wrong with an identifier: its check digits when only they are wrong, else its format. */
function formatProblem(known: IdentifierScheme | undefined, id: string): string {
  if (!known) return 'must be non-empty';
  const canonical = known.normalize(id);
  if (known.wrongCheckDigits?.(canonical)) {
    return `has the right format but wrong check digits (the last two must be 97 minus the first eight modulo 97): ${canonical}`;
  }
  return `must be ${known.format}`;
}

/** Issues for a customer's `Identifiers[]` (any area scheme or raw EAS code). */
export function checkCustomerIdentifiers(ids: readonly { Scheme: string; ID: string }[], base: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  ids.forEach((ident, i) => {
    const known = identifierSchemes[ident.Scheme];
    if (!known && !easCodes.has(ident.Scheme)) {
      issues.push(issue(`${base}[${i}].Scheme`, 'FIELD.INVALID_VALUE',
        `${base}[${i}].Scheme must be one of ${Object.keys(identifierSchemes).join(', ')} or an ISO 6523 EAS code such as 0088`));
    } else if (!resolveIdentifier(ident.Scheme, ident.ID)) {
      issues.push(issue(`${base}[${i}].ID`, 'FIELD.INVALID_FORMAT', `${base}[${i}].ID ${formatProblem(known, ident.ID)}`));
    }
  });
  return issues;
}

/**
 * Issues for an onboarding `identifiers[]`: each scheme must belong to the area and be well
 * formed, and one of the area's required schemes must be present (seed: BE:VAT or BE:KBO...).
 */
export function checkSupplierIdentifiers(
  ids: readonly { scheme: string; id: string }[], allowed: readonly string[], required: readonly string[],
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  ids.forEach((ident, i) => {
    const known = identifierSchemes[ident.scheme];
    if (!known || !allowed.includes(ident.scheme)) {
      issues.push(issue(`identifiers[${i}].scheme`, 'FIELD.INVALID_VALUE', `identifiers[${i}].scheme must be one of: ${allowed.join(', ')}`));
    } else if (!known.valid(known.normalize(ident.id))) {
      issues.push(issue(`identifiers[${i}].id`, 'FIELD.INVALID_FORMAT', `identifiers[${i}].id ${formatProblem(known, ident.id)}`));
    }
  });
  if (!ids.some((ident) => required.includes(ident.scheme))) {
    issues.push(issue('identifiers', 'FIELD.REQUIRED', `identifiers must include one of: ${required.join(', ')}`));
  }
  const seen = new Set<string>();
  ids.forEach((ident, i) => {
    if (seen.has(ident.scheme)) issues.push(issue(`identifiers[${i}].scheme`, 'FIELD.INVALID_VALUE', `identifiers[${i}].scheme ${ident.scheme} is given twice`));
    seen.add(ident.scheme);
  });
  return issues;
}
