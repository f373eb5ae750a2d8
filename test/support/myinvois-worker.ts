// MyInvois in the reporting worker on real PostgreSQL against the in-memory sandbox: a supplier with
// stored (sealed) credentials, and the area's connector of the reporting pipeline on the sandbox.
import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { SecretBox } from '@einvoice/domain';
import type { EventStore, MessageContext } from '@einvoice/domain/infrastructure';
import { myinvois } from '@einvoice/areas';
import { supplier as supplierFixture } from '../../libs/areas/src/myinvois/fixtures/bodies';

/** Handler calls outside Kafka: nothing to heartbeat. */
export const workerContext: MessageContext = { topic: 't', partition: 0, offset: '0', attempt: 1, headers: {}, heartbeat: async () => undefined };

export const testSecrets = SecretBox.fromKey(randomBytes(32));

/** A Malaysian supplier (read model row) with its MyInvois credentials stored sealed, as onboarding leaves them. */
export async function storeMyInvoisSupplier(dataSource: DataSource, tin = supplierFixture.tin) {
  const supplierId = randomUUID();
  const tenantId = randomUUID();
  const credentials = { clientId: `client-${supplierId}`, clientSecret: 'secret', onBehalfOfTin: tin };
  await dataSource.query(
    `INSERT INTO suppliers (id, tenant_id, area, registered_name, profile, created_at, version) VALUES ($1, $2, 'my', $3, $4, now(), 1)`,
    [supplierId, tenantId, supplierFixture.registeredName, { registeredName: supplierFixture.registeredName, country: 'MYS', identifiers: [{ scheme: 'MY:TIN', id: tin }] }],
  );
  await dataSource.query(`INSERT INTO authority_credentials (supplier_id, authority, client_id, client_secret_sealed) VALUES ($1, $2, $3, $4)`, [
    supplierId, myinvois.MYINVOIS_AUTHORITY, credentials.clientId, testSecrets.seal(credentials.clientSecret),
  ]);
  return { supplierId, tenantId, credentials, supplier: { ...supplierFixture, tin } };
}

/** The area's connector of the reporting pipeline on its own sandbox (validation at the second poll, no waits). */
export function sandboxWorker(store: EventStore) {
  const sandbox = new myinvois.SandboxMyInvois({ validationDelayMs: 0 });
  const query = <T>(sql: string, params?: unknown[]) => store.dataSource.query(sql, params) as Promise<T[]>;
  const connector = new myinvois.MyInvoisReportingConnector({
    connector: sandbox,
    tokens: new myinvois.TokenCache((c) => sandbox.login(c)),
    credentialsOf: myinvois.storedCredentials(query, testSecrets),
    maxRetryAfterMs: 0,
  });
  return { sandbox, connector };
}
