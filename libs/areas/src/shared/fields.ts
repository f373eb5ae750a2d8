/**
 * Decorator bundles for request DTOs. Each bundle fixes the message of its constraints so that
 * `validateBody` can prefix the field path ("Description must be at most 300 characters")
 * and map constraint names to stable issue codes (see `codeFor` in validate.ts).
 */
import { Type } from 'class-transformer';
import {
  ArrayMinSize, IsArray, IsDefined, IsIn, IsISO31661Alpha2, IsNumber, IsObject, IsOptional, IsString, MAX_LENGTH, Matches,
  ValidateBy, ValidateNested, maxLength, registerDecorator, ValidationOptions,
} from 'class-validator';

type Bundle = PropertyDecorator;

/** The decorators of one field as one. */
export function compose(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((d) => d(target, key));
}

/** Optional, or required (`FIELD.REQUIRED`; `message` may say what to send, after the path). */
export function presence(optional: boolean, message = 'is required'): PropertyDecorator {
  return optional ? IsOptional() : IsDefined({ message });
}

/** A string of at most `max` characters. */
export function Text(max: number, opts: { optional?: boolean } = {}): Bundle {
  return compose(presence(!!opts.optional), IsString({ message: 'must be a string' }),
    MaxLengthOf(max, { message: `must be at most ${max} characters` }));
}

/**
 * class-validator's MaxLength (same name, constraint, message and verdict), answered without its two
 * regular-expression scans where they cannot change it: validator.js's isLength counts a string's UTF-16
 * units less its variation selectors and surrogate pairs, never more than `length`, so a string no longer
 * than `max` units passes as it is. The scans ran for every text field of every request (issue 11: the
 * largest part of the gateway's validation, itself 11.6% of its main thread under the end-to-end load).
 */
function MaxLengthOf(max: number, options: ValidationOptions): PropertyDecorator {
  return ValidateBy({
    name: MAX_LENGTH,
    constraints: [max],
    validator: { validate: (value: unknown) => typeof value === 'string' && (value.length <= max || maxLength(value, max)) },
  }, options);
}

/** A finite JSON number; strings such as `"12"` are refused, never coerced. */
export function Num(opts: { optional?: boolean } = {}): Bundle {
  return compose(presence(!!opts.optional),
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a number' }));
}

/** One of a closed list of strings. */
export function OneOf(values: readonly string[], opts: { optional?: boolean } = {}): Bundle {
  return compose(presence(!!opts.optional), IsString({ message: 'must be a string' }),
    IsIn([...values], { message: `must be one of: ${values.join(', ')}` }));
}

/** ISO 3166-1 alpha-2 country code, upper case as UBL's code list writes it (BT-40, BT-55). */
export function Country(opts: { optional?: boolean } = {}): Bundle {
  const message = 'must be an ISO 3166-1 alpha-2 country code such as BE';
  return compose(presence(!!opts.optional), IsString({ message: 'must be a string' }),
    Matches(/^[A-Z]{2}$/, { message }), IsISO31661Alpha2({ message }));
}

/** ISO 4217 shaped currency code; whether the code exists is a business rule. */
export function CurrencyCode(opts: { optional?: boolean } = {}): Bundle {
  return compose(presence(!!opts.optional), IsString({ message: 'must be a string' }),
    Matches(/^[A-Z]{3}$/, { message: 'must be three upper-case letters (ISO 4217) such as EUR' }));
}

/** True for `YYYY-MM-DD` naming a real calendar day (no 2024-02-30). */
export function isCalendarDate(value: unknown): boolean {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function IsCalendarDate(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) => registerDecorator({
    name: 'isCalendarDate', target: target.constructor, propertyName: propertyName as string, options,
    validator: { validate: isCalendarDate },
  });
}

/**
 * No element of the array is itself an array: ValidateNested reports a string or number element at
 * its index, but walks into an array element and finds nothing wrong in `[[]]`.
 */
export function NoArrayElements(): PropertyDecorator {
  return (target, propertyName) => registerDecorator({
    name: 'noArrayElements', target: target.constructor, propertyName: propertyName as string,
    validator: {
      validate: (value: unknown) => !Array.isArray(value) || !value.some(Array.isArray),
      defaultMessage: (args) => `must contain objects, not arrays (element ${(args?.value as unknown[]).findIndex(Array.isArray)} is an array)`,
    },
  });
}

/** A date written `YYYY-MM-DD` (BT-2, BT-9). */
export function DateText(opts: { optional?: boolean } = {}): Bundle {
  return compose(presence(!!opts.optional), IsString({ message: 'must be a string' }),
    IsCalendarDate({ message: 'must be a real date written YYYY-MM-DD' }));
}

/** A time of day written `HH-MM-ss` (Jordan's and Nigeria's seeds) or `HH:MM:ss`; `timeOfDay` writes it `HH:MM:SS`. */
export function TimeText(opts: { optional?: boolean } = {}): Bundle {
  return compose(presence(!!opts.optional), IsString({ message: 'must be a string' }),
    Matches(/^([01]\d|2[0-3])[-:][0-5]\d[-:][0-5]\d$/, { message: 'must be a time written HH-MM-ss or HH:MM:ss' }));
}

export const timeOfDay = (text: string) => text.replace(/-/g, ':');

/** A nested object of class `cls`. */
export function Nested(cls: () => new () => object, opts: { optional?: boolean } = {}): Bundle {
  return compose(presence(!!opts.optional), IsObject({ message: 'must be an object' }),
    ValidateNested({ message: 'must be an object' }), Type(cls));
}

/** An array of objects of class `cls`, with at least `min` elements. */
export function NestedList(cls: () => new () => object, opts: { min?: number; optional?: boolean } = {}): Bundle {
  const min = opts.min ?? 0;
  return compose(presence(!!opts.optional), IsArray({ message: 'must be an array' }),
    ArrayMinSize(min, { message: `must contain at least ${min} element${min === 1 ? '' : 's'}` }),
    NoArrayElements(), ValidateNested({ each: true, message: 'must be an object' }), Type(cls));
}
