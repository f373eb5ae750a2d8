import type { Queue } from 'bullmq';
import type { RetrySchedule } from '@einvoice/domain';
import { type AttemptRecord, type DeliveryToSend, TickBatch, enqueueDeliveries, loadDeliveries, recordAttempts } from '@einvoice/domain/infrastructure';
import type { EndpointGate } from './endpoint-gate';
import { type ProcessorDependencies, attemptDelivery } from './processor';

export interface FirstAttemptDependencies extends ProcessorDependencies {
  readonly queue: Queue;
  readonly schedule: RetrySchedule;
  /** First attempts in flight at most; past it, deliveries go through the queue. */
  readonly maxInFlight: number;
  /**
   * Per-endpoint isolation (endpoint-gate.ts): first attempts are the fast lane; a failing or slow endpoint's
   * delivery goes to `failingQueue` at once, one whose endpoint has `perEndpoint` first attempts in flight to
   * `queue`. None: every delivery is sent (up to maxInFlight), its retries in `queue`.
   */
  readonly lanes?: { readonly gate: EndpointGate; readonly failingQueue: Queue };
}

/**
 * The first attempt of each new delivery, sent by the dispatcher as soon as it is recorded, without
 * the queue (issue 11): a job cost three Redis round trips and their Lua scripts (add, take, finish)
 * and a read of the delivery, for a webhook that most of the time succeeds at once. A failed first
 * attempt becomes a job for the rest of the schedule (`priorAttempts` 1, after the first backoff); so
 * does any delivery past `maxInFlight` first attempts at once, or while stopping. The attempt itself
 * is the queue's (attemptDelivery: only a pending delivery is sent, the attempt recorded after).
 *
 * A crash during a first attempt leaves the delivery pending: the sweeper enqueues it once it was
 * quiet for longer than an attempt can take (`longestAttemptMs`), so no sweeper, in this process or
 * another, sends what a first attempt is still sending.
 */
/**
 * How long a first attempt counts against `maxInFlight`. An endpoint that never answers holds its attempts for the
 * whole timeout (5 s): counted all along, a hundred dead endpoints fill the budget and every other endpoint's
 * webhooks wait for their timeouts (measured, bench phase `webhooks`: the others' p99 13× the healthy one). An
 * attempt still running after this is slow; its endpoint takes the failing lane from then on (endpoint-gate.ts)
 * and the attempt no longer holds a place. The total in flight stays bounded: `LINGERING_FACTOR` × maxInFlight.
 */
const BUDGET_MS = 250;
const LINGERING_FACTOR = 10;

export class FirstAttempts {
  private readonly sending = new Map<string, Promise<void>>();
  /** The attempts that hold a place of `maxInFlight`: those younger than BUDGET_MS. */
  private readonly counted = new Set<string>();
  private closed = false;
  private roomWaiters: Array<() => void> = [];
  /**
   * What an attempt needs, with this: the first attempts started together (an event's, a fetched batch's)
   * read their deliveries in one query, and those answered at the same moment are recorded in one
   * statement (a batch with a delivery twice, or whose statement failed, is recorded one by one: TickBatch).
   */
  private readonly attemptDeps: ProcessorDependencies;

  constructor(private readonly deps: FirstAttemptDependencies) {
    const deliveries = new TickBatch<string, DeliveryToSend | undefined>(async (ids) => {
      const byId = new Map((await loadDeliveries(deps.db, ids)).map((delivery) => [delivery.id, delivery]));
      return ids.map((id) => byId.get(id));
    });
    const records = new TickBatch<AttemptRecord, number | undefined>((batch) => recordAttempts(deps.db, batch));
    const gate = deps.lanes?.gate;
    this.attemptDeps = {
      ...deps,
      load: (id) => deliveries.ask(id),
      record: (attempt) => records.ask(attempt),
      ...(gate ? { admit: (delivery: DeliveryToSend) => gate.admit(delivery.subscription_id, 'fast') } : {}),
    };
  }

