import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, type SupplierOnboardedData, issue, supplierDecider, supplierStreamId } from '@einvoice/domain';
import { handleCommand } from '@einvoice/domain/infrastructure';
import { uae } from '@einvoice/areas';
import { type RequestContext, eventMetadata } from '../../http/request-context';
import { recordResponse } from '../../idempotency/idempotency';
import { Connections } from '../../infrastructure/infrastructure.module';
import { registerSupplierParticipants } from '../../participants/supplier-participants';
import { SupplierCache, type SupplierRecord, isUuid } from '../../suppliers/supplier-lookup';

const { uaeDefinition } = uae;

/** The SMP form of a UAE Peppol id (`0235:<TIN>`), as the participant directory stores it. */
export const uaeParticipantId = (peppolId: string): string => `iso6523-actorid-upis::${peppolId.toLowerCase()}`;

/**
 * UAE participants (`POST /v1/participants`; issue 10 "Participants"): a participant is a supplier
 * of area `ae` and a Peppol receiver here under ICD 0235, registered in the onboarding transaction
 * exactly as BE/DE/SG suppliers are (a Peppol id registered here already → 409).
 */
@Injectable()
export class UaeParticipantsService {
  private readonly cache = new SupplierCache();

  constructor(private readonly connections: Connections) {}

  async onboard(body: unknown, context: RequestContext) {
    const profile = uae.parseUaeParticipant(body);
    const details = uae.uaeDetailsOf(profile);
    const supplierId = randomUUID();
    const data: SupplierOnboardedData = {
      supplierId,
      tenantId: context.tenant.id,
      area: uaeDefinition.code,
      profile,
      participantIds: [uaeParticipantId(details.peppolId)],
      onboardedAt: new Date().toISOString(),
    };
    const response = { status: 'success', data: { participant_id: supplierId, peppol_id: details.peppolId } };
    const metadata = eventMetadata(context, uaeDefinition.ruleSetId);
    await this.connections.store.transaction(async (uow) => {
      await recordResponse(uow, context.idempotency, 201, response);
      await handleCommand(uow, supplierDecider, supplierStreamId(supplierId), { type: 'OnboardSupplier', data }, metadata);
      await registerSupplierParticipants(uow, data, metadata, { countryCode: 'AE' });
    });
    return response;
  }

  /** The caller's participant named by the path; another tenant's, or one of another area, is a 404 as an unknown one. */
  async find(participantId: string, context: RequestContext): Promise<SupplierRecord> {
    if (!isUuid(participantId)) throw participantNotFound(participantId);
    try {
      return await this.cache.find(this.connections.dataSource, context.tenant.id, uaeDefinition.code, participantId);
    } catch (error) {
      if (error instanceof AppError && error.kind === 'not_found') throw participantNotFound(participantId);
      throw error;
    }
  }
}

function participantNotFound(participantId: string): AppError {
  const message = `No participant ${participantId} for your account.`;
  return new AppError('not_found', 'PARTICIPANT.NOT_FOUND', message, { issues: [issue('participant_id', 'PARTICIPANT.NOT_FOUND', message)] });
}
