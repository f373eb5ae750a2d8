/**
 * A submission request (#4: single, bulk, consolidated) checked against the authority's limits
 * before anything is stored or sent (notes/national-systems.md: at most 100 documents and 5 MB
 * per submission, 300 KB per document), with a per-document outcome: a document that fails
 * validation, repeats an ID of the same request or reuses an ID the supplier already submitted
 * is rejected alone, in the authority's error shape, and the rest go on. Pure.
 */
import { AppError, SupplierProfile, issue } from '@einvoice/domain';
import { myInvoisArea } from './area';
import { AuthorityError, SubmissionDocument, prepareDocument } from './connector/connector';
import { MAX_DOCUMENTS_PER_SUBMISSION, checkSubmissionLimits } from './connector/limits';
import { DocumentKind, MyInvoisDocument } from './schema-document';
import { MyInvoisOtherIds, MyInvoisSupplier } from './schema-onboarding';

/** A document refused by the gateway or the authority (SDK `rejectedDocuments[]`). */
export interface RejectedDocument {
  readonly invoiceCodeNumber: string;
  readonly error: AuthorityError;
}

/** The documents to submit, in request order, and those refused before submission. */
export interface PreparedSubmission {
  readonly documents: readonly { readonly document: MyInvoisDocument; readonly submission: SubmissionDocument }[];
  readonly rejected: readonly RejectedDocument[];
}

/** The `ID`s a request names, before validation (to look up those already submitted). */
export function requestedIds(bodies: readonly unknown[]): string[] {
  return bodies.map((b) => (b as { ID?: unknown } | null)?.ID).filter((id): id is string => typeof id === 'string');
}

/** A bulk body must be an array of at most 100 documents (400 otherwise, nothing stored). */
export function checkBulkCount(body: unknown): unknown[] {
  if (!Array.isArray(body) || body.length === 0) {
    throw new AppError('validation', 'REQUEST.INVALID', 'The bulk body must be a non-empty array of documents.', {
      issues: [issue('', 'FIELD.INVALID_TYPE', 'Send an array of 1 to 100 documents.')],
    });
  }
  if (body.length > MAX_DOCUMENTS_PER_SUBMISSION) {
    throw new AppError('validation', 'MYINVOIS.TOO_MANY_DOCUMENTS', `A submission holds at most ${MAX_DOCUMENTS_PER_SUBMISSION} documents; this one has ${body.length}.`, {
      issues: [issue('', 'MYINVOIS.TOO_MANY_DOCUMENTS', `At most ${MAX_DOCUMENTS_PER_SUBMISSION} documents per bulk request (MyInvois limit).`)],
    });
  }
  return body;
}

/** The MyInvois supplier of an onboarded profile (myinvois.service.ts writes it this way). */
export function supplierOfProfile(profile: SupplierProfile): MyInvoisSupplier {
  const details = (profile.areaDetails ?? {}) as { msicCode?: string; industry?: string; state?: string; otherIds?: MyInvoisOtherIds };
  return {
    registeredName: profile.registeredName,
    tin: profile.identifiers.find((i) => i.scheme === 'MY:TIN')?.id ?? '',
    otherIds: details.otherIds ?? {},
    msicCode: details.msicCode ?? '',
    industry: details.industry ?? '',
    city: profile.city ?? '',
    street: profile.street ?? '',
    state: details.state ?? '',
    country: profile.country,
    contactNumber: profile.contactNumber ?? '',
  };
}

function rejection(invoiceCodeNumber: string, error: AppError): RejectedDocument {
  return {
    invoiceCodeNumber,
    error: {
      code: error.code,
      message: error.message,
      target: invoiceCodeNumber,
      propertyPath: null,
      details: error.issues.map((i) => ({ code: i.code, message: i.message, target: i.path.split(/[.[]/)[0] || null, propertyPath: i.path })),
    },
  };
}

function duplicateId(id: string, message: string): AppError {
  return new AppError('conflict', 'DOCUMENT.DUPLICATE_ID', message, { issues: [issue('ID', 'DOCUMENT.DUPLICATE_ID', message)] });
}

/**
 * Validates, renders (MyInvois JSON) and hashes each document; `alreadySubmitted` are the IDs
 * the supplier has alive at the authority. Throws only for the request as a whole: 413
 * `MYINVOIS.MAXIMUM_SIZE_EXCEEDED` when a rendered document passes 300 KB or all pass 5 MB.
 */
export function prepareSubmission(kind: DocumentKind, bodies: readonly unknown[], supplier: MyInvoisSupplier, alreadySubmitted: ReadonlySet<string>): PreparedSubmission {
  const documents: { document: MyInvoisDocument; submission: SubmissionDocument }[] = [];
  const rejected: RejectedDocument[] = [];
  const seen = new Set<string>();
  bodies.forEach((body, index) => {
    const rawId = (body as { ID?: unknown } | null)?.ID;
    const label = typeof rawId === 'string' && rawId ? rawId : `#${index}`;
    try {
      const document = myInvoisArea.parseDocument(kind, body, supplier);
      const id = document.body.ID;
      if (seen.has(id)) throw duplicateId(id, `ID ${id} appears more than once in this request.`);
      seen.add(id);
      if (alreadySubmitted.has(id)) throw duplicateId(id, `ID ${id} was already submitted by this supplier.`);
      const rendered = myInvoisArea.render(document, supplier);
      documents.push({ document, submission: prepareDocument('JSON', id, rendered.json) });
    } catch (error) {
      if (!(error instanceof AppError) || (error.kind !== 'validation' && error.kind !== 'conflict')) throw error;
      rejected.push(rejection(label, error));
    }
  });
  if (documents.length > 0) {
    const limit = checkSubmissionLimits(documents.map((d) => d.submission));
    if (limit) throw limit;
  }
  return { documents, rejected };
}
