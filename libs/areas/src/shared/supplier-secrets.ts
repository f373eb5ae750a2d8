import type { SecretBox } from '@einvoice/domain';
import type { ConnectorQuery } from '../registry/area';

/**
 * What a supplier gave at onboarding for its authority (onboarding `secrets`: sealed in
 * `supplier_secrets`), opened for a live connector's calls for that supplier only, by name.
 */
export async function openSupplierSecrets(query: ConnectorQuery, box: SecretBox, supplierId: string, names: readonly string[]): Promise<Map<string, string>> {
  const rows = await query<{ name: string; sealed: string }>(`SELECT name, sealed FROM supplier_secrets WHERE supplier_id = $1 AND name = ANY($2)`, [supplierId, names]);
  return new Map(rows.map((r) => [r.name, box.open(r.sealed)]));
}
