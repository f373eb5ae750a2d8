import { Injectable } from '@nestjs/common';
import { DOCUMENT_OUTCOME_CHANNEL } from '@einvoice/domain/infrastructure';
import { PgNotifications } from '../infrastructure/pg-notifications';

/**
 * Waits for a document's outcome without polling PostgreSQL, on the gateway's one LISTEN connection
 * (PgNotifications, channel `document_outcome`): the reporting worker's projection NOTIFYs the
 * document id from the transaction that records the authority's answer (delivered at commit only).
 * A waiter reads its row once after registering (an answer committed before it registered), once
 * per notification of its id, and once at its deadline (a notification lost while the connection
 * was down).
 */
@Injectable()
export class OutcomeWaiter {
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(notifications: PgNotifications) {
    notifications.subscribe(DOCUMENT_OUTCOME_CHANNEL, {
      notified: (documentId) => {
        for (const waiter of this.waiters.get(documentId) ?? []) waiter();
      },
      // Waiters read at their deadline anyway: nothing to catch up on.
      resubscribed: () => undefined,
    });
  }

  /**
   * Reads until `done` holds for the row, waking on the notifications of `id`, for at most `waitMs`;
   * the last row read (or undefined) when time runs out.
   */
  async waitFor<R>(id: string, waitMs: number, read: () => Promise<R | undefined>, done: (row: R) => boolean): Promise<R | undefined> {
    const rows = await this.waitForAll([id], waitMs, async () => {
      const row = await read();
      return row === undefined ? new Map() : new Map([[id, row]]);
    }, done);
    return rows.get(id);
  }

  /**
   * waitFor for several documents within one `waitMs` (a MyInvois submission's): `read` gets the ids
   * still open and answers their rows in one query, after registering, after each wake-up (the
   * notifications of a batch's answers come in one burst) and at the deadline. The rows last read,
   * by id (an id never read is missing).
   */
  async waitForAll<R>(
    ids: readonly string[],
    waitMs: number,
    read: (open: readonly string[]) => Promise<ReadonlyMap<string, R>>,
    done: (row: R) => boolean,
  ): Promise<Map<string, R>> {
    const deadline = Date.now() + waitMs;
    let wake: () => void = () => undefined;
    let woken = new Promise<void>((resolve) => (wake = resolve));
    const waiter = () => wake();
    for (const id of ids) {
      const set = this.waiters.get(id) ?? new Set();
      set.add(waiter);
      this.waiters.set(id, set);
    }
    const rows = new Map<string, R>();
    let open = [...ids];
    const readOpen = async () => {
      for (const [id, row] of await read(open)) rows.set(id, row);
      open = open.filter((id) => !(rows.has(id) && done(rows.get(id) as R)));
    };
    try {
      await readOpen();
      while (open.length) {
        const left = deadline - Date.now();
        if (left <= 0 || !(await notifiedWithin(woken, left))) {
          await readOpen();
          break;
        }
        woken = new Promise<void>((resolve) => (wake = resolve));
        await readOpen();
      }
      return rows;
    } finally {
      for (const id of ids) {
        const set = this.waiters.get(id);
        set?.delete(waiter);
        if (set?.size === 0) this.waiters.delete(id);
      }
    }
  }
}

/** True when `woken` settles within `ms`. */
async function notifiedWithin(woken: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([woken.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
