/**
 * One installation of the service in PEPPOL_MODE=live for tests and the bench (#46): its own
 * database and topic prefix (so that two share this machine's PostgreSQL, Kafka broker and Redis
 * without meeting), its AS4 engine (engines/as4, the test PKI's AP certificate) and its apps. Two of
 * them on loopback are two Peppol access points: what one sends crosses real AS4 to the other.
 */
import type { DataSource } from 'typeorm';
import { createDataSource } from '@einvoice/domain/infrastructure';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { startAs4Engine, type TestAs4Engine } from './as4-engine';
import type { PeppolTestPki, TestCredential } from './peppol-pki';
import { ownDatabase, prepareOwnDatabase } from './own-database';
import { type AppName, type AppProcess, startApp, startGateway, testEnv, untilWorkersReady } from './stack';

export interface PeppolInstallationOptions {
  /** A short name: the database is `<the run's database>_<name>_test` unless `ownDatabase` is false. */
  readonly name: string;
  readonly pki: PeppolTestPki;
  /** Its AP certificate; its seat id (CN `PBE000001`) gives the service provider id `0242:000001`. */
  readonly ap: TestCredential;
  /** PEPPOL_SERVICE_PROVIDER_COUNTRY. */
  readonly country: string;
  /** The gateway's port, known before it starts: its engine calls it back and the test SML routes to its SMP. */
  readonly port: number;
  /** PEPPOL_SMP_URL of its engine (a TestSmlRouter over every installation's SMP). */
  readonly smlUrl: string;
  /** false: the run's own database and topic prefix (the one `npm test` prepared). */
  readonly ownDatabase?: boolean;
  /** The workers it runs besides the gateway and its delivery worker. */
  readonly workers?: readonly AppName[];
  readonly env?: Record<string, string>;
}

export interface PeppolInstallation {
  readonly url: string;
  readonly engine: TestAs4Engine;
  readonly dataSource: DataSource;
  readonly apiKey: string;
  /** `0242:000001` */
  readonly serviceProviderId: string;
  readonly env: NodeJS.ProcessEnv;
  readonly apps: Map<AppName, AppProcess>;
  /** Starts (again) one of its apps with its settings. */
  start(app: Exclude<AppName, 'gateway'>): AppProcess;
  stop(): Promise<void>;
}

export async function startPeppolInstallation(options: PeppolInstallationOptions): Promise<PeppolInstallation> {
  const base = testEnv();
  const own = options.ownDatabase !== false;
  const { databaseUrl, env: { KAFKA_TOPIC_PREFIX: prefix } } = own ? ownDatabase(options.name) : { databaseUrl: String(base.DATABASE_URL), env: { KAFKA_TOPIC_PREFIX: String(base.KAFKA_TOPIC_PREFIX) } };
  const serviceProviderId = `0242:${options.ap.commonName.slice(3)}`;
  // The engine's JVM start and the database's reset, schema and topics at once (the engine needs no
  // database, the CLI no engine), and without blocking the event loop: a second installation started
  // alongside goes on meanwhile.
  const [engineStart, databaseReady] = await Promise.allSettled([
    startAs4Engine({
      name: options.name,
      pki: options.pki,
      ap: options.ap,
      smpUrl: options.smlUrl,
      callbackUrl: `http://127.0.0.1:${options.port}/internal/peppol/inbound`,
    }),
    own ? prepareOwnDatabase(testEnv({ DATABASE_URL: databaseUrl, KAFKA_TOPIC_PREFIX: prefix }), `installation ${options.name}`) : Promise.resolve(),
  ]);
  if (engineStart.status === 'rejected' || databaseReady.status === 'rejected') {
    if (engineStart.status === 'fulfilled') await engineStart.value.stop();
    throw engineStart.status === 'rejected' ? engineStart.reason : (databaseReady as PromiseRejectedResult).reason;
  }
  const engine = engineStart.value;
  const env: NodeJS.ProcessEnv = testEnv({
    DATABASE_URL: databaseUrl,
    KAFKA_TOPIC_PREFIX: prefix,
    PEPPOL_MODE: 'live',
    AS4_ENGINE_URL: engine.controlUrl,
    AS4_ENGINE_SECRET: engine.secret,
    AS4_PUBLIC_URL: engine.as4Url,
    PEPPOL_SERVICE_PROVIDER_ID: serviceProviderId,
    PEPPOL_SERVICE_PROVIDER_COUNTRY: options.country,
    PEPPOL_AP_KEYSTORE: options.ap.keystore,
    PEPPOL_AP_KEYSTORE_PASSWORD: options.pki.password,
    PEPPOL_SMP_KEYSTORE: options.pki.smp.keystore,
    PEPPOL_SMP_KEYSTORE_PASSWORD: options.pki.password,
    ...options.env,
  });
  const apps = new Map<AppName, AppProcess>();
  let dataSource: DataSource | undefined;
  const stop = async () => {
    await Promise.all([...apps.values()].map((app) => app.stop()));
    await engine.stop();
    await dataSource?.destroy();
  };
  try {
    dataSource = createDataSource({ databaseUrl, poolSize: 4, applicationName: `einvoice-test-${options.name}` });
    await dataSource.initialize();
    const { apiKey } = await createTenant(dataSource, `installation ${options.name}`);
    const gateway = await startGateway({ ...(env as Record<string, string>), PORT: String(options.port) });
    apps.set('gateway', gateway.app);
    const start = (app: Exclude<AppName, 'gateway'>) => {
      const started = startApp(app, env);
      apps.set(app, started);
      return started;
    };
    const workers: Exclude<AppName, 'gateway'>[] = ['delivery-worker', ...(options.workers ?? []).filter((w): w is Exclude<AppName, 'gateway'> => w !== 'gateway' && w !== 'delivery-worker')];
    workers.forEach(start);
    await untilWorkersReady(gateway, ...workers);
    return { url: gateway.url, engine, dataSource, apiKey, serviceProviderId, env, apps, start, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
