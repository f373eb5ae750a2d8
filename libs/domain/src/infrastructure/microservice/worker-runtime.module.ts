import { type DynamicModule, Inject, Injectable, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { EventRegistry } from '../plugins';
import { openWorkerRuntime, type WorkerDefaults, type WorkerRuntime } from '../runtime';
import { stopTracing } from '../tracing';

/** Injection token of the worker's `WorkerRuntime` (configuration, database pool, event store, Kafka client). */
export const WORKER_RUNTIME = 'WorkerRuntime';

/**
 * Starts the worker's outbox relay before it consumes; on shutdown, after the consumers and everything
 * else (see WorkerRuntimeModule), stops it (what it publishes is marked), closes the database pool and
 * sends the spans still buffered.
 */
@Injectable()
class RuntimeLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(WORKER_RUNTIME) private readonly runtime: WorkerRuntime) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.runtime.publishing.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runtime.publishing.stop();
    await this.runtime.dataSource.destroy();
    await stopTracing();
  }
}

/**
 * The runtime every worker holds, as a provider. Nest calls shutdown hooks module by module, the
 * importing module before the imported one (by import depth), so a module that imports this one
 * is stopped before the pool closes; a provider of the worker's root module that must stop before
 * another (the sweeper before the queue it fills) lives in a module between the two.
 */
@Module({})
export class WorkerRuntimeModule {
  private static readonly byApp = new Map<string, DynamicModule>();

  /**
   * The module of worker `app` (consumer group `${prefix}.${app}`): one object per app, so that
   * several modules importing it share one runtime (Nest tells dynamic modules apart by reference).
   * `registry`: the app's `platformEventRegistry(areaEventPlugins())`, built before anything connects;
   * `defaults`: what the app sets for itself where the environment says nothing (runtime.ts).
   */
  static forWorker(app: string, registry: EventRegistry, defaults?: WorkerDefaults): DynamicModule {
    let module = this.byApp.get(app);
    if (!module) {
      module = {
        module: WorkerRuntimeModule,
        providers: [{ provide: WORKER_RUNTIME, useFactory: () => openWorkerRuntime(app, registry, process.env, defaults) }, RuntimeLifecycle],
        exports: [WORKER_RUNTIME],
      };
      this.byApp.set(app, module);
    }
    return module;
  }
}
