import { AppError, SupplierProfile, issue, notFound } from '@einvoice/domain';
import type { DataSource } from 'typeorm';

export interface SupplierRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly area: string;
  readonly profile: SupplierProfile;
  readonly participantIds: readonly string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * Suppliers by id for a short while: every submission names its supplier, and a profile does
 * not change after onboarding (no update endpoint yet; one must invalidate here). Misses are
 * not cached, so a supplier onboarded a moment ago is found at once.
 */
export class SupplierCache {
  private readonly entries = new Map<string, { record: SupplierRecord; until: number }>();

  constructor(private readonly ttlMs = 30_000) {}

  async find(dataSource: DataSource, tenantId: string, area: string, header: string | string[] | undefined): Promise<SupplierRecord> {
    const value = Array.isArray(header) ? header[0] : header;
    const key = `${tenantId}/${area}/${value}`;
    const hit = this.entries.get(key);
    if (hit && hit.until > Date.now()) return hit.record;
    const record = await findSupplier(dataSource, tenantId, area, header);
    if (this.entries.size > 50_000) this.entries.clear();
    this.entries.set(key, { record, until: Date.now() + this.ttlMs });
    return record;
  }
}

/**
 * Reads the `supplier_uuid` header and loads that supplier of the caller's tenant in the given
 * area. Another tenant's supplier is a 404, exactly as an unknown one (never visible).
 */
export async function findSupplier(
  dataSource: DataSource,
  tenantId: string,
  area: string,
  header: string | string[] | undefined,
): Promise<SupplierRecord> {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value === '') {
    throw new AppError('validation', 'SUPPLIER.UUID_REQUIRED', 'The supplier_uuid header is required.', {
      issues: [issue('headers.supplier_uuid', 'FIELD.REQUIRED', 'Send the supplier_uuid returned by onboarding.')],
    });
  }
  if (!isUuid(value)) {
    throw new AppError('validation', 'SUPPLIER.UUID_INVALID', 'supplier_uuid is not a UUID.', {
      issues: [issue('headers.supplier_uuid', 'FIELD.INVALID_FORMAT', 'supplier_uuid must be the UUID returned by onboarding.')],
    });
  }
  const rows: Array<{ id: string; tenant_id: string; area: string; profile: SupplierProfile; participant_ids: string[] | null }> =
    await dataSource.query(
      `SELECT s.id, s.tenant_id, s.area, s.profile,
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
      issues: [issue('headers.supplier_uuid', 'SUPPLIER.NOT_FOUND', error.message)],
    });
  }
  return { id: row.id, tenantId: row.tenant_id, area: row.area, profile: row.profile, participantIds: row.participant_ids ?? [] };
}
