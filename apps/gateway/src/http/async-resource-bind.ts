import { AsyncResource } from 'node:async_hooks';

const installed = Symbol.for('einvoice.asyncResourceBind');

/**
 * AsyncResource.prototype.bind without the `asyncResource` accessor that Node 20 defines on every
 * bound function (deprecated, DEP0172): it wraps its getter and setter in two `deprecate()` calls,
 * each making a function and resetting its prototype, ~8 µs a bind on this VM against ~0.5 µs
 * without them. Fastify binds one per request body (its content-type parser), which made it 3.3–3.8%
 * of the gateway's CPU under the accept load (`BENCH_CPU_PROF=gateway`, issue 11).
 *
 * The bound function does what Node's does: it runs `fn` in the resource's async scope (so
 * AsyncLocalStorage sees the context of the resource's creation), with `thisArg`, or else the
 * caller's `this`, and keeps `fn`'s length. Installed only where the native bind still defines the
 * deprecated accessor (a Node that dropped it has nothing to save); once per process.
 */
export function installLeanAsyncResourceBind(): void {
  const proto = AsyncResource.prototype as AsyncResource & { [installed]?: true };
  if (proto[installed]) return;
  proto[installed] = true;
  const probe = new AsyncResource('einvoice.probe').bind(() => undefined);
  if (!Object.getOwnPropertyDescriptor(probe, 'asyncResource')) return;
  proto.bind = function bind<Func extends (...args: unknown[]) => unknown>(this: AsyncResource, fn: Func, thisArg?: ThisParameterType<Func>) {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the bound function's own `this` is its caller's
    const resource = this;
    const bound =
      thisArg === undefined
        ? function (this: unknown, ...args: unknown[]) {
            return resource.runInAsyncScope(fn, this, ...args);
          }
        : function (...args: unknown[]) {
            return resource.runInAsyncScope(fn, thisArg, ...args);
          };
    Object.defineProperty(bound, 'length', { configurable: true, enumerable: false, value: fn.length, writable: false });
    return bound as unknown as Func;
  } as typeof proto.bind;
}
