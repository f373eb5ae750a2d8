// Advisory locks on real PostgreSQL: one session per process holds them all; a lock held here is
// refused to this process as to another; a second data source is another process.
import type { DataSource } from 'typeorm';
import { openTestDatabase } from '../../../../../test/support/database';
import { withTriedAdvisoryLock, withTriedAdvisoryLocks } from './advisory-lock';

const KEY = 4242;

describe('withTriedAdvisoryLock', () => {
  let one: DataSource;
  let other: DataSource;

  beforeAll(async () => {
    ({ dataSource: one } = await openTestDatabase());
    ({ dataSource: other } = await openTestDatabase());
  });
  afterAll(async () => {
    await one?.destroy();
    await other?.destroy();
  });

  /** Holds `name` (in the data source's process) until `release()`, which resolves once it is freed. */
  async function holding(dataSource: DataSource, name: string) {
    let free!: () => void;
    const gate = new Promise<void>((resolve) => (free = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const done = withTriedAdvisoryLock(dataSource, KEY, name, async () => {
      entered();
      await gate;
    });
    await inside;
    return { release: () => (free(), done) };
  }

  const holders = () => one.query(`SELECT count(DISTINCT pid)::int AS sessions, count(*)::int AS locks FROM pg_locks WHERE locktype = 'advisory' AND classid = $1`, [KEY]);

  it('holds many locks on one session, refuses a held one to this process and to another, frees them all', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    let allStarted!: () => void;
    const allHeld = new Promise<void>((resolve) => (allStarted = resolve));
    const held = ['a', 'b', 'c', 'd', 'e'].map((name) => withTriedAdvisoryLock(one, KEY, name, async () => {
      if (started.push(name) === 5) allStarted();
      await gate;
    }));
    await allHeld;
    expect(await holders()).toEqual([{ sessions: 1, locks: 5 }]);
    // Held here: refused here (a session's locks are re-entrant; the process keeps which it holds) and elsewhere.
    expect(await withTriedAdvisoryLock(one, KEY, 'a', async () => undefined)).toBe(false);
    expect(await withTriedAdvisoryLock(other, KEY, 'a', async () => undefined)).toBe(false);
    expect(await withTriedAdvisoryLock(other, KEY, 'f', async () => undefined)).toBe(true);
    release();
    expect(await Promise.all(held)).toEqual([true, true, true, true, true]);
    expect(await holders()).toEqual([{ sessions: 0, locks: 0 }]);
    expect(await withTriedAdvisoryLock(other, KEY, 'a', async () => undefined)).toBe(true);
  });

  it('frees the lock when the work throws', async () => {
    await expect(withTriedAdvisoryLock(one, KEY, 'boom', async () => {
      throw new Error('boom');
    })).rejects.toThrow('boom');
    expect(await withTriedAdvisoryLock(other, KEY, 'boom', async () => undefined)).toBe(true);
  });

  it('tries many names at once: works with those it got, leaves out those held here or elsewhere, frees them all (also when the work throws)', async () => {
    const x = await holding(one, 'x');
    const y = await holding(other, 'y');

    let during: unknown;
    const got = await withTriedAdvisoryLocks(one, KEY, ['x', 'y', 'z', 'w', 'z'], async (held) => {
      during = { held: [...held].sort(), locks: await holders() };
    });
    // x: held by this process; y: by another; z (asked twice) and w: taken, and only for the work.
    expect([...got].sort()).toEqual(['w', 'z']);
    expect(during).toEqual({ held: ['w', 'z'], locks: [{ sessions: 2, locks: 4 }] });
    expect(await withTriedAdvisoryLock(other, KEY, 'z', async () => undefined)).toBe(true);
    expect(await withTriedAdvisoryLocks(one, KEY, ['x'], async () => {
      throw new Error('never run: nothing was got');
    })).toEqual([]);

    await Promise.all([x.release(), y.release()]);
    await expect(withTriedAdvisoryLocks(one, KEY, ['p', 'q'], async () => {
      throw new Error('boom');
    })).rejects.toThrow('boom');
    expect(await holders()).toEqual([{ sessions: 0, locks: 0 }]);
  });
});
