import type { DataSource } from 'typeorm';
import type { Logger } from '../../log';
import type { InfrastructureConfig } from '../config';
import type { EventStoreOptions, OutboxRelay } from '../eventstore';
import type { KafkaEventPublisher } from '../kafka';
import { metrics } from '../metrics';
import type { EventRegistry } from '../plugins';
import { type AppRelaySettings, appPublisher, appRelay } from './app-relay';
import { RelayThread, type RelayRunner } from './relay-on-thread';

export interface OutboxPublishingOptions {
  /** The app (`gateway`, `delivery-worker`...): its log, Kafka client id and the relay's sessions' names. */
  readonly app: string;
  /** The app's settings: `outboxRelay` (OUTBOX_RELAY) says where its relay runs, if anywhere. */
  readonly config: InfrastructureConfig;
  /** The app's `platformEventRegistry(areaEventPlugins())` (each event's `x-area`). */
  readonly registry: EventRegistry;
  /** The app's pool: the relay's backlog and parked rows, its failures, a stand-in's looks. */
  readonly dataSource: DataSource;
  readonly log: Logger;
  /**
   * A worker's relay stands in: it publishes only while no gateway's relay runs, and gives the lead back
   * when one starts (relay-lease.ts). A gateway's leads first (false).
   */
  readonly standIn: boolean;
  /**
   * The app's compiled relay thread entry (compiledThreadEntry; one calling runRelayThread), where the
   * app runs its relay on a thread of its own when OUTBOX_RELAY is `thread`; none: on its main thread.
   */
  readonly threadEntry?: string;
}

/**
 * How an app that writes events publishes the outbox: every app runs a relay (OUTBOX_RELAY, default on)
 * and one relay of the stack publishes at a time (relay-lease.ts: an advisory lock, a gateway's first),
 * so events a worker decides reach Kafka while no gateway runs. The relay runs on a thread of its own
 * when the app gives one (the gateway: its request thread is what limits the accept path, issue 11),
 * otherwise on the app's thread (the workers: see docs/architecture.md "The event store, the outbox and
 * Kafka"). Its lead is logged and exported (`einvoice_outbox_relay_leading`).
 */
export class OutboxPublishing {
  /** Publishes when the relay runs in-process; probes the brokers for the gateway's /health in any case. */
  readonly publisher: KafkaEventPublisher;
  /** The outbox's backlog and parked rows (the gateway's /health); the publishing relay too when it runs in-process. */
  readonly relay: OutboxRelay;
  /** What publishes (config `outboxRelay`): `relay`, a RelayThread, or none. */
  private readonly relaying?: RelayRunner;
  private readonly onThread: boolean;

  constructor(private readonly options: OutboxPublishingOptions) {
    const { config, registry, dataSource, log, standIn, threadEntry } = options;
    const settings: AppRelaySettings = { app: options.app, config, log, standIn };
    const entry = config.outboxRelay === 'thread' ? threadEntry : undefined;
    this.onThread = entry !== undefined;
    this.publisher = appPublisher(settings, registry);
    const onLeadChange = (leads: boolean) => this.leadChanged(leads);
    this.relay = appRelay(settings, this.publisher, dataSource, entry ? undefined : onLeadChange);
    if (config.outboxRelay === 'off') return;
    this.relaying = entry ? new RelayThread(entry, { log, standIn, onLeadChange }) : this.relay;
  }

  /**
   * The app's EventStore `wakeRelay`: with its own relay leading, the app's commits wake it in-process and
   * hand it their events' texts; otherwise (not leading, or OUTBOX_RELAY=off) they NOTIFY the relay that leads.
   */
  get wakeRelay(): EventStoreOptions['wakeRelay'] {
    const relaying = this.relaying;
    if (!relaying) return 'notify';
    return { afterCommit: () => relaying.wakeIfLeading(), texts: relaying };
  }

  async start(): Promise<void> {
    // Kafka may be down: requests still succeed and the outbox drains when it returns. A relay on its
    // thread has a producer of its own; a stand-in's connects at its first publish (most never publish).
    if (this.relaying === this.relay && !this.options.standIn) {
      await this.publisher.connect().catch((error) => this.options.log('warn', 'kafka unavailable at start', { error: String(error) }));
    }
    await this.relaying?.start();
  }

  async stop(): Promise<void> {
    await this.relaying?.stop();
    await this.publisher.disconnect().catch(() => undefined);
  }

  private leadChanged(leads: boolean): void {
    metrics.outboxRelayLeading.set(leads ? 1 : 0);
    const where = this.onThread ? 'on its thread' : 'in-process';
    this.options.log('info', leads ? 'the outbox relay leads the stack\'s publishing' : 'the outbox relay no longer leads the stack\'s publishing', { where, standIn: this.options.standIn });
  }
}
