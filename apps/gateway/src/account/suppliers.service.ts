/**
 * Suppliers of every area in one place (#47, docs/account-api.md): the list, one supplier, a change
 * its area lets make, its deactivation. Changes are commands on the supplier's stream (UpdateSupplier,
 * DeactivateSupplier), so the read model, the outbox and every reader stay as consistent as onboarding
 * leaves them; nothing here writes the read model.
 */
import { Injectable } from '@nestjs/common';
import { type FieldIssue, type SupplierProfile, issue, notFound, supplierDecider, supplierInactive, supplierStreamId, validationError } from '@einvoice/domain';
import { handleCommand } from '@einvoice/domain/infrastructure';
import { areaOf, areas } from '@einvoice/areas';
import { type RequestContext, eventMetadata } from '../http/request-context';
import { Connections } from '../infrastructure/infrastructure.module';
import { forgetSupplier, isUuid } from '../suppliers/supplier-lookup';
import { type Page, pageRequestIssues, toPage } from './page';
import { type SupplierDetail, type SupplierListItem, type SupplierRow, detailOf, listItemOf } from './supplier-views';

const LIST_COLUMNS = `id, area, registered_name, profile, status, created_at, updated_at`;
/** The list's parameters: any other is a 400 (a misspelt filter would silently widen the list), as /v1/documents. */
const LIST_PARAMETERS = ['area', 'limit', 'starting_after'];

@Injectable()
export class SuppliersAccountService {
  constructor(private readonly connections: Connections) {}

  /** `GET /v1/suppliers`: newest first, `area` one code or several (comma-separated). */
  async list(query: Readonly<Record<string, unknown>>, context: RequestContext): Promise<Page<SupplierListItem>> {
    const { page, issues } = pageRequestIssues(query);
    for (const name of Object.keys(query)) {
      if (!LIST_PARAMETERS.includes(name)) issues.push(issue(name, 'FIELD.INVALID_VALUE', `${name} is not a parameter of this list; it takes ${LIST_PARAMETERS.join(', ')}.`));
    }
    const areaCodes = areaFilter(query.area, issues);
    if (issues.length) throw validationError(issues, 'The list query is invalid.');
    const params: unknown[] = [context.tenant.id, page.limit + 1];
    let where = 'tenant_id = $1';
    if (areaCodes) {
      params.push(areaCodes);
      where += ` AND area = ANY($${params.length})`;
    }
    if (page.startingAfter) {
      const [cursor] = await this.connections.dataSource.query(`SELECT 1 FROM suppliers WHERE id = $1 AND tenant_id = $2`, [page.startingAfter, context.tenant.id]);
      if (!cursor) throw validationError([issue('starting_after', 'FIELD.INVALID_VALUE', 'starting_after is not one of your suppliers: send the id of the last supplier of the page before.')], 'The list query is invalid.');
      params.push(page.startingAfter);
      // Row comparison on the list's index (tenant_id, created_at DESC, id DESC): the page starts right after the cursor's row.
      where += ` AND (created_at, id) < (SELECT created_at, id FROM suppliers WHERE id = $${params.length})`;
    }
    const rows: SupplierRow[] = await this.connections.dataSource.query(
      `SELECT ${LIST_COLUMNS} FROM suppliers WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $2`,
      params,
    );
    return toPage(rows.map(listItemOf), page.limit);
  }

  /** `GET /v1/suppliers/{id}`. */
  async get(id: string, context: RequestContext): Promise<{ status: 'success'; data: SupplierDetail }> {
    return { status: 'success', data: detailOf(await this.own(id, context)) };
  }

  /**
   * `PATCH /v1/suppliers/{id}`: the fields its area lets change (registry `onboarding.revise`), in its
   * onboarding body's names, checked by its onboarding's rules; the tax identifier never.
   */
  async update(id: string, body: unknown, context: RequestContext): Promise<{ status: 'success'; data: SupplierDetail }> {
    const row = await this.own(id, context);
    const area = areaOf(row.area);
    const revise = area.onboarding?.revise;
    const change = changeOf(body, revise?.fields ?? [], area.name);
    if (row.status !== 'active') throw supplierInactive(row.id);
    // changeOf refused every field where the area has no `revise`.
    const profile = revise ? revise.apply(row.profile, change) : row.profile;
    if (!sameProfile(profile, row.profile)) {
      await this.connections.store.transaction(async (uow) => {
        const data = { supplierId: row.id, tenantId: context.tenant.id, area: row.area, profile, changed: Object.keys(change), updatedAt: new Date().toISOString() };
        await handleCommand(uow, supplierDecider, supplierStreamId(row.id), { type: 'UpdateSupplier', data }, eventMetadata(context, area.ruleSetId));
      });
      forgetSupplier(row.id);
    }
    return this.get(id, context);
  }

