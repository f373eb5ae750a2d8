import { randomUUID } from 'node:crypto';
import { type SupplierOnboardedData, SecretBox, supplierDecider, supplierStreamId } from '@einvoice/domain';
import { handleCommand } from '@einvoice/domain/infrastructure';
import { areaOf } from '@einvoice/areas';
import { type RequestContext, eventMetadata } from '../http/request-context';
import { recordResponse } from '../idempotency/idempotency';
import { registerSupplierParticipants } from '../participants/supplier-participants';
import { refuseOnboardedIdentifiers } from '../suppliers/supplier-identity';
import type { Connections } from '../infrastructure/infrastructure.module';
import { onboardingCodec } from './area-codecs';
import type { AreaConnectors } from './area-connectors';

/**
 * A supplier's onboarding in an area (its `onboarding` codec): the body read into a profile, the
 * credentials checked with the authority (outside any transaction), then the 201 answer, the sealed
 * secrets, `SupplierOnboarded` (409 SUPPLIER.EXISTS where the tenant onboarded one of its identifiers
 * in the area already) and, in an area that delivers over Peppol (`exchange`), the supplier's
 * participants, in one transaction.
 */
export class Onboarding {
  private readonly secretBox = SecretBox.fromEnv();

  constructor(
    private readonly connections: Connections,
    private readonly connectors: AreaConnectors,
  ) {}

  async onboard(code: string, body: unknown, context: RequestContext) {
    const area = areaOf(code);
    const onboarding = onboardingCodec(area);
    const parsedProfile = onboarding.parse(body);
    const sealedSecrets = onboarding.secrets?.(body) ?? {};
    const secrets = Object.entries(sealedSecrets);
    const told = await this.connectors.verifyCredentials(area, sealedSecrets, parsedProfile);
    const profile = told ? { ...parsedProfile, areaDetails: { ...parsedProfile.areaDetails, ...told } } : parsedProfile;
    const supplierId = randomUUID();
    // An area that delivers over Peppol: the supplier is a participant here, by each of its identifiers.
    const participantIds = area.exchange ? [...new Set(area.exchange.participantIds(profile))] : [];
    const data: SupplierOnboardedData = { supplierId, tenantId: context.tenant.id, area: code, profile, participantIds, onboardedAt: new Date().toISOString() };
    const response = onboarding.respond?.(supplierId, profile) ?? { status: 'success', message: 'Supplier onboarded.', data: { supplier_uuid: supplierId } };
    const metadata = eventMetadata(context, area.ruleSetId);
    await this.connections.store.transaction(async (uow) => {
      // The idempotency record first: a concurrent retry with the same key waits on it and then
      // replays this answer, instead of tripping over the rows this request creates.
      await recordResponse(uow, context.idempotency, 201, response);
      await refuseOnboardedIdentifiers(uow, context.tenant.id, code, profile.identifiers);
      for (const [name, value] of secrets) {
        await uow.write(`INSERT INTO supplier_secrets (supplier_id, name, sealed) VALUES ($1, $2, $3)`, [supplierId, name, this.secretBox.seal(value)]);
      }
      await handleCommand(uow, supplierDecider, supplierStreamId(supplierId), { type: 'OnboardSupplier', data }, metadata);
      // Registered and sent to the SML at once, so the supplier can receive; an id registered here already is a 409.
      await registerSupplierParticipants(uow, data, metadata);
    });
    return response;
  }
}
