/**
 * Participant ids `iso6523-actorid-upis::<scheme code>:<value>` (seed "Peppol participant";
 * Peppol Policy for use of identifiers 4.x: the scheme is case-insensitive, the value part
 * `<code>:<value>` is at most 50 characters).
 */
import { FieldIssue, issue } from '@einvoice/domain';
import { PARTICIPANT_ID_SCHEME, participantSchemeCodes } from './participant-schemes';

/** A well-formed participant id, split as the lookup's `Meta.ParticipantIdentifier` shows it. */
export interface ParticipantId {
  /** `iso6523-actorid-upis`. */
  readonly scheme: string;
  /** ISO 6523 ICD / EAS code, e.g. `0208`. */
  readonly code: string;
  /** The identifier within the code's scheme, lower case. */
  readonly value: string;
  /** Canonical full form (lower case), the key of the `participants` read model. */
  readonly id: string;
}

const SHAPE = /^([A-Za-z0-9-]+)::([^:\s]+):(\S+)$/;
const MAX_VALUE_PART = 50;

/** Parses a participant id, or returns the issue (at `path`) saying what is wrong with it. */
export function parseParticipantId(raw: unknown, path: string): ParticipantId | FieldIssue {
  if (typeof raw !== 'string' || raw.trim() === '') return issue(path, 'FIELD.REQUIRED', `${path} is required: a participant id such as iso6523-actorid-upis::0208:0123456749`);
  const match = SHAPE.exec(raw.trim());
  if (!match || match[1].toLowerCase() !== PARTICIPANT_ID_SCHEME) {
    return issue(path, 'PARTICIPANT.INVALID_ID', `${path} must be iso6523-actorid-upis::<scheme code>:<value>, e.g. iso6523-actorid-upis::0208:0123456749`);
  }
  const [, , code, value] = match;
  if (!participantSchemeCodes.has(code)) {
    return issue(path, 'PARTICIPANT.UNKNOWN_SCHEME', `${path} uses scheme code ${code}, which is not a Peppol participant identifier scheme (ISO 6523 ICD / EAS code such as 0208, 9925, 0195)`);
  }
  if (code.length + 1 + value.length > MAX_VALUE_PART) {
    return issue(path, 'FIELD.TOO_LONG', `${path}: <scheme code>:<value> must be at most ${MAX_VALUE_PART} characters`);
  }
  const lower = value.toLowerCase();
  return { scheme: PARTICIPANT_ID_SCHEME, code, value: lower, id: `${PARTICIPANT_ID_SCHEME}::${code}:${lower}` };
}

export function isParticipantId(parsed: ParticipantId | FieldIssue): parsed is ParticipantId {
  return (parsed as ParticipantId).id !== undefined;
}