  /** `DELETE /v1/suppliers/{id}`: it takes no new documents (409 SUPPLIER.INACTIVE); reads go on. Again: nothing more. */
  async deactivate(id: string, context: RequestContext): Promise<void> {
    const row = await this.own(id, context);
    await this.connections.store.transaction(async (uow) => {
      const data = { supplierId: row.id, tenantId: context.tenant.id, area: row.area, deactivatedAt: new Date().toISOString() };
      await handleCommand(uow, supplierDecider, supplierStreamId(row.id), { type: 'DeactivateSupplier', data }, eventMetadata(context, areaOf(row.area).ruleSetId));
    });
    forgetSupplier(row.id);
  }

  /** The caller's supplier; another tenant's is a 404 exactly as an unknown one. */
  private async own(id: string, context: RequestContext): Promise<SupplierRow> {
    if (!isUuid(id)) throw validationError([issue('id', 'FIELD.INVALID_FORMAT', 'A supplier id is the UUID its onboarding answered.')]);
    const [row]: SupplierRow[] = await this.connections.dataSource.query(
      `SELECT s.id, s.area, s.registered_name, s.profile, s.status, s.created_at, s.updated_at,
              array_remove(array_agg(p.participant_id ORDER BY p.participant_id), NULL) AS participant_ids
       FROM suppliers s LEFT JOIN supplier_participants p ON p.supplier_id = s.id
       WHERE s.id = $1 AND s.tenant_id = $2
       GROUP BY s.id`,
      [id, context.tenant.id],
    );
    if (!row) throw notFound('SUPPLIER.NOT_FOUND', `No supplier ${id} is onboarded for your account.`);
    return row;
  }
}

/** The `area` filter: registered area codes, comma-separated; undefined when absent. */
function areaFilter(value: unknown, issues: FieldIssue[]): string[] | undefined {
  if (value === undefined) return undefined;
  const known = areas.map((a) => a.code);
  const codes = typeof value === 'string' ? value.split(',').map((c) => c.trim().toLowerCase()) : [];
  const unknown = codes.filter((c) => !known.includes(c));
  if (!codes.length || unknown.length || codes.includes('')) {
    issues.push(issue('area', 'FIELD.INVALID_VALUE', `area is one or several of ${known.join(', ')}, comma-separated; it is ${JSON.stringify(value)}.`));
    return undefined;
  }
  return [...new Set(codes)];
}

/** The change a PATCH body asks: a non-empty JSON object naming only fields its area lets change. */
function changeOf(body: unknown, fields: readonly string[], areaName: string): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw validationError([issue('', 'FIELD.INVALID_TYPE', 'Send a JSON object with the fields to change.')]);
  }
  const change = body as Record<string, unknown>;
  const names = Object.keys(change);
  if (!names.length) throw validationError([issue('', 'FIELD.REQUIRED', `Send at least one field to change: ${fields.join(', ') || 'none in this area'}.`)]);
  const refused = names.filter((name) => !fields.includes(name));
  if (refused.length) {
    const allowed = fields.length ? `${areaName} lets change ${fields.join(', ')}` : `${areaName} lets nothing change after onboarding`;
    throw validationError(
      refused.map((name) => issue(name, 'FIELD.NOT_EDITABLE', `${name} cannot change after onboarding (${allowed}); a supplier with another tax identifier is another supplier: onboard it.`)),
      'The change names fields its area does not let change.',
    );
  }
  return change;
}

/** Equal profiles whatever their keys' order (jsonb keeps its own) and absent fields: a change to nothing records nothing. */
function sameProfile(a: SupplierProfile, b: SupplierProfile): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1))) : v,
  );
}
