import { type SupplierProfile, issue, notFound, validationError } from '@einvoice/domain';
import { measuredConnector } from '@einvoice/domain/infrastructure';
import type { AreaDefinition, AuthorityConnector } from '@einvoice/areas';
import type { Connections } from '../infrastructure/infrastructure.module';

/**
 * The areas' authority connectors as the gateway itself asks them (credential checks at onboarding,
 * reads for a supplier), made once per area. Always outside any transaction: these are network calls.
 */
export class AreaConnectors {
  private readonly connectors = new Map<string, AuthorityConnector>();

  constructor(private readonly connections: Connections) {}

  /**
   * The authority's check of the credentials a supplier gives at onboarding (connector
   * `verifyCredentials`), before anything is stored: a refusal is a 400 at the field the area names
   * (its `path`), with the authority's code and message; else what the authority told of the supplier.
   */
  async verifyCredentials(area: AreaDefinition, secrets: Readonly<Record<string, string>>, profile: SupplierProfile): Promise<Readonly<Record<string, unknown>> | undefined> {
    if (!Object.keys(secrets).length) return undefined;
    const connector = this.of(area);
    if (!connector?.verifyCredentials) return undefined;
    const check = await connector.verifyCredentials(secrets, profile);
    if ('refused' in check) throw validationError([issue(check.refused.path ?? '', check.refused.code, check.refused.message)]);
    return check.details;
  }

  /** A read from the authority for a supplier (connector `read`); 404 where the area's authority answers none. */
  async read(area: AreaDefinition, supplier: { readonly id: string; readonly profile: SupplierProfile }, name: string, params: Readonly<Record<string, unknown>>): Promise<unknown> {
    const connector = this.of(area);
    if (!connector?.read) throw notFound('AUTHORITY.NO_READ', `The ${area.name} authority answers no ${name}.`);
    return connector.read(name, params, supplier);
  }

  private of(area: AreaDefinition): AuthorityConnector | undefined {
    if (!area.authority.connector) return undefined;
    let connector = this.connectors.get(area.code);
    if (!connector) {
      const query = (sql: string, parameters?: unknown[]) => this.connections.dataSource.query(sql, parameters);
      connector = measuredConnector(area.code, area.authority.connector({ query: query as never, env: process.env }));
      this.connectors.set(area.code, connector);
    }
    return connector;
  }
}
