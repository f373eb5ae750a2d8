/**
 * A MyInvois document as the platform's pipeline takes it (area registry `documents`): parsed (schema,
 * every rule, the supplier's taxes), rendered as the MyInvois JSON submitted (its SHA-256 is MyInvois's
 * `documentHash`), and its PINT MY copy for the buyer, which the reporting worker sends only once
 * MyInvois says Valid. A submission of several documents calls these per document (submission.ts).
 */
import type { SupplierProfile } from '@einvoice/domain';
import type { DocumentCodec, ParsedDocument, PeppolCopy, RenderedDocument } from '../registry/area';
import { myInvoisArea } from './area';
import { documentHash } from './connector/connector';
import { typeCodeOf } from './document-tree';
import { pintMyRoute } from './peppol';
import { pintMyType } from './pint-my-codes';
import { myInvoisRefusal, presentMyInvoisDocument } from './present';
import { renderMyInvoisJson } from './render-json';
import { renderPintMy } from './render-pint-my';
import type { DocumentKind, MyInvoisDocument } from './schema-document';
import type { MyInvoisSupplier } from './schema-onboarding';
import { supplierOfProfile } from './supplier-profile';
import { computeTotals } from './totals';
import { formatAmount } from '../shared/money';

const KINDS: readonly DocumentKind[] = ['invoice', 'consolidated', 'self-billed'];

/**
 * Validates one document of the given kind with the supplier's rules and applies defaults. Its fields are
 * the document itself (MyInvoisDocument's body), read back by `render` and `peppolCopy`.
 * @throws AppError validation listing every issue
 */
export function parseMyInvois(kind: DocumentKind, body: unknown, supplier: MyInvoisSupplier): ParsedDocument {
  const document = myInvoisArea.parseDocument(kind, body, supplier);
  const number = document.body.ID;
  // The PayableAmount both renderings state (computed when the body gives no InvoiceTotal): the list's total.
  const total = formatAmount(computeTotals(document.body).payable);
  return { number, type: kind, fields: document.body as unknown as Record<string, unknown>, total, payload: { kind, format: 'JSON', invoiceCodeNumber: number } };
}

/** The document `parseMyInvois` read (its kind is the parsed type). */
function documentOf(parsed: ParsedDocument): MyInvoisDocument {
  return { kind: parsed.type, body: parsed.fields } as unknown as MyInvoisDocument;
}

/** The MyInvois JSON submitted: exact text, never re-serialised after hashing (hash.ts). */
export function renderMyInvois(parsed: ParsedDocument, supplier: MyInvoisSupplier): RenderedDocument {
  const json = renderMyInvoisJson(documentOf(parsed), supplier);
  return { bytes: json, mediaType: 'application/json', sha256: documentHash(json) };
}

/**
 * The PINT MY copy (peppol.ts): from the supplier to the buyer, or for a self-billed document to the
 * seller; none for a consolidated document or a generic TIN (no Peppol address).
 * @throws PintMyUnsupported when PINT MY cannot carry the document (README "PINT MY")
 */
export function pintMyCopy(parsed: ParsedDocument, supplier: MyInvoisSupplier): PeppolCopy | undefined {
  const document = documentOf(parsed);
  const route = pintMyRoute(document, supplier);
  if ('skipped' in route) return undefined;
  const xml = renderPintMy(document, supplier);
  const documentType = pintMyType(typeCodeOf(document.kind, document.body.InvoiceTypeCode)).typeCode;
  return { documentType, senderParticipantId: route.sender, receiverParticipantId: route.receiver, xml };
}

/** The document kind a variant names (the route: invoice, consolidated, self-billed). */
function kindOf(variant: string | undefined): DocumentKind {
  return KINDS.includes(variant as DocumentKind) ? (variant as DocumentKind) : 'invoice';
}

/**
 * Malaysia's codec. Its routes read documents by our id, MyInvois's `uuid` or the caller's `ID`, and
 * answer in MyInvois's shapes (present.ts); its submissions are the area's own (submission.ts).
 */
export const myInvoisDocuments: DocumentCodec = {
  parse: (body, supplier: SupplierProfile, variant) => parseMyInvois(kindOf(variant), body, supplierOfProfile(supplier)),
  render: (document, supplier) => renderMyInvois(document, supplierOfProfile(supplier)),
  peppolCopy: (document, supplier) => pintMyCopy(document, supplierOfProfile(supplier)),
  lookup: { alsoBy: { field: 'uuid', of: 'receipt' } },
  present: presentMyInvoisDocument,
  refusal: myInvoisRefusal,
};
