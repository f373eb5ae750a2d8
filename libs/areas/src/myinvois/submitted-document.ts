/**
 * The document a MyInvois report submitted, read back for its printed view (#49): its documents row keeps only
 * what the account-wide list shows (submission.ts `LISTED_FIELDS`), so the view is read from the exact bytes
 * MyInvois validated. They are the MyInvois JSON (render-json.ts: every element an array of objects, its value
 * under `_`, its attributes as sibling keys) or, for documents submitted as XML, UBL 2.1 XML: both are read into
 * the one element tree of `../shared/xml-read`, so one reader (printable-view.ts) serves either form.
 */
import { AppError } from '@einvoice/domain';
import { type XmlElement, XmlSyntaxError, parseXml } from '../shared/xml-read';

/** The submitted document as the report holds it. */
export interface SubmittedFile {
  readonly bytes: string;
  readonly mediaType: string | null;
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * A JSON number as a decimal text, never in exponent form (`1e-7` → `0.0000001`). The JSON form writes amounts
 * as numbers (`100` for 100.00): an amount (an element with a `currencyID`) is printed with at least two decimals.
 */
function decimalText(value: number, amount: boolean): string {
  const text = value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
  if (!amount) return text;
  const [whole, fraction = ''] = text.split('.');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}

function scalarText(value: Json, amount: boolean): string {
  if (typeof value === 'number') return decimalText(value, amount);
  return value === null || typeof value === 'object' ? '' : String(value);
}

/** One element of the JSON form; its children in the order the JSON names them (UBL's order, as rendered). */
function elementOf(name: string, value: Json): XmlElement {
  const attrs: Record<string, string> = {};
  const children: XmlElement[] = [];
  let text = '';
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const amount = 'currencyID' in value;
    for (const [key, item] of Object.entries(value)) {
      if (key === '_') text = scalarText(item, amount);
      else if (Array.isArray(item)) for (const child of item) children.push(elementOf(key, child));
      else attrs[key] = scalarText(item, false);
    }
  } else {
    text = scalarText(value, false);
  }
  return { ns: '', name, attrs, children, text, start: 0, end: 0 };
}

const unreadable = (detail: string) => new AppError('internal', 'DOCUMENT.NO_FILE', `The submitted MyInvois document cannot be read: ${detail}.`);

/**
 * The root element (`Invoice`) of the submitted document, JSON or XML.
 * @throws AppError internal when the bytes are neither (a stored submission always is one)
 */
export function submittedRoot(file: SubmittedFile): XmlElement {
  const json = file.mediaType ? file.mediaType.includes('json') : file.bytes.trimStart().startsWith('{');
  if (!json) {
    try {
      return parseXml(file.bytes);
    } catch (error) {
      if (error instanceof XmlSyntaxError) throw unreadable(error.message);
      throw error;
    }
  }
  let parsed: Json;
  try {
    parsed = JSON.parse(file.bytes) as Json;
  } catch (error) {
    throw unreadable((error as Error).message);
  }
  const root: { [key: string]: Json } = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
  // Every MyInvois type (credit, debit, refund notes too) is an `Invoice` with its type code.
  const [element] = Array.isArray(root.Invoice) ? root.Invoice : [];
  if (element === undefined) throw unreadable('no Invoice element');
  return elementOf('Invoice', element);
}
