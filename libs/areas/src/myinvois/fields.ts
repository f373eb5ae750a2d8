/**
 * Decorator bundles the MyInvois seed needs beyond shared/fields.ts: exact lengths, E.164,
 * IssueTime in its two written forms, string lists and decimal values given as string or number.
 * Constraints are `matches` or `isString` so validate.ts maps them to FIELD.* codes.
 */
import { IsArray, IsDefined, IsOptional, IsString, Matches, registerDecorator, ValidationOptions } from 'class-validator';

function compose(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((d) => d(target, key));
}

function presence(optional: boolean): PropertyDecorator {
  return optional ? IsOptional() : IsDefined({ message: 'is required' });
}

/** A string of exactly `n` characters (msic_code 5, state 2, country 3, CountrySubentityCode 2...). */
export function Exact(n: number, opts: { optional?: boolean } = {}): PropertyDecorator {
  return compose(presence(!!opts.optional), IsString({ message: 'must be a string' }),
    Matches(new RegExp(`^.{${n}}$`, 'u'), { message: `must be exactly ${n} characters` }));
}

/** E.164 telephone number, at most 20 characters (seed: onboarding `contact_number`). */
export function E164(): PropertyDecorator {
  return compose(presence(false), IsString({ message: 'must be a string' }),
    Matches(/^\+[1-9]\d{1,14}$/, { message: 'must be an E.164 number such as +60123456789 (at most 20 characters)' }));
}

/** `HH:MM:ssZ` or `HH-MM-ssZ` (seed: written `HH-MM-ssZ`, samples `HH:MM:ssZ`); one separator throughout. */
export const issueTimePattern = /^([01]\d|2[0-3])([:-])([0-5]\d)\2([0-5]\d)Z$/;

/** A UTC time of day in either accepted form; normalised to `HH:MM:ssZ` by {@link normaliseTime}. */
export function UtcTime(opts: { optional?: boolean } = {}): PropertyDecorator {
  return compose(presence(!!opts.optional), IsString({ message: 'must be a string' }),
    Matches(issueTimePattern, { message: 'must be a UTC time written HH:MM:ssZ or HH-MM-ssZ' }));
}

/** `10-30-00Z` → `10:30:00Z`; a time already with colons is returned unchanged. */
export function normaliseTime(time: string): string {
  const m = issueTimePattern.exec(time);
  return m ? `${m[1]}:${m[3]}:${m[4]}Z` : time;
}

/** An array of strings; its size and each element's length are business rules (rules.ts) so issues name the index. */
export function StringList(opts: { optional?: boolean } = {}): PropertyDecorator {
  return compose(presence(!!opts.optional), IsArray({ message: 'must be an array' }),
    IsString({ each: true, message: 'must be an array of strings' }));
}

/** True for a JSON number or a plain decimal string (`"4.72"`), as the seed types `TaxExchangeRate` a string. */
export function isDecimalValue(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'string' && /^\d{1,12}(\.\d{1,15})?$/.test(value);
}

function IsDecimalValue(options?: ValidationOptions): PropertyDecorator {
  // Named `matches` so validate.ts reports FIELD.INVALID_FORMAT with the field path.
  return (target, propertyName) => registerDecorator({
    name: 'matches', target: target.constructor, propertyName: propertyName as string, options,
    // The pattern of the string form, for the OpenAPI schema (class-validator-jsonschema reads it).
    constraints: [/^\d{1,12}(\.\d{1,15})?$/],
    validator: { validate: isDecimalValue },
  });
}

/** A decimal given as a string (`"4.72"`) or a number. */
export function DecimalValue(opts: { optional?: boolean } = {}): PropertyDecorator {
  return compose(presence(!!opts.optional), IsDecimalValue({ message: 'must be a decimal number such as 4.72' }));
}
