import { AppError, ParticipantBusinessEntity, issue, validationError } from '@einvoice/domain';
import { ParticipantId, ParticipantRecord, isParticipantId, parseParticipantId } from '@einvoice/areas';

/** A row of the `participants` read model. */
export interface ParticipantRow {
  participant_id: string;
  tenant_id: string;
  status: 'kyc_pending' | 'created';
  sml_status: string;
  business_entities: ParticipantBusinessEntity[];
  pdf_file: string | null;
  registration_date: Date | null;
}

export const PARTICIPANT_COLUMNS = `participant_id, tenant_id, status, sml_status, business_entities, pdf_file, registration_date`;

export function toRecord(row: ParticipantRow): ParticipantRecord {
  return {
    participantId: row.participant_id,
    smlStatus: row.sml_status,
    businessEntities: row.business_entities,
    pdfFile: row.pdf_file,
    registrationDate: row.registration_date ? new Date(row.registration_date).toISOString() : null,
  };
}

/** A participant id from a path or query parameter; malformed or unknown scheme is a 400 at `path`. */
export function requireParticipantId(raw: unknown, path: string): ParticipantId {
  const parsed = parseParticipantId(raw, path);
  if (isParticipantId(parsed)) return parsed;
  throw validationError([parsed], 'The participant identifier is invalid.');
}

/** The lookup's 404: names each id that is not a created participant of the caller. */
export function participantsNotFound(missing: readonly { path: string; id: string; kycPending: boolean }[]): AppError {
  const pending = missing.every((m) => m.kycPending);
  return new AppError(
    'not_found',
    pending ? 'PARTICIPANT.KYC_PENDING' : 'PARTICIPANT.NOT_FOUND',
    `No created participant ${missing.map((m) => m.id).join(', ')} for your account.`,
    {
      issues: missing.map((m) =>
        m.kycPending
          ? issue(m.path, 'PARTICIPANT.KYC_PENDING', `${m.id} waits for its KYC document (POST /1.0/participant/{pid}/kyc); it is not created yet`)
          : issue(m.path, 'PARTICIPANT.NOT_FOUND', `${m.id} is not a participant of your account`),
      ),
    },
  );
}
