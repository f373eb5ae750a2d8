/**
 * The field kinds of the UAE document (seed 001 "Resources and their fields"), as zod schemas so
 * that field validation speaks the seed's issue codes and messages (`invalid_type` / `Required`,
 * `invalid_union`, `invalid_enum_value`, `custom`) without a translation table.
 */
import { z } from 'zod';
import { isCalendarDate } from '../shared/fields';
import { ImpreciseNumber } from '../shared/validate';

/** A plain decimal written in JSON as a string: `"1200.00"`, `"-5"`, `"0.125"` (no exponent, no thousands separator). */
export const decimalPattern = /^-?\d+(\.\d+)?$/;

/** An amount: a decimal string (seed: "Amounts are decimal strings", a bare number is a type error). */
export const amount = z.string().superRefine((v, ctx) => {
  if (!decimalPattern.test(v)) ctx.addIssue({ code: 'custom', message: `Expected a decimal string such as "1200.00", received "${v}"` });
});

/**
 * A number that may come as a decimal string or a bare JSON number (the seed's one example sends
 * `invoice_totals.payable_amount` bare; quantities and rates are taken the same way). Normalised
 * to a decimal string. A number the gateway's parser could not hold exactly keeps its text.
 */
export const numeric = z.union([
  z.string(),
  z.number().finite().transform((n) => String(n)),
  z.instanceof(ImpreciseNumber).transform((n) => n.text),
]).superRefine((v, ctx) => {
  if (!decimalPattern.test(v)) ctx.addIssue({ code: 'custom', message: `Expected a plain decimal such as 12.5, received ${v}` });
});

/**
 * An identifier rendered as a cbc:ID the UBL 2.1 XSD requires (the document's, a line's, a
 * reference's): an empty text writes no element, so it must say something (#44).
 */
export const identifier = z.string().superRefine((v, ctx) => {
  if (v.trim() === '') ctx.addIssue({ code: 'custom', message: 'Expected an identifier, received an empty text' });
});

/** A date written `YYYY-MM-DD` (the format UBL writes, BT-2; the seed leaves it "not shown"). */
export const date = z.string().superRefine((v, ctx) => {
  if (!isCalendarDate(v)) ctx.addIssue({ code: 'custom', message: `Expected a real date written YYYY-MM-DD, received "${v}"` });
});

/** A time `hh:mm:ss`, optional fractions and zone (ibr-119, BT-168). */
export const time = z.string().superRefine((v, ctx) => {
  if (!/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/.test(v)) {
    ctx.addIssue({ code: 'custom', message: `Expected a time written hh:mm:ss with an optional zone such as +04:00, received "${v}"` });
  }
});

/** An ISO 4217 shaped currency code; whether it exists is left to the rule phase (ibr-cl-04). */
export const currency = z.string().superRefine((v, ctx) => {
  if (!/^[A-Z]{3}$/.test(v)) ctx.addIssue({ code: 'custom', message: `Expected three upper-case letters (ISO 4217) such as AED, received "${v}"` });
});

/** An ISO 3166-1 alpha-2 shaped country code. */
export const country = z.string().superRefine((v, ctx) => {
  if (!/^[A-Z]{2}$/.test(v)) ctx.addIssue({ code: 'custom', message: `Expected two upper-case letters (ISO 3166-1 alpha-2) such as AE, received "${v}"` });
});

/** VAT category codes of PINT AE (ibr-139-ae). */
export const taxCategory = z.enum(['S', 'Z', 'E', 'O', 'AE', 'N']);
export type UaeTaxCategory = z.infer<typeof taxCategory>;

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
export const base64 = z.string().superRefine((v, ctx) => {
  if (!isBase64Binary(v.replace(/\s/g, ''))) {
    ctx.addIssue({ code: 'custom', message: 'Expected base64 content (RFC 4648, its length a multiple of 4 once padded with =), such as UERGIGJ5dGVz' });
  }
});
