/**
 * The field kinds of the UAE document (seed 001 "Resources and their fields"), as decorator bundles
 * for class-validator like every area's (shared/fields.ts): `validateBody`'s codes (FIELD.REQUIRED,
 * FIELD.INVALID_TYPE, FIELD.INVALID_VALUE, FIELD.INVALID_FORMAT...) and `path message` sentences.
 * PINT AE sets no length on free text, so no kind here has one. Dates, currencies, closed lists and
 * nested blocks are shared/fields.ts's `DateText`, `CurrencyCode`, `OneOf`, `Nested`, `NestedList`.
 */
import { IsBoolean, IsString, Matches, ValidateBy } from 'class-validator';
import { compose, presence } from '../shared/fields';
import { ImpreciseNumber } from '../shared/validate';

interface Presence {
  readonly optional?: boolean;
}

const isText = () => IsString({ message: 'must be a string' });

/** A plain decimal written in JSON as a string: `"1200.00"`, `"-5"`, `"0.125"` (no exponent, no thousands separator). */
export const decimalPattern = /^-?\d+(\.\d+)?$/;

/** Text of any length. */
export function FreeText(opts: Presence = {}): PropertyDecorator {
  return compose(presence(!!opts.optional), isText());
}

/** `true` or `false`. */
export function Flag(opts: Presence = {}): PropertyDecorator {
  return compose(presence(!!opts.optional), IsBoolean({ message: 'must be true or false' }));
}

/** An amount: a decimal string (seed: "Amounts are decimal strings", a bare number is a type error). */
export function Amount(opts: Presence = {}): PropertyDecorator {
  return compose(presence(!!opts.optional), isText(), Matches(decimalPattern, { message: 'must be a decimal string such as "1200.00"' }));
}

/** The decimal text of a value `Decimal` accepts: a bare number as JS writes it, an imprecise one as it was sent. */
export function decimalText(value: string | number | ImpreciseNumber): string {
  return value instanceof ImpreciseNumber ? value.text : String(value);
}

/**
 * A number that may come as a decimal string or a bare JSON number (the seed's one example sends
 * `invoice_totals.payable_amount` bare; quantities and rates are taken the same way). parseUaeDocument
 * turns it into its decimal string; a number the gateway's parser could not hold exactly keeps its text.
 */
export function Decimal(opts: Presence = {}): PropertyDecorator {
  return compose(
    presence(!!opts.optional),
    ValidateBy({
      name: 'isStringOrNumber',
      validator: { validate: (v: unknown) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || v instanceof ImpreciseNumber },
    }, { message: 'must be a decimal string or a number' }),
    ValidateBy({
      name: 'isDecimal',
      validator: { validate: (v: unknown) => (typeof v === 'string' || typeof v === 'number' || v instanceof ImpreciseNumber) && decimalPattern.test(decimalText(v)) },
    }, { message: 'must be a plain decimal such as 12.5' }),
  );
}

/** Not empty once trimmed: an element whose only content is an empty text is not written at all. */
function IsNotBlank(message: string): PropertyDecorator {
  return ValidateBy({ name: 'isNotBlank', validator: { validate: (v: unknown) => typeof v === 'string' && v.trim() !== '' } }, { message });
}

/**
 * An identifier rendered as a cbc:ID the UBL 2.1 XSD requires (the document's, a line's, a
 * reference's): an empty text writes no element, so it must say something (#44).
 */
export function Identifier(opts: Presence = {}): PropertyDecorator {
  return compose(presence(!!opts.optional), isText(), IsNotBlank('must not be empty: the UBL element it fills is mandatory'));
}

/**
 * A text the element of its block requires once the block is sent (UBL 2.1 XSD, or the seed), with
 * what to send; missing or empty alike (an empty text writes no element).
 */
export function RequiredInBlock(block: string, hint: string): PropertyDecorator {
  const message = `is required once ${block} is sent: ${hint}`;
  return compose(presence(false, message), isText(), IsNotBlank(message));
}

/** A time `hh:mm:ss`, optional fractions and zone (ibr-119, BT-168). */
export function TimeOfDay(opts: Presence = {}): PropertyDecorator {
  return compose(presence(!!opts.optional), isText(), Matches(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/, {
    message: 'must be a time written hh:mm:ss with an optional zone such as +04:00',
  }));
}

/**
 * An ISO 3166-1 alpha-2 shaped country code. Unlike shared/fields.ts `Country`, whether it exists is
 * left to the rule phase (ibr-cl-14), which answers it with the official rule id.
 */
export function CountryCode(opts: Presence = {}): PropertyDecorator {
  return compose(presence(!!opts.optional), isText(), Matches(/^[A-Z]{2}$/, { message: 'must be two upper-case letters (ISO 3166-1 alpha-2) such as AE' }));
}

/** A Peppol participant id `<scheme>:<identifier>`: the receiver's routes the document. */
export function PeppolId(required: string): PropertyDecorator {
  return compose(presence(false, `is required: ${required}, written <scheme>:<identifier> such as 0235:1234567890`), isText(),
    Matches(/^\d{4}:\S+$/, { message: 'must be a Peppol participant id written <scheme>:<identifier> such as 0235:1234567890' }));
}

/** VAT category codes of PINT AE (ibr-139-ae). */
export const taxCategories = ['S', 'Z', 'E', 'O', 'AE', 'N'] as const;
export type UaeTaxCategory = (typeof taxCategories)[number];

/**
 * The lexical form of xsd:base64Binary, which cbc:EmbeddedDocumentBinaryObject is (UBL 2.1 XSD):
 * groups of four, the last one padded, the bits a padding leaves over zero. Checked without a
 * repeated group: on a 20 MiB attachment, one overflows the regular expression engine's stack.
 */
function isBase64Binary(text: string): boolean {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return false;
  const tail = text.slice(-4);
  if (tail.endsWith('==')) return /^[A-Za-z0-9+/][AQgw]==$/.test(tail);
  return tail.endsWith('=') ? /^[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=$/.test(tail) : true;
}

/** Base64 content of an embedded attachment (IBT-125); line breaks are tolerated. */
export function Base64(opts: Presence = {}): PropertyDecorator {
  return compose(presence(!!opts.optional), isText(), ValidateBy({
    name: 'isBase64Binary',
    validator: { validate: (v: unknown) => typeof v === 'string' && isBase64Binary(v.replace(/\s/g, '')) },
  }, { message: 'must be base64 content (RFC 4648, its length a multiple of 4 once padded with =), such as UERGIGJ5dGVz' }));
}
