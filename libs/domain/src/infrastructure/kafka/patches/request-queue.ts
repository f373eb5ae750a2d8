// kafkajs 2.2.4's RequestQueue schedules its next check of pending requests after every check, with a
// delay of `throttledUntil - now`: negative when nothing throttles, so a timer fires every millisecond
// on every broker connection of every client, for as long as the connection is open, whether anything
// waits or not (tulios/kafkajs#1556, #1604, #1704; the fixes, e.g. #1667, are unreleased: kafkajs is
// maintenance-only). Measured on an idle stack here: 3-4% of a core per process, the workers' main
// threads busy with nothing but these timers (issue 11).
//
// The fix keeps kafkajs's behaviour wherever a request waits: a check when the throttle ends, or in
// CHECK_PENDING_REQUESTS_INTERVAL (10 ms) when requests wait for an in-flight slot. With nothing
// pending it schedules nothing: a request pushed later is sent at once or pushed into `pending`,
// which schedules its own check, and every answer or timeout checks the queue again (kafkajs's own
// paths, unchanged).

import { isPatchableKafkajs } from './kafkajs-internals';
/** kafkajs's constant (src/network/requestQueue/index.js). */
export const CHECK_PENDING_REQUESTS_INTERVAL = 10;

/** The parts of kafkajs's RequestQueue the fix reads and writes. */
export interface PatchableRequestQueue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

/** The fixed `scheduleCheckPendingRequests`, for RequestQueue's prototype. */
export function scheduleCheckPendingRequests(this: PatchableRequestQueue): void {
  if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
  const untilUnthrottled = this.throttledUntil - Date.now();
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null;
    this.checkPendingRequests();
  }, untilUnthrottled > 0 ? untilUnthrottled : CHECK_PENDING_REQUESTS_INTERVAL);
}

const FIXED = Symbol.for('einvoice.kafkajsRequestQueueFixed');

/**
 * Installs the fix on kafkajs's RequestQueue (once per process; the module is kafkajs's own instance,
 * shared by every client). Only on the version it was written for: another kafkajs keeps its own code.
 */
export function fixKafkajsRequestQueue(): boolean {
  if (!isPatchableKafkajs()) return false;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const RequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: PatchableRequestQueue & { [FIXED]?: true } };
  if (RequestQueue.prototype[FIXED]) return true;
  RequestQueue.prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  RequestQueue.prototype[FIXED] = true;
  return true;
}
