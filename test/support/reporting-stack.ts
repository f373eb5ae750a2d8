import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from './database';
import { Client } from './http';
import { type AppProcess, startApp, startGateway } from './stack';

/**
 * The apps the e2e tests of a `sync` reporting area run (Jordan, Nigeria): a gateway whose answers wait
 * up to 20 s for the authority's, a reporting worker, and clients of two tenants (`other` must see
 * nothing of `client`'s).
 */
export class ReportingStack {
  dataSource!: DataSource;
  client!: Client;
  other!: Client;
  worker: AppProcess | undefined;
  private gateway: AppProcess | undefined;

  constructor(
    private readonly name: string,
    private readonly workerEnv: NodeJS.ProcessEnv,
  ) {}

  async start(): Promise<this> {
    ({ dataSource: this.dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(this.dataSource, `e2e ${this.name}`);
    const { apiKey: otherKey } = await createTenant(this.dataSource, `e2e ${this.name} other`);
    const started = await startGateway({ AUTHORITY_WAIT_MS: '20000' });
    this.gateway = started.app;
    this.client = new Client(started.url, apiKey);
    this.other = new Client(started.url, otherKey);
    this.worker = startApp('reporting-worker', this.workerEnv);
    return this;
  }

  /** A reporting worker in place of the running one (a crash test's slow one, then the usual one again). */
  async replaceWorker(env: NodeJS.ProcessEnv = this.workerEnv): Promise<AppProcess> {
    await this.worker?.stop();
    this.worker = startApp('reporting-worker', env);
    return this.worker;
  }

  async stop(): Promise<void> {
    await this.worker?.stop();
    await this.gateway?.stop();
    await this.dataSource?.destroy();
  }
}
