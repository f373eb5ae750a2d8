/**
 * Submission limits of Submit Documents (SDK "02 submit documents", notes/national-systems.md):
 * at most 100 documents and 5 MB per submission, 300 KB per document, one format per
 * submission. Checked before anything is sent, by both modes.
 */
import { AppError } from '@einvoice/domain';
import { SubmissionDocument, documentBytes } from './connector';
import { MYINVOIS_ERRORS, authorityRejected } from './errors';

export const MAX_DOCUMENTS_PER_SUBMISSION = 100;
export const MAX_SUBMISSION_BYTES = 5 * 1024 * 1024;
export const MAX_DOCUMENT_BYTES = 300 * 1024;

/** The authority's error for the first limit the submission breaks, or undefined. */
export function checkSubmissionLimits(documents: readonly SubmissionDocument[]): AppError | undefined {
  if (documents.length === 0) {
    return authorityRejected('validation', MYINVOIS_ERRORS.BAD_STRUCTURE, {
      code: 'BadStructure',
      message: 'The submission contains no documents.',
      target: 'documents',
    });
  }
  if (new Set(documents.map((d) => d.format)).size > 1) {
    return authorityRejected('validation', MYINVOIS_ERRORS.BAD_STRUCTURE, {
      code: 'BadStructure',
      message: 'All documents of a submission must use the same format.',
      target: 'documents',
    });
  }
  if (documents.length > MAX_DOCUMENTS_PER_SUBMISSION) {
    return authorityRejected('too_large', MYINVOIS_ERRORS.MAXIMUM_SIZE_EXCEEDED, {
      code: 'MaximumSizeExceeded',
      message: `A submission holds at most ${MAX_DOCUMENTS_PER_SUBMISSION} documents; this one has ${documents.length}.`,
      target: 'documents',
    });
  }
  let total = 0;
  for (const doc of documents) {
    const size = documentBytes(doc.document).length;
    total += size;
    if (size > MAX_DOCUMENT_BYTES) {
      return authorityRejected('too_large', MYINVOIS_ERRORS.MAXIMUM_SIZE_EXCEEDED, {
        code: 'MaximumSizeExceeded',
        message: `Document ${doc.codeNumber} is ${size} bytes; the limit is 300 KB.`,
        target: doc.codeNumber,
      });
    }
  }
  if (total > MAX_SUBMISSION_BYTES) {
    return authorityRejected('too_large', MYINVOIS_ERRORS.MAXIMUM_SIZE_EXCEEDED, {
      code: 'MaximumSizeExceeded',
      message: `The submission is ${total} bytes; the limit is 5 MB.`,
      target: 'documents',
    });
  }
  return undefined;
}
