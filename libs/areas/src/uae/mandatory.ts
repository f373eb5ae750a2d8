/**
 * The mandatory fields the seed checks by hand (code `custom`, a written message): they read the
 * raw body, independently of the schema, so that they are reported together with type errors
 * elsewhere in the document (zod skips an object's refinements once one of its keys failed).
 */
import { creditNoteReasonCodes } from './schema';

/** One field-validation issue (seed "Errors": `path`, `code`, `message`, `severity`). */
export interface UaeIssue {
  /** Dotted path, list entries by index: `receiving_party.peppol_id`, `lines[0].unit_price`; empty for the body itself. */
  readonly path: string;
  /** `custom`, `invalid_type`, `invalid_union`, `invalid_enum_value` (zod's codes and messages). */
  readonly code: string;
  readonly message: string;
  readonly severity: 'error';
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const custom = (path: string, message: string): UaeIssue => ({ path, code: 'custom', message, severity: 'error' });

/**
 * Fields required once their block is sent, because the element the block renders requires them
 * (UBL 2.1 XSD, checked block by block in optional-blocks.conformance.int.spec.ts) or the seed
 * says so. `[]` is each entry of a list. Each field comes with what to send.
 */
const requiredInBlock: readonly { readonly block: string; readonly fields: Readonly<Record<string, string>> }[] = [
  // Seed "References": mime_code and filename are mandatory once embedded_document exists
  // (cbc:EmbeddedDocumentBinaryObject@mimeCode is mandatory in the XSD).
  { block: 'document_references[].embedded_document', fields: { mime_code: 'e.g. application/pdf', filename: 'the file name, e.g. timesheet.pdf' } },
  // cac:CardAccount (IBG-18): cbc:PrimaryAccountNumberID and cbc:NetworkID are mandatory in the XSD.
  { block: 'payment_means[].card', fields: {
    primary_account_number: 'the card number as it may be shown (IBT-087: at most its first 6 and last 4 digits, e.g. XXXXXXXXXXXX1234)',
    network_id: 'the card network, e.g. VISA or MasterCard',
  } },
];

/** Every object at `path` (`a[].b`) in `body`, with its concrete path (`a[0].b`). */
function blocksAt(body: unknown, path: readonly string[], at: string): [string, Json][] {
  if (path.length === 0) return isObject(body) ? [[at, body]] : [];
  if (!isObject(body)) return [];
  const [step, ...rest] = path;
  const list = step.endsWith('[]');
  const key = list ? step.slice(0, -2) : step;
  const value = body[key];
  const here = at === '' ? key : `${at}.${key}`;
  if (!list) return blocksAt(value, rest, here);
  return Array.isArray(value) ? value.flatMap((entry, i) => blocksAt(entry, rest, `${here}[${i}]`)) : [];
}

function fieldsRequiredInBlocks(body: Json): UaeIssue[] {
  return requiredInBlock.flatMap(({ block, fields }) => {
    const name = block.slice(block.lastIndexOf('.') + 1);
    return blocksAt(body, block.split('.'), '').flatMap(([path, value]) => Object.entries(fields)
      // An empty text writes no element: it is as missing as an absent one.
      .filter(([field]) => value[field] === undefined || (typeof value[field] === 'string' && value[field].trim() === ''))
      .map(([field, hint]) => custom(`${path}.${field}`, `${path}.${field} is required once ${name} is sent: ${hint}`)));
  });
}

/** Issues for hand-checked mandatory fields that are absent from `body` (the document, nulls already removed). */
export function mandatoryFieldIssues(body: Json): UaeIssue[] {
  const issues: UaeIssue[] = [];
  const party = body.receiving_party;
  // Seed "Parties": the receiver's Peppol id routes the document; a missing one is refused first.
  if (isObject(party) && party.peppol_id === undefined) {
    issues.push(custom('receiving_party.peppol_id',
      'receiving_party.peppol_id is required: the Peppol participant id of the receiver, written <scheme>:<identifier> such as 0235:1234567890'));
  }
  // Seed "Document header": mandatory on 381.
  if (body.document_type === '381' && body.credit_note_reason_code === undefined) {
    issues.push(custom('credit_note_reason_code', `credit_note_reason_code is required on a credit note (381): one of ${creditNoteReasonCodes.join(', ')}`));
  }
  // Seed "Lines": on every line, except on an out-of-scope credit note (81).
  if (Array.isArray(body.lines) && body.document_type !== '81') {
    body.lines.forEach((l, i) => {
      if (isObject(l) && l.tax_category === undefined) issues.push(custom(`lines[${i}].tax_category`, `lines[${i}].tax_category is required: one of S, Z, E, O, AE, N`));
    });
  }
  return [...issues, ...fieldsRequiredInBlocks(body)];
}
