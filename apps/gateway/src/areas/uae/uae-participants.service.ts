import { Injectable } from '@nestjs/common';
import { AppError, issue } from '@einvoice/domain';
import { uae } from '@einvoice/areas';
import type { RequestContext } from '../../http/request-context';
import { Connections } from '../../infrastructure/infrastructure.module';
import { SupplierCache, type SupplierRecord, isUuid } from '../../suppliers/supplier-lookup';

/**
 * The participant a UAE route names in its path (issue 10 "Participants"): a supplier of area `ae`,
 * onboarded through the pipeline (libs/areas/src/uae/codec.ts `uaeOnboarding`). The seed's 404 is its
 * own (`PARTICIPANT.NOT_FOUND` at `participant_id`), so it is found here before the pipeline runs.
 */
@Injectable()
export class UaeParticipantsService {
  private readonly cache = new SupplierCache();

  constructor(private readonly connections: Connections) {}

  /** The caller's participant named by the path; another tenant's, or one of another area, is a 404 as an unknown one. */
  async find(participantId: string, context: RequestContext): Promise<SupplierRecord> {
    if (!isUuid(participantId)) throw participantNotFound(participantId);
    try {
      return await this.cache.find(this.connections.dataSource, context.tenant.id, uae.uaeDefinition.code, participantId);
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