  /** Longest a first attempt can run: the POST and its one re-send on a reset kept-alive connection (send.ts), each with its timeout. */
  get longestAttemptMs(): number {
    return 2 * this.deps.config.timeoutMs;
  }

  /** Whether this process is sending the delivery's first attempt now. */
  has(deliveryId: string): boolean {
    return this.sending.has(deliveryId);
  }

  /**
   * Starts the first attempt of each delivery (not awaited), or enqueues it; resolves once the enqueued ones are in
   * the queue. `waitForRoom` (the account events tail): past maxInFlight, wait for a first attempt to end instead of
   * enqueueing, so the backlog stays in PostgreSQL (events not read yet) rather than going through Redis job by job,
   * and the tail reads no faster than it sends; an endpoint's own slowness never makes it wait (its deliveries take
   * a lane: endpoint-gate.ts).
   */
  async dispatch(deliveryIds: readonly string[], options: { readonly waitForRoom?: boolean } = {}): Promise<void> {
    const queued: string[] = [];
    for (const id of deliveryIds) {
      if (this.sending.has(id)) continue;
      while (options.waitForRoom && !this.closed && this.full()) {
        await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
      }
      if (this.closed || this.full()) {
        queued.push(id);
        continue;
      }
      const young = setTimeout(() => {
        if (this.counted.delete(id)) this.roomFreed();
      }, BUDGET_MS);
      young.unref();
      const attempt = this.first(id).finally(() => {
        clearTimeout(young);
        this.sending.delete(id);
        this.counted.delete(id);
        this.roomFreed();
      });
      this.sending.set(id, attempt);
      this.counted.add(id);
    }
    await enqueueDeliveries(this.deps.queue, queued, this.deps.schedule);
  }

  /** Whether a new first attempt must wait: the young ones fill the budget, or all of them its lingering bound. */
  private full(): boolean {
    return this.counted.size >= this.deps.maxInFlight || this.sending.size >= LINGERING_FACTOR * this.deps.maxInFlight;
  }

  /** Those waiting for room (dispatch's `waitForRoom`) look again. */
  private roomFreed(): void {
    const waiters = this.roomWaiters;
    this.roomWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Sends no more first attempts and waits for those in flight (their retries enqueued). */
  async close(): Promise<void> {
    this.closed = true;
    this.roomFreed();
    while (this.sending.size > 0) await Promise.allSettled([...this.sending.values()]);
  }

  private async first(deliveryId: string): Promise<void> {
    const { queue, schedule, log } = this.deps;
    let outcome;
    try {
      outcome = await attemptDelivery(this.attemptDeps, deliveryId, 0, schedule.attempts);
    } catch (error) {
      // PostgreSQL failed around the attempt: the delivery is still pending, and the queue (or, if Redis is
      // away too, the sweeper) takes it from the start of its schedule.
      log('warn', 'webhook first attempt failed; the queue takes it', { deliveryId, error: String(error) });
      await enqueueDeliveries(queue, [deliveryId], schedule).catch(() => undefined);
      return;
    }
    // A failing endpoint's deliveries (a first one just failed, or it is failing or slow already) go to the
    // failing lane; a busy endpoint's to the queue, which sends them as its attempts end (endpoint-gate.ts).
    const failingQueue = this.deps.lanes?.failingQueue ?? queue;
    let enqueued: Promise<void>;
    if (outcome.kind === 'failed') enqueued = enqueueDeliveries(failingQueue, [deliveryId], schedule, { priorAttempts: 1, delayMs: outcome.retryInMs });
    else if (outcome.kind === 'deferred') enqueued = enqueueDeliveries(outcome.reason === 'failing' ? failingQueue : queue, [deliveryId], schedule);
    else return;
    await enqueued.catch((error) =>
      // The delivery is pending: the sweeper enqueues it once Redis is back.
      log('warn', 'webhook retry enqueue failed; the sweeper will retry', { deliveryId, error: String(error) }),
    );
  }
}
