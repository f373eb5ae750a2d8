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
    const deadline = Date.now() + waitMs;
    let wake: () => void = () => undefined;
    let woken = new Promise<void>((resolve) => (wake = resolve));
    const waiter = () => wake();
    const set = this.waiters.get(id) ?? new Set();
    set.add(waiter);
    this.waiters.set(id, set);
    try {
      let row = await read();
      while (!(row !== undefined && done(row))) {
        const left = deadline - Date.now();
        if (left <= 0 || !(await notifiedWithin(woken, left))) return await read();
        woken = new Promise<void>((resolve) => (wake = resolve));
        row = await read();
      }
      return row;
    } finally {
      set.delete(waiter);
      if (set.size === 0) this.waiters.delete(id);
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
