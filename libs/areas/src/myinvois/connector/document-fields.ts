/**
 * Reads, from a submitted UBL document (XML or MyInvois JSON), the fields the duplicate rule
 * DV302 compares (SDK "Duplicate Document Validator Errors"): e-Invoice type and type version,
 * issue date and time, internal id, supplier TIN, and buyer TIN for self-billed types 11–14.
 * The sandbox needs only these.
 */
import { ublNamespaces } from '../../ubl';
import { all, first, parseXml, textAt, XmlSyntaxError, type XmlElement } from '../../shared/xml-read';

export interface DuplicateKeyFields {
  /** Internal id / invoice number (cbc:ID). */
  readonly internalId: string;
  readonly issueDate: string;
  readonly issueTime: string;
  /** e-Invoice type code 01–04, 11–14 (cbc:InvoiceTypeCode). */
  readonly typeCode: string;
  /** listVersionID of the type code, e.g. 1.0 or 1.1. */
  readonly typeVersion: string;
  readonly supplierTin: string;
  readonly buyerTin: string;
}

/** Self-billed invoice, credit note, debit note, refund note. */
export const SELF_BILLED_TYPES = new Set(['11', '12', '13', '14']);

/** The DV302 key: supplier TIN for normal documents, buyer TIN for self-billed ones. */
export function duplicateKey(fields: DuplicateKeyFields): string {
  const party = SELF_BILLED_TYPES.has(fields.typeCode) ? fields.buyerTin : fields.supplierTin;
  return [fields.typeCode, fields.typeVersion, fields.issueDate, fields.issueTime, fields.internalId, party].join('|');
}

/** The DV302 fields of `text`, or undefined when they cannot be found. */
export function readDuplicateKeyFields(format: 'XML' | 'JSON', text: string): DuplicateKeyFields | undefined {
  return format === 'XML' ? fromXml(text) : fromJson(text);
}

function fromXml(xml: string): DuplicateKeyFields | undefined {
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (error) {
    if (error instanceof XmlSyntaxError) return undefined;
    throw error;
  }
  // The document's own elements, by namespace: the signature extension carries cbc:ID elements of its own.
  const cbc = (name: string) => [ublNamespaces.cbc, name] as const;
  const cac = (name: string) => [ublNamespaces.cac, name] as const;
  const typeCode = first(root, cbc('InvoiceTypeCode'));
  const partyTin = (party: string) =>
    all(root, cac(party), cac('Party'), cac('PartyIdentification'), cbc('ID')).find((id) => id.attrs.schemeID === 'TIN')?.text.trim() ?? '';
  const internalId = textAt(root, cbc('ID'));
  const issueDate = textAt(root, cbc('IssueDate'));
  const issueTime = textAt(root, cbc('IssueTime'));
  if (!internalId || !issueDate || !issueTime || !typeCode) return undefined;
  return {
    internalId,
    issueDate,
    issueTime,
    typeCode: typeCode.text.trim(),
    typeVersion: typeCode.attrs.listVersionID ?? '',
    supplierTin: partyTin('AccountingSupplierParty'),
    buyerTin: partyTin('AccountingCustomerParty'),
  };
}

type JsonNode = Record<string, unknown>;

/** MyInvois JSON: `{ "Invoice": [ { "ID": [ { "_": "INV1" } ], ... } ] }`. */
function fromJson(json: string): DuplicateKeyFields | undefined {
  let root: unknown;
  try {
    root = JSON.parse(json);
  } catch {
    return undefined;
  }
  const invoice = firstItem(field(root, 'Invoice'));
  const value = (node: unknown, name: string) => {
    const v = field(firstItem(field(node, name)), '_');
    return typeof v === 'string' || typeof v === 'number' ? String(v).trim() : undefined;
  };
  const partyTin = (partyName: string) => {
    const party = firstItem(field(firstItem(field(invoice, partyName)), 'Party'));
    const ids = field(party, 'PartyIdentification');
    for (const entry of Array.isArray(ids) ? ids : []) {
      const id = firstItem(field(entry, 'ID'));
      if (field(id, 'schemeID') === 'TIN') return String(field(id, '_') ?? '').trim();
    }
    return '';
  };
  const internalId = value(invoice, 'ID');
  const issueDate = value(invoice, 'IssueDate');
  const issueTime = value(invoice, 'IssueTime');
  const typeCode = value(invoice, 'InvoiceTypeCode');
  if (!internalId || !issueDate || !issueTime || !typeCode) return undefined;
  const typeVersion = field(firstItem(field(invoice, 'InvoiceTypeCode')), 'listVersionID');
  return {
    internalId,
    issueDate,
    issueTime,
    typeCode,
    typeVersion: typeof typeVersion === 'string' ? typeVersion : '',
    supplierTin: partyTin('AccountingSupplierParty'),
    buyerTin: partyTin('AccountingCustomerParty'),
  };
}

function field(node: unknown, name: string): unknown {
  return node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as JsonNode)[name] : undefined;
}

/** A MyInvois JSON value's first item (every element is an array). */
function firstItem(node: unknown): unknown {
  return Array.isArray(node) ? node[0] : node;
}
