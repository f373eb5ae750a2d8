import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RelayThread, type RelayThreadOptions } from './relay-on-thread';

const FAKE = path.resolve(__dirname, '..', '..', '..', '..', '..', 'test', 'support', 'relay-thread-fake.js');

/** What the fake thread was told, one line each (it writes them as the messages arrive). */
const told = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

/** A RelayThread on the fake, and its lead changes as a queue the test awaits (the barrier: the thread's own `leads` messages). */
function onFake(log: string, mode: string, options: Partial<RelayThreadOptions> = {}) {
  const changes: boolean[] = [];
  const waiting: Array<(leads: boolean) => void> = [];
  const relay = new RelayThread(FAKE, {
    execArgv: [],
    env: { RELAY_FAKE_LOG: log, RELAY_FAKE_MODE: mode },
    log: () => undefined,
    ...options,
    onLeadChange: (leads) => {
      const next = waiting.shift();
      if (next) next(leads);
      else changes.push(leads);
    },
  });
  const nextLeadChange = () => (changes.length ? Promise.resolve(changes.shift()!) : new Promise<boolean>((resolve) => waiting.push(resolve)));
  return { relay, nextLeadChange };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A commit's data texts (event-texts.ts). */
const texts = (...eventIds: string[]) => eventIds.map((eventId) => ({ eventId, text: `{"n":"${eventId}"}` }));

describe('RelayThread: the outbox relay on a worker thread (#11)', () => {
  let log: string;

  beforeEach(() => {
    log = path.join(mkdtempSync(path.join(tmpdir(), 'relay-thread-')), 'told.log');
    writeFileSync(log, '');
  });

  it('wakes the thread after commits only once it leads, once per turn of the event loop, and stops it', async () => {
    const { relay, nextLeadChange } = onFake(log, 'ok');
    // Not started: a commit must NOTIFY the relay that leads elsewhere.
    expect(relay.wakeIfLeading()).toBe(false);
    await relay.start();
    expect(await nextLeadChange()).toBe(true);
    // Three commits in one turn: one wake; one more in the next turn: a second.
    expect([relay.wakeIfLeading(), relay.wakeIfLeading(), relay.wakeIfLeading()]).toEqual([true, true, true]);
    await nextTurn();
    expect(relay.wakeIfLeading()).toBe(true);
    await nextTurn();
    // The thread answers the stop after the messages posted before it (a port keeps their order).
    await relay.stop();
    expect(told(log)).toEqual(['started', 'wake', 'wake', 'stop']);
    expect(await nextLeadChange()).toBe(false);
    expect(relay.wakeIfLeading()).toBe(false);
  });

  it('hands the thread the texts of the units committing in one turn in one message, before their wake, and only while it leads', async () => {
    const { relay, nextLeadChange } = onFake(log, 'ok');
    relay.keepTexts(texts('e0'));
    await relay.start();
    expect(await nextLeadChange()).toBe(true);
    relay.keepTexts(texts('e1'));
    relay.keepTexts(texts('e2', 'e3'));
    await nextTurn();
    relay.wakeIfLeading();
    relay.keepTexts(texts('e4'));
    await nextTurn();
    await relay.stop();
    relay.keepTexts(texts('e5'));
    expect(told(log)).toEqual(['started', 'texts e1,e2,e3', 'wake', 'texts e4', 'stop']);
  });

  it('names its relay in the outbox rows of the process\'s commits only while it leads: the name the thread was started with', async () => {
    const { relay, nextLeadChange } = onFake(log, 'ok');
    expect(relay.textsHandedTo()).toBeUndefined();
    await relay.start();
    expect(await nextLeadChange()).toBe(true);
    const holder = relay.textsHandedTo();
    expect(holder).toMatch(/^[0-9a-f-]{36}$/);
    expect(readFileSync(`${log}.holder`, 'utf8')).toBe(holder);
    await relay.stop();
    expect(relay.textsHandedTo()).toBeUndefined();
  });

  it('refuses to start when the thread cannot (its app then fails its start, as with an in-process relay)', async () => {
    const { relay } = onFake(log, 'fail');
    await expect(relay.start()).rejects.toThrow("the outbox relay's thread could not start: no database");
    expect(relay.wakeIfLeading()).toBe(false);
    await relay.stop();
  });

  it('restarts a thread that died, and wakes the new one', async () => {
    const { relay, nextLeadChange } = onFake(log, 'die-once', { maxRestartDelayMs: 50 });
    await relay.start();
    expect(await nextLeadChange()).toBe(true);
    // The first thread dies at this wake; until the second leads, commits NOTIFY (wakeIfLeading false).
    expect(relay.wakeIfLeading()).toBe(true);
    expect(await nextLeadChange()).toBe(false);
    expect(relay.wakeIfLeading()).toBe(false);
    expect(await nextLeadChange()).toBe(true);
    expect(relay.wakeIfLeading()).toBe(true);
    await nextTurn();
    await relay.stop();
    expect(told(log)).toEqual(['started', 'wake', 'started', 'wake', 'stop']);
  });
});
