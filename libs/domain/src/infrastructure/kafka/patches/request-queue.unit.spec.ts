import { CHECK_PENDING_REQUESTS_INTERVAL, type PatchableRequestQueue, fixKafkajsRequestQueue } from './request-queue';

// kafkajs's own RequestQueue (this file's module registry is jest's own: unpatched until the fix is installed).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as new (options: Record<string, unknown>) => PatchableRequestQueue;
const original = RequestQueue.prototype.scheduleCheckPendingRequests;

const queue = () =>
  new RequestQueue({
    maxInFlightRequests: 1,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 'test',
    broker: '127.0.0.1:9092',
    logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    isConnected: () => true,
  });

describe('#11 kafkajs request queue: no timer while nothing waits', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('kafkajs 2.2.4 itself keeps a timer going on an idle queue (the defect)', () => {
    const idle = queue();
    idle.checkPendingRequests = jest.fn(() => original.call(idle));
    original.call(idle);
    jest.advanceTimersByTime(50);
    // A check every millisecond, each scheduling the next.
    expect((idle.checkPendingRequests as jest.Mock).mock.calls.length).toBeGreaterThanOrEqual(40);
  });

  it('once fixed, an idle queue schedules nothing, and the fix stays installed once', () => {
    expect(fixKafkajsRequestQueue()).toBe(true);
    expect(fixKafkajsRequestQueue()).toBe(true);
    expect(RequestQueue.prototype.scheduleCheckPendingRequests).not.toBe(original);
    const idle = queue();
    idle.checkPendingRequests();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('once fixed, a waiting request is checked when the throttle ends, or every 10 ms while it waits for a slot', () => {
    fixKafkajsRequestQueue();
    const throttled = queue();
    const check = jest.spyOn(throttled, 'checkPendingRequests').mockImplementation(() => undefined);
    throttled.pending.push({});
    throttled.throttledUntil = Date.now() + 250;
    throttled.scheduleCheckPendingRequests();
    throttled.scheduleCheckPendingRequests(); // one timer at a time
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(249);
    expect(check).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(check).toHaveBeenCalledTimes(1);

    const busy = queue();
    const checkBusy = jest.spyOn(busy, 'checkPendingRequests').mockImplementation(() => undefined);
    busy.pending.push({});
    busy.scheduleCheckPendingRequests();
    jest.advanceTimersByTime(CHECK_PENDING_REQUESTS_INTERVAL);
    expect(checkBusy).toHaveBeenCalledTimes(1);
  });
});
