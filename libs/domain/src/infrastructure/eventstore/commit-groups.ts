import { HeldWrites, type Write, combineWrites } from './deferred-writes';

/** Where a unit of work's statement goes: its own pooled connection (event-store.ts `connectionOf`). */
export interface GroupConnection {
  query(sql: string, params?: unknown[], options?: { readonly prepare?: boolean }): Promise<unknown>;
}

interface Waiting {
  readonly writes: readonly Write[];
  readonly params: number;
  readonly connection: GroupConnection;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit (issue 11): units of work made only of held-back writes (one autocommit statement
 * each, deferred-writes.ts) that commit in the same turn of the event loop are sent together, as ONE
 * statement on the first one's connection: one round trip and one commit for all of them. A round
 * trip costs the client ~0.2 ms of CPU whatever it carries, and the gateway's concurrent submissions
 * and a worker's concurrent handlers each paid one (measured: 8 units of events + outbox + processed
 * rows a statement cost the client 73–103 µs of CPU per unit against 199–336 µs sent one by one, and
 * PostgreSQL took 1.25–1.56× as many units a second unnamed, 1.7–2.7× prepared).
 *
 * What may share a statement is what deferred-writes.ts allows within one unit: a unit whose writes
 * could see or touch what another's do (an UPDATE or upsert of the same table, unless each names its
 * own row) starts the next group instead. The statement is atomic: if it fails (one unit's unique
 * violation, a deadlock with another process's group), nothing of it was written, and each unit is
 * then sent alone on its own connection, so each gets its own answer, as without grouping. A unit
 * alone is sent as before; a group is kept prepared when its units have one shape (`sameShape`).
 */
export class CommitGroups {
  private open: Waiting[] = [];
  private openParams = 0;
  private written = new HeldWrites();
  private scheduled = false;

  constructor(
    private readonly maxUnits = 16,
    /** Bind parameters of one statement (PostgreSQL allows 65,535): a MyInvois bulk's unit alone has thousands. */
    private readonly maxParams = 16_384,
  ) {}

  /** Resolves once `writes` are committed (with others' or alone); rejects with their own statement's error. */
  commit(writes: readonly Write[], connection: GroupConnection): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const params = writes.reduce((n, write) => n + write.params.length, 0);
      if (this.open.length > 0 && !this.admits(writes, params)) this.sendOpen();
      this.open.push({ writes, params, connection, resolve, reject });
      this.openParams += params;
      for (const write of writes) this.written.add(write);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.sendOpen();
        });
      }
    });
  }

  private admits(writes: readonly Write[], params: number): boolean {
    if (this.open.length >= this.maxUnits || this.openParams + params > this.maxParams) return false;
    return writes.every((write) => this.written.admits(write));
  }

  private sendOpen(): void {
    const group = this.open;
    this.open = [];
    this.openParams = 0;
    this.written = new HeldWrites();
    if (group.length > 0) void send(group);
  }
}

async function send(group: readonly Waiting[]): Promise<void> {
  if (group.length === 1) return sendAlone(group[0]);
  const { sql, params } = combineWrites(group.flatMap((unit) => unit.writes));
  try {
    await group[0].connection.query(sql, [...params], sameShape(group) ? PREPARE : undefined);
  } catch {
    // Nothing of the group was written: each unit alone, for its own answer.
    await Promise.all(group.map(sendAlone));
    return;
  }
  for (const unit of group) unit.resolve();
}

/**
 * Units of one shape (the same statements: a burst of submissions, a worker's outcomes of one kind) make
 * a text that depends only on how many met, so it is worth keeping prepared (at most 16 texts a shape;
 * prepared-statements.ts bounds the rest). A mixed group's text is seldom seen twice: sent unnamed.
 */
function sameShape(group: readonly Waiting[]): boolean {
  const [first, ...others] = group;
  return others.every((unit) => unit.writes.length === first.writes.length && unit.writes.every((write, i) => write.sql === first.writes[i].sql));
}

const PREPARE = { prepare: true } as const;

async function sendAlone(unit: Waiting): Promise<void> {
  const { sql, params } = combineWrites(unit.writes);
  try {
    await unit.connection.query(sql, [...params], PREPARE);
    unit.resolve();
  } catch (error) {
    unit.reject(error);
  }
}
