import type { Client } from 'pg';
import type { RowQueries } from './outbox-rows';
import { type PreparedStatements, queryPrepared } from './prepared-statements';

/** One lock per topic prefix: the relays of one stack elect one publisher, other stacks don't wait. */
const LEAD_SQL = `SELECT pg_try_advisory_lock(7312001, hashtext($1)) AS locked`;
/**
 * Held, shared, by the session of every relay of the stack that leads first (a gateway's) for as long as
 * that session lives: a stand-in relay (a worker's) sees from it that one runs. Shared locks never wait for
 * each other, and nothing takes this one exclusively.
 */
const FIRST_SQL = `SELECT pg_try_advisory_lock_shared(7312016, hashtext($1))`;
/** Whether a relay that leads first runs (its session holds FIRST_SQL's lock): pg_locks names the two keys `classid` and `objid`. */
const FIRST_RUNS_SQL = `SELECT EXISTS (
  SELECT 1 FROM pg_locks
  WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND classid = 7312016 AND objid::bigint = (hashtext($1)::bigint & 4294967295) AND objsubid = 2
) AS runs`;

/** A stand-in relay's look outside its session (the app's pool), and how often it looks while it leads. */
export interface StandIn {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see RowQueries
  readonly look: (sql: string, params: unknown[]) => Promise<any[]>;
  readonly everyMs: number;
}

/**
 * A relay's own PostgreSQL session. It holds the stack's relay lock (a session-level advisory lock)
 * for as long as it lives, and runs the relay's reads and marks, each an autocommit statement: no
 * transaction is open while the relay publishes to Kafka (the guide's rule; before, the batch's
 * transaction held a transaction-scoped lock through every publish, the broker's timeouts included).
 *
 * The relay whose session holds the lock publishes for the stack until it stops or the session ends
 * (a crash, a lost connection: PostgreSQL frees the lock with the session); the others try the lock
 * when they poll and one of them takes over. Every statement of the leader runs on the session that
 * holds the lock, so a leader that lost it learns so at its next statement and stops there; what it
 * published meanwhile the next leader may publish again (at least once, as after any crash between a
 * publish and its mark; consumers are idempotent), after it, in id order, so a stream's events still
 * come first in order.
 *
 * Every app that writes events runs a relay (outbox-publishing/), but the gateways' relays lead first:
 * gateways write the most events, and their relays run on a thread of their own and are handed their
 * events' texts (event-texts.ts). A stand-in relay (a worker's) does not try the lock while one of them
 * runs; one that leads (no gateway ran when it took the lock) looks once every `everyMs` and, once one
 * runs, ends its session between two batches: the lock goes with it, as at a stop, and the gateway's
 * relay takes it at its next try.
 */
export class RelayLease {
  private session?: Promise<Client>;
  /** The client of `session` (connecting or connected): whose errors and end drop it. */
  private client?: Client;
  private leading = false;
  /** When a stand-in leader last looked for a relay that leads first (Date.now()). */
  private lookedAt = 0;

  constructor(
    private readonly open: () => Client,
    private readonly topicPrefix: string,
    /** The process's prepared statements, or none (DATABASE_PREPARED_STATEMENTS off), as the event store's. */
    private readonly prepared: PreparedStatements | undefined,
    /** Told when this relay starts or stops leading (a relay on a thread of its own tells its process: relay-thread-main.ts). */
    private readonly onChange?: (leads: boolean) => void,
    /** This relay stands in (a worker's); none: it leads first (a gateway's). */
    private readonly standIn?: StandIn,
  ) {}

  /** Whether this relay led at its last look (the lock held by its live session). */
  get leads(): boolean {
    return this.leading;
  }

  /** The leader's statements if this relay holds the lock (taking it when free), undefined while another relay does. */
  async lead(): Promise<RowQueries | undefined> {
    if (this.standIn && (await this.givesWay(this.standIn))) return undefined;
    const client = await this.connect();
    if (!this.leading) {
      const [{ locked }] = await this.run(client, LEAD_SQL, [this.topicPrefix]);
      this.setLeading(locked === true);
    }
    if (!this.leading) return undefined;
    return { query: (sql, params, options) => this.run(client, sql, params, options) };
  }

  /** Ends the session, and with it the lead. */
  async end(): Promise<void> {
    const client = this.client;
    const session = this.session;
    this.drop(client);
    await session?.catch(() => undefined);
    await client?.end().catch(() => undefined);
  }

  /**
   * Whether this stand-in gives way to a relay that leads first: then it does not try the lock, and
   * ends its session, the lead with it if it leads (called between batches: what it published is
   * marked). While it leads it looks once every `everyMs`; a follower looks at each of its relay's
   * tries, once a poll.
   */
  private async givesWay(standIn: StandIn): Promise<boolean> {
    if (this.leading && Date.now() - this.lookedAt < standIn.everyMs) return false;
    this.lookedAt = Date.now();
    const [{ runs }] = await standIn.look(FIRST_RUNS_SQL, [this.topicPrefix]);
    if (runs !== true) return false;
    await this.end();
    return true;
  }

  private connect(): Promise<Client> {
    if (this.session) return this.session;
    const client = this.open();
    this.client = client;
    // A broken session took the lock with it: the next look connects again and tries it.
    client.on('error', () => this.drop(client));
    client.on('end', () => this.drop(client));
    // A relay that leads first says so for as long as its session lives (FIRST_SQL).
    this.session = client.connect().then(() => (this.standIn ? undefined : client.query(FIRST_SQL, [this.topicPrefix]))).then(
      () => client,
      async (error) => {
        this.drop(client);
        await client.end().catch(() => undefined);
        throw error;
      },
    );
    return this.session;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see RowQueries
  private async run(client: Client, sql: string, params: unknown[] = [], options: { readonly prepare?: boolean } = {}): Promise<any[]> {
    // Unnamed (planned each time) unless the caller asks: this session lives as long as the relay, and
    // a prepared statement keeps the generic plan made from the outbox's size at its first runs.
    // Prepared, the mark (`UPDATE outbox … WHERE id = ANY($1)`) kept a sequential scan chosen while the
    // outbox was nearly empty: 15–25 ms a batch at 29,000 rows, against ~0.6 ms planned (auto_explain, issue 11).
    try {
      return (await queryPrepared(client, options.prepare ? this.prepared : undefined, sql, params)).rows;
    } catch (error) {
      // Whatever failed, the lock may be gone (a session killed between statements answers its next
      // one with an error): start over on a new session rather than go on without knowing.
      this.drop(client);
      void client.end().catch(() => undefined);
      throw error;
    }
  }

  private drop(client: Client | undefined): void {
    if (client === undefined || this.client !== client) return;
    this.client = undefined;
    this.session = undefined;
    this.setLeading(false);
  }

  private setLeading(leads: boolean): void {
    if (this.leading === leads) return;
    this.leading = leads;
    this.onChange?.(leads);
  }
}
