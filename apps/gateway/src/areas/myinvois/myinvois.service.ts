import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, SupplierOnboardedData, issue, supplierDecider, supplierStreamId } from '@einvoice/domain';
import { handleCommand } from '@einvoice/domain/infrastructure';
import { areaOf, myinvois } from '@einvoice/areas';
import { recordResponse } from '../../idempotency/idempotency';
import { Connections } from '../../infrastructure/infrastructure.module';
import { SupplierCache } from '../../suppliers/supplier-lookup';
import { type RequestContext, eventMetadata } from '../../http/request-context';
import { registerSupplierParticipants } from '../../participants/supplier-participants';
import { refuseOnboardedIdentifiers } from '../../suppliers/supplier-identity';
import { MyInvoisAuthority } from './authority';
import { claimSupplierParticipant, onboardingAnswer } from './supplier-participant';

/** Malaysian area (seed 000, "Malaysian area"): onboarding and TIN validation. */
@Injectable()
export class MyInvoisService {
  private readonly suppliers = new SupplierCache();

  constructor(
    private readonly connections: Connections,
    private readonly authority: MyInvoisAuthority,
  ) {}

  /**
   * Validates, then logs in at MyInvois with the supplier's client id/secret before anything is
   * stored: bad credentials are a 400 and leave nothing behind. The token is cached for the
   * supplier; the secret is stored sealed, apart from the event stream. The supplier's PINT MY
   * participant (0230 + TIN) is registered and sent to the SML in the same transaction, as BE/DE/SG
   * onboarding does, unless it is registered here already (`claimSupplierParticipant`).
   */
  async onboard(body: unknown, context: RequestContext) {
    const { supplier, credentials } = myinvois.myInvoisArea.parseOnboarding(body);
    const supplierId = randomUUID();
    const authorityCredentials = { ...credentials, onBehalfOfTin: supplier.tin };
    await this.authority.token(supplierId, authorityCredentials).catch((error: unknown) => {
      throw loginRefusal(error);
    });
    const profile = myinvois.supplierProfileOf(supplier);
    const metadata = eventMetadata(context, areaOf('my').ruleSetId);
    return this.connections.store.transaction(async (uow) => {
      // First, under its lock: whether the TIN's Peppol participant is free decides the answer,
      // which the idempotency record stores (a concurrent retry waits on the same lock).
      // By its TIN alone: its other ids (SST, TTX...) are often `NA`, shared by many suppliers.
      await refuseOnboardedIdentifiers(uow, context.tenant.id, 'my', profile.identifiers.filter((i) => i.scheme === 'MY:TIN'));
      const participant = await claimSupplierParticipant(uow, supplier.tin);
      const data: SupplierOnboardedData = {
        supplierId,
        tenantId: context.tenant.id,
        area: 'my',
        profile,
        participantIds: [...participant.participantIds],
        onboardedAt: new Date().toISOString(),
      };
      const response = onboardingAnswer(supplierId, participant);
      await recordResponse(uow, context.idempotency, 201, response);
      await handleCommand(uow, supplierDecider, supplierStreamId(supplierId), { type: 'OnboardSupplier', data }, metadata);
      await registerSupplierParticipants(uow, data, metadata, { countryCode: myinvois.toAlpha2(supplier.country) });
      await uow.query(...this.authority.storeCredentials(supplierId, authorityCredentials));
      return response;
    });
  }

  /** Asks MyInvois whether the TIN belongs to the given id (the authority's answer, seed shape). */
  async validateTin(supplierHeader: string | undefined, body: unknown, context: RequestContext) {
    const supplier = await this.suppliers.find(this.connections.dataSource, context.tenant.id, 'my', supplierHeader);
    const check = myinvois.myInvoisArea.parseTinValidation(body);
    const tin = supplier.profile.identifiers.find((i) => i.scheme === 'MY:TIN')?.id ?? '';
    const token = await this.authority.token(supplier.id, await this.authority.credentials(supplier.id, tin));
    const valid = await this.authority.connector.validateTin(token, { tin: check.tin_number, idType: check.id_type, idValue: check.id_value });
    if (!valid) {
      throw new AppError('not_found', 'MYINVOIS.TIN_NOT_FOUND', 'MyInvois found no taxpayer with this TIN and ID.', {
        issues: [issue('tin_number', 'MYINVOIS.TIN_NOT_FOUND', `MyInvois does not know TIN ${check.tin_number} with ${check.id_type} ${check.id_value}.`)],
      });
    }
    return { status: 'success', message: `TIN ${check.tin_number} is valid for ${check.id_type} ${check.id_value}.` };
  }
}

/**
 * MyInvois's refusal of the onboarding login, at the field it is about: the TIN the intermediary
 * acts on behalf of (`onbehalfof`: `tin_number`), else the client credentials (`client_id`).
 * Anything else (MyInvois down) goes on as it is.
 */
function loginRefusal(error: unknown): unknown {
  if (!(error instanceof AppError) || error.retriable || error.issues.length > 0) return error;
  if (error.kind !== 'validation' && error.kind !== 'forbidden' && error.kind !== 'unauthenticated') return error;
  const authority = error.details.authorityError as { target?: string; code?: string; message?: string } | undefined;
  const path = authority?.target === 'onbehalfof' ? 'tin_number' : 'client_id';
  return new AppError('validation', error.code, error.message, { issues: [issue(path, error.code, error.message)] });
}
