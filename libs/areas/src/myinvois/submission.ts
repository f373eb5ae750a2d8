/**
 * A submission request (#4: single, bulk, consolidated) checked against the authority's limits
 * before anything is stored or sent (notes/national-systems.md: at most 100 documents and 5 MB
 * per submission, 300 KB per document), with a per-document outcome: a document that fails
 * validation, repeats an ID of the same request or reuses an ID the supplier already submitted
 * is rejected alone, in the authority's error shape, and the rest go on. Pure.
 */
import { AppError, issue } from '@einvoice/domain';
import type { ParsedDocument, PeppolCopy, RenderedDocument } from '../registry/area';
import { parseMyInvois, pintMyCopy, renderMyInvois } from './codec';
import { AuthorityError, type DocumentFormat } from './connector/connector';
import { MAX_DOCUMENTS_PER_SUBMISSION, checkSubmissionLimits } from './connector/limits';
import { PintMyUnsupported } from './pint-my-codes';
import type { MyInvoisReportPayload } from './reporting/report';
import type { DocumentKind } from './schema-document';
import type { MyInvoisSupplier } from './schema-onboarding';
import type { MyInvoisTransportMode } from './transport-mode';

/**
 * What a document without a Peppol copy keeps of its fields: what the account-wide list shows of it
 * (#47 `GET /v1/documents`: its issue date, currency, and total when the caller gave one: the rows written
 * before `parsed.total`, the computed PayableAmount, was kept apart read it) and its other party (#50), tens of bytes.
 */
const LISTED_FIELDS = ['IssueDate', 'DocumentCurrencyCode', 'InvoiceTotal'] as const;
/** And its other party's name and TIN (#50 the list's `counterparty`): the buyer, or a self-billed document's supplier. */
const LISTED_PARTIES = { CustomerParty: ['LegalName', 'CustomerTIN'], SupplierParty: ['LegalName', 'SupplierTIN'] } as const;
const picked = (source: Readonly<Record<string, unknown>>, names: readonly string[]) =>
  Object.fromEntries(names.filter((name) => source[name] !== undefined).map((name) => [name, source[name]]));
export const listedFields = (fields: Readonly<Record<string, unknown>>): Record<string, unknown> => ({
  ...picked(fields, LISTED_FIELDS),
  ...Object.fromEntries(
    Object.entries(LISTED_PARTIES)
      .filter(([party]) => fields[party] !== null && typeof fields[party] === 'object')
      .map(([party, names]) => [party, picked(fields[party] as Record<string, unknown>, names)]),
  ),
});

/** A document refused by the gateway or the authority (SDK `rejectedDocuments[]`). */
export interface RejectedDocument {
  readonly invoiceCodeNumber: string;
  readonly error: AuthorityError;
}

/**
 * One document ready to be reported: its `parsed` fields are the caller's document when it has a Peppol
 * copy (the copy's `DocumentSubmitted` carries them), else only what the account-wide list shows (GET shows
 * MyInvois's answer, not the fields: 0.75 KB less in its request event and in each update of its documents
 * row, issue 11).
 */
export interface PreparedDocument {
  readonly parsed: ParsedDocument;
  /** The MyInvois JSON submitted. */
  readonly rendered: RenderedDocument;
  readonly peppolCopy?: PeppolCopy;
}

/** The documents to submit, in request order, and those refused before submission. */
export interface PreparedSubmission {
  readonly documents: readonly PreparedDocument[];
  readonly rejected: readonly RejectedDocument[];
}

/** What the documents of one submission share. */
export interface SubmissionOptions {
  /** The caller's submission (the seed's `submissionId`): one Submit Documents call for all its documents. */
  readonly submissionId: string;
  /** `peppol`: each document with a Peppol address also gets its PINT MY copy. */
  readonly transportMode: MyInvoisTransportMode;
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
 * Parses and renders each document with the area's codec (codec.ts); `alreadySubmitted` are the IDs the
 * supplier has alive at the authority. Throws only for the request as a whole: 413
 * `MYINVOIS.MAXIMUM_SIZE_EXCEEDED` when a rendered document passes 300 KB or all pass 5 MB. Then, with
 * `transport_mode: peppol`, the PINT MY copy of each document that has a Peppol address: one PINT MY
 * cannot carry (README "PINT MY", the refused table) is rejected alone with `MYINVOIS.PINT_MY_UNSUPPORTED`,
 * as the caller asked for Peppol, after the documents refused before.
 */
export function prepareSubmission(kind: DocumentKind, bodies: readonly unknown[], supplier: MyInvoisSupplier, alreadySubmitted: ReadonlySet<string>, options: SubmissionOptions): PreparedSubmission {
  const accepted: { parsed: ParsedDocument; rendered: RenderedDocument }[] = [];
  const rejected: RejectedDocument[] = [];
  const seen = new Set<string>();
  bodies.forEach((body, index) => {
    const rawId = (body as { ID?: unknown } | null)?.ID;
    const label = typeof rawId === 'string' && rawId ? rawId : `#${index}`;
    try {
      const parsed = parseMyInvois(kind, body, supplier);
      const id = parsed.number;
      if (seen.has(id)) throw duplicateId(id, `ID ${id} appears more than once in this request.`);
      seen.add(id);
      if (alreadySubmitted.has(id)) throw duplicateId(id, `ID ${id} was already submitted by this supplier.`);
      accepted.push({ parsed, rendered: renderMyInvois(parsed, supplier) });
    } catch (error) {
      if (!(error instanceof AppError) || (error.kind !== 'validation' && error.kind !== 'conflict')) throw error;
      rejected.push(rejection(label, error));
    }
  });
  if (accepted.length > 0) {
    const limit = checkSubmissionLimits(accepted.map(({ parsed, rendered }) => ({ format: FORMAT, codeNumber: parsed.number, document: rendered.bytes, documentHash: rendered.sha256 })));
    if (limit) throw limit;
  }
  const documents: PreparedDocument[] = [];
  for (const { parsed, rendered } of accepted) {
    const payload: MyInvoisReportPayload = { submissionId: options.submissionId, kind, format: FORMAT, invoiceCodeNumber: parsed.number };
    try {
      const peppolCopy = options.transportMode === 'peppol' ? pintMyCopy(parsed, supplier) : undefined;
      documents.push({ parsed: { ...parsed, fields: peppolCopy ? parsed.fields : listedFields(parsed.fields), payload: { ...payload } }, rendered, ...(peppolCopy ? { peppolCopy } : {}) });
    } catch (error) {
      if (!(error instanceof PintMyUnsupported)) throw error;
      rejected.push(pintMyRejection(parsed.number, error));
    }
  }
  return { documents, rejected };
}

/** Submitted as JSON (MyInvois takes XML too; one format per submission). */
const FORMAT: DocumentFormat = 'JSON';

function pintMyRejection(id: string, error: PintMyUnsupported): RejectedDocument {
  const message = `${error.path}: ${error.reason} (PINT MY rule ${error.rule}); send it without transport_mode: peppol.`;
  return {
    invoiceCodeNumber: id,
    error: {
      code: 'MYINVOIS.PINT_MY_UNSUPPORTED',
      message: `PINT MY cannot carry this document: ${message}`,
      target: id,
      propertyPath: null,
      details: [{ code: 'MYINVOIS.PINT_MY_UNSUPPORTED', message, target: error.path.split(/[.[]/)[0], propertyPath: error.path }],
    },
  };
}
