import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { installLeanAsyncResourceBind } from './async-resource-bind';

describe('AsyncResource.prototype.bind without the deprecated accessor (issue 11)', () => {
  beforeAll(() => installLeanAsyncResourceBind());

  it('runs the function in the async scope of the resource\'s creation, with its arguments and result', async () => {
    const store = new AsyncLocalStorage<string>();
    const resource = store.run('at creation', () => new AsyncResource('test'));
    const bound = resource.bind((a: number, b: number) => `${store.getStore()} ${a + b}`);
    expect(store.run('at call', () => bound(1, 2))).toBe('at creation 3');
    // Called later, from another context, as fastify's body parser calls it when the body has arrived.
    await expect(store.run('elsewhere', () => new Promise((resolve) => setImmediate(() => resolve(bound(2, 3)))))).resolves.toBe('at creation 5');
    expect(bound).toHaveLength(2);
    expect(Object.getOwnPropertyDescriptor(bound, 'asyncResource')).toBeUndefined();
  });

  it('keeps the caller\'s this, or thisArg when given; an error thrown by the function reaches the caller', () => {
    const resource = new AsyncResource('test');
    function who(this: { name: string } | undefined) {
      return this?.name;
    }
    const target = { name: 'caller', who: resource.bind(who) };
    expect(target.who()).toBe('caller');
    // Node's bind takes a thisArg (its documentation); the types of node 20 leave it out.
    const bindWith = resource.bind as unknown as (this: AsyncResource, fn: typeof who, thisArg: object) => (this: unknown) => string | undefined;
    const fixed = bindWith.call(resource, who, { name: 'fixed' });
    expect(fixed.call({ name: 'caller' })).toBe('fixed');
    expect(() => resource.bind(() => { throw new Error('inside'); })()).toThrow('inside');
  });

  it('is installed once: a second call changes nothing', () => {
    const bind = AsyncResource.prototype.bind;
    installLeanAsyncResourceBind();
    expect(AsyncResource.prototype.bind).toBe(bind);
  });
});
