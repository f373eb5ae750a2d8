import { conflict } from '../../errors';
import type { RecordedEvent } from '../../events';
import type { ParticipantKycCompletedData, ParticipantKycRequested, ParticipantRegistrationData, SmlChangeData, SmlState } from '../../participant';
import type { ConstraintErrorMap, ProjectionContext } from '../../plugin';

/** SML state each SML event leads to (the `sml_status` column; lookups show `SmlActivation`). */
const smlStateAfter: Readonly<Record<string, SmlState>> = {
  SmlActivationRequested: 'activation_requested',
  SmlActivated: 'activated',
  SmlDeactivationRequested: 'deactivation_requested',
  SmlDeactivated: 'deactivated',
};

/**
 * The `participants` read model, in the transaction of the append. Inserts are idempotent on
 * replay and updates are versioned (`version < position`), as the other read models.
 */
export async function projectParticipants(uow: ProjectionContext, event: RecordedEvent): Promise<void> {
  switch (event.type) {
    case 'ParticipantRegistered':
      return insertParticipant(uow, event, event.data as ParticipantRegistrationData, 'created');
    case 'ParticipantKycRequested':
      return insertParticipant(uow, event, event.data as ParticipantKycRequested['data'], 'kyc_pending');
    case 'ParticipantKycCompleted': {
      const d = event.data as ParticipantKycCompletedData;
      await uow.query(
        `UPDATE participants SET status = 'created', pdf_file = $2, registration_date = $3, updated_at = $3, version = $4
         WHERE participant_id = $1 AND version < $4`,
        [d.participantId, d.pdfFile, d.completedAt, event.streamPosition],
      );
      return;
    }
    case 'SmlActivationRequested':
    case 'SmlActivated':
    case 'SmlDeactivationRequested':
    case 'SmlDeactivated': {
      const d = event.data as SmlChangeData;
      await uow.query(
        `UPDATE participants SET sml_status = $2, updated_at = $3, version = $4 WHERE participant_id = $1 AND version < $4`,
        [d.participantId, smlStateAfter[event.type], d.at, event.streamPosition],
      );
      return;
    }
    default:
      return;
  }
}

async function insertParticipant(uow: ProjectionContext, event: RecordedEvent, d: ParticipantRegistrationData, status: 'created' | 'kyc_pending') {
  await uow.query(
    `INSERT INTO participants (participant_id, tenant_id, supplier_id, status, sml_status, business_entities,
       registration_date, created_at, updated_at, version)
     VALUES ($1, $2, $3, $4, 'not_published', $5, $6, $7, $7, $8) ON CONFLICT (participant_id) DO NOTHING`,
    [d.participantId, d.tenantId, d.supplierId ?? null, status, JSON.stringify(d.businessEntities),
      status === 'created' ? d.registeredAt : null, d.registeredAt, event.streamPosition],
  );
}

/** The participants key backs up the stream's one-registration-per-id rule. */
export const participantConstraintErrors: ConstraintErrorMap = {
  participants_pkey: () =>
    conflict('PARTICIPANT.ALREADY_REGISTERED', 'The Peppol participant is already registered with this access point; a receiver is registered in exactly one SMP.'),
};
