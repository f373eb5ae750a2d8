import { AppError, type SupplierIdentifier } from '@einvoice/domain';
import type { UnitOfWork } from '@einvoice/domain/infrastructure';

/**
 * Advisory lock namespace of a tenant's supplier identifiers in an area (#47); the others are listed
 * in participants/supplier-participants.ts.
 */
const SUPPLIER_IDENTIFIER_LOCK = 7312017;

/**
 * Refuses to onboard again what the tenant onboarded in the area already: 409 SUPPLIER.EXISTS naming the
 * supplier that holds one of these identifiers (`data.supplier_id`), active or not, so the caller can use
 * (or correct) it instead of guessing. Every onboarding path calls it in its transaction, before
 * `OnboardSupplier`: each identifier is locked first, so two concurrent onboardings of one identifier
 * see each other. Another tenant's supplier is never named (a participant id another tenant holds stays
 * PARTICIPANT.ALREADY_REGISTERED, which names no supplier).
 */
export async function refuseOnboardedIdentifiers(uow: UnitOfWork, tenantId: string, area: string, identifiers: readonly SupplierIdentifier[]): Promise<void> {
  const keys = [...new Set(identifiers.map((i) => `${i.scheme}:${i.id}`))].sort();
  for (const key of keys) await uow.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [SUPPLIER_IDENTIFIER_LOCK, `${tenantId}/${area}/${key}`]);
  const [held] = await uow.query<{ id: string; status: string; identifiers: SupplierIdentifier[] }>(
    `SELECT id, status, profile->'identifiers' AS identifiers FROM suppliers
     WHERE tenant_id = $1 AND area = $2 AND profile->'identifiers' @> ANY($3::jsonb[])
     ORDER BY created_at LIMIT 1`,
    [tenantId, area, identifiers.map((i) => JSON.stringify([{ scheme: i.scheme, id: i.id }]))],
  );
  if (!held) return;
  const shared = identifiers.find((i) => held.identifiers.some((h) => h.scheme === i.scheme && h.id === i.id));
  const named = shared ? `${shared.scheme} ${shared.id}` : 'this identifier';
  throw new AppError('conflict', 'SUPPLIER.EXISTS', `Your account onboarded ${named} in this area already: supplier ${held.id}${held.status === 'active' ? '' : ' (deactivated)'}. Use it, or change it with PATCH /v1/suppliers/${held.id}.`, {
    details: { data: { supplier_id: held.id } },
  });
}
