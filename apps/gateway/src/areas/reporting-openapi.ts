/**
 * What the reporting areas' routes share in the OpenAPI document (#47): the 202 the pipeline answers while the authority has not (pipeline/submission.ts, authority-requests.ts).
 */
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { statusAnswer, statusField, uuidField, xmlContent } from '../http/openapi-answers';

/** The `participant-id` header (Jordan, Nigeria): the supplier its onboarding answered. */
export const participantIdHeader = (example: string) => ({ description: 'The supplier: the `participant_id` its onboarding answered.', example });

/** Onboarding's `participant_id` (Jordan, Nigeria). */
export const participantIdField = (example: string) => uuidField('The supplier id, which the other routes take in the `participant-id` header.', example);



/**
 * The 202 `{status: "pending", data: {documentId, documentNumber, state, href}}`: the document is recorded and
 * the authority's answer did not come within AUTHORITY_WAIT_MS; `href` (under `documentsPath`) is where it is read.
 */
export function pendingAnswer(documentsPath: string, documentNumber: string, state = 'pending'): { description: string; schema: SchemaObject } {
  const documentId = '019ad0c4-5e21-7c3a-9b8e-2f41d6a0c7e5';
  return {
    description: 'Recorded, and the authority has not answered within the wait: read the outcome at `data.href` (or retry with the same Idempotency-Key).',
    schema: statusAnswer(
      statusField('pending'),
      {
        data: {
          type: 'object',
          required: ['documentId', 'documentNumber', 'state', 'href'],
          properties: {
            documentId: uuidField('The document\'s id in this service.', documentId),
            documentNumber: { type: 'string', description: 'Its number as sent.', example: documentNumber },
            state: { type: 'string', description: 'Where it stands: `pending` (waiting for the worker), `processing` (being sent), or the request\'s own state (`amending`).', example: state },
            href: { type: 'string', description: 'Where its outcome is read (this area\'s read route).', example: `/${documentsPath}/${documentId}` },
          },
        },
      },
      { data: { documentId, documentNumber, state, href: `/${documentsPath}/${documentId}` } },
    ),
  };
}

/** A file answer: the XML as sent to the authority. */
export const xmlFileAnswer = (description: string) => ({ description, content: xmlContent });
