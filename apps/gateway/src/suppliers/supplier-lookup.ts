import { AppError, SupplierProfile, issue, notFound, supplierInactive } from '@einvoice/domain';
import { areaOf, supplierHeaderOf } from '@einvoice/areas';
import type { DataSource } from 'typeorm';

export interface SupplierRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly area: string;
  readonly profile: SupplierProfile;
  readonly participantIds: readonly string[];
  /** False once deactivated (`DELETE /v1/suppliers/{id}`): reads go on, new documents are refused (`activeSupplier`). */
  readonly active: boolean;
}

/** The supplier a new document names, refused with 409 SUPPLIER.INACTIVE once it was deactivated (#47). */
export function activeSupplier(record: SupplierRecord): SupplierRecord {
  if (!record.active) throw supplierInactive(record.id);
  return record;
}

/** Every cache of this process, so that a change to a supplier made here is seen at once by all (`forgetSupplier`). */
const caches = new Set<SupplierCache>();

/** Drops a supplier from every cache of this process, after a change to it committed (#47; supplier-changes.ts). */
export function forgetSupplier(supplierId: string): void {
  for (const cache of caches) cache.forget(supplierId);
}

/** Empties every cache of this process (changes may have been missed: supplier-changes.ts). */
export function forgetEverySupplier(): void {
  for (const cache of caches) cache.clear();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * Suppliers by id for a short while: every submission names its supplier. A change (`/v1/suppliers`,
 * #47) drops the supplier from every cache of the process that made it at once (`forgetSupplier`), and
 * of every other gateway when its NOTIFY arrives (supplier-changes.ts); `ttlMs` bounds what a lost
 * notification could leave. Misses are not cached, so a supplier onboarded a moment ago is found at once.
 */
export class SupplierCache {
  private readonly entries = new Map<string, { record: SupplierRecord; until: number }>();

  constructor(private readonly ttlMs = 30_000) {
    caches.add(this);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Drops every entry of this supplier (whichever header value found it). */
  forget(supplierId: string): void {
    for (const [key, entry] of this.entries) if (entry.record.id === supplierId) this.entries.delete(key);
  }

  /**
   * The supplier the value of the area's supplier header names (`@SeedHeader(supplierHeaderOf(area))`):
   * by its id, or by the identifier its `supplierRef` names; errors name that header.
   */
  async find(dataSource: DataSource, tenantId: string, area: string, value: string | undefined): Promise<SupplierRecord> {
    const key = `${tenantId}/${area}/${value}`;
    const hit = this.entries.get(key);
    if (hit && hit.until > Date.now()) return hit.record;
    const { supplierRef } = areaOf(area);
    const record = supplierRef?.identifier
      ? await findSupplierBy(dataSource, tenantId, area, value, { header: supplierRef.header, ...supplierRef.identifier })
      : await findSupplier(dataSource, tenantId, area, value);
    if (this.entries.size > 50_000) this.entries.clear();
    this.entries.set(key, { record, until: Date.now() + this.ttlMs });
    return record;
  }
}

/** An area whose callers name the supplier by an identifier (area registry `supplierRef.identifier`). */
export interface SupplierKey {
  readonly header: string;
  readonly scheme: string;
  normalize(value: string): string;
  valid(value: string): boolean;
}

/** The supplier of the caller's tenant in the area holding this identifier (Argentina: its CUIT); 400 when malformed, 404 when unknown. */
async function findSupplierBy(dataSource: DataSource, tenantId: string, area: string, value: string | undefined, by: SupplierKey): Promise<SupplierRecord> {
  const at = `headers.${by.header}`;
  if (value === undefined || value === '') throw new AppError('validation', 'SUPPLIER.KEY_REQUIRED', `The ${by.header} header is required.`, { issues: [issue(at, 'FIELD.REQUIRED', `Send the ${by.header} the supplier was onboarded with.`)] });
  const id = by.normalize(value);
  if (!by.valid(id)) throw new AppError('validation', 'SUPPLIER.KEY_INVALID', `${by.header} is not valid.`, { issues: [issue(at, 'FIELD.INVALID_FORMAT', `${by.header} is not a valid ${by.scheme} (check digit).`)] });
  const rows: Array<{ id: string; tenant_id: string; area: string; profile: SupplierProfile; status: string }> = await dataSource.query(
    `SELECT id, tenant_id, area, profile, status FROM suppliers WHERE tenant_id = $1 AND area = $2 AND profile->'identifiers' @> $3::jsonb ORDER BY created_at LIMIT 1`,
    [tenantId, area, JSON.stringify([{ scheme: by.scheme, id }])],
  );
  const row = rows[0];
  if (!row) throw new AppError('not_found', 'SUPPLIER.NOT_FOUND', `No supplier with ${by.header} ${id} is onboarded in this area for your account.`, { issues: [issue(at, 'SUPPLIER.NOT_FOUND', `Unknown ${by.header}.`)] });
  return { id: row.id, tenantId: row.tenant_id, area: row.area, profile: row.profile, participantIds: [], active: row.status === 'active' };
}

/**
 * Loads the supplier of the caller's tenant in the given area that the area's supplier header names
 * (`supplier_uuid`, or `participant-id` where the seed says so: errors name the route's own header).
 * Another tenant's supplier is a 404, exactly as an unknown one (never visible).
 */
export async function findSupplier(dataSource: DataSource, tenantId: string, area: string, value: string | undefined): Promise<SupplierRecord> {
  const header = supplierHeaderOf(areaOf(area));
  const at = `headers.${header}`;
  if (value === undefined || value === '') {
    throw new AppError('validation', 'SUPPLIER.UUID_REQUIRED', `The ${header} header is required.`, {
      issues: [issue(at, 'FIELD.REQUIRED', `Send the ${header} returned by onboarding.`)],
    });
  }
  if (!isUuid(value)) {
    throw new AppError('validation', 'SUPPLIER.UUID_INVALID', `${header} is not a UUID.`, {
      issues: [issue(at, 'FIELD.INVALID_FORMAT', `${header} must be the UUID returned by onboarding.`)],
    });
  }
  const rows: Array<{ id: string; tenant_id: string; area: string; profile: SupplierProfile; status: string; participant_ids: string[] | null }> =
    await dataSource.query(
      `SELECT s.id, s.tenant_id, s.area, s.profile, s.status,
              array_remove(array_agg(p.participant_id), NULL) AS participant_ids
       FROM suppliers s LEFT JOIN supplier_participants p ON p.supplier_id = s.id
       WHERE s.id = $1 AND s.tenant_id = $2 AND s.area = $3
       GROUP BY s.id`,
      [value, tenantId, area],
    );
  const row = rows[0];
  if (!row) {
    const error = notFound('SUPPLIER.NOT_FOUND', `No supplier ${value} is onboarded in this area for your account.`);
    throw new AppError('not_found', error.code, error.message, {
      issues: [issue(at, 'SUPPLIER.NOT_FOUND', error.message)],
    });
  }
  return { id: row.id, tenantId: row.tenant_id, area: row.area, profile: row.profile, participantIds: row.participant_ids ?? [], active: row.status === 'active' };
}
