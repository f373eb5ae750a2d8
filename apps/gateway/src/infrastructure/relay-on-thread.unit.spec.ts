import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RelayThread } from './relay-on-thread';

const FAKE = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'support', 'relay-thread-fake.js');

/** The fake thread's lines (what it was told), after the messages in flight arrived. */
async function linesOnceSettled(file: string, until: (lines: string[]) => boolean): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    if (until(lines) || Date.now() > deadline) return lines;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('RelayThread: the outbox relay on a worker thread (#11)', () => {
  let log: string;
  const fake = (mode: string) => ({ execArgv: [], env: { RELAY_FAKE_LOG: log, RELAY_FAKE_MODE: mode } });

  beforeEach(() => {
    log = path.join(mkdtempSync(path.join(tmpdir(), 'relay-thread-')), 'told.log');
    writeFileSync(log, '');
  });

  it('wakes the thread after commits only once it leads, once per turn of the event loop, and stops it', async () => {
    const relay = new RelayThread(FAKE, fake('ok'));
    // Not started: a commit must NOTIFY the relay that leads elsewhere.
    expect(relay.wakeIfLeading()).toBe(false);
    await relay.start();
    await linesOnceSettled(log, () => relay.wakeIfLeading());
    expect(relay.wakeIfLeading()).toBe(true);
    // Three commits in one turn: one wake.
    relay.wakeIfLeading();
    relay.wakeIfLeading();
    await new Promise((resolve) => setImmediate(resolve));
    expect(relay.wakeIfLeading()).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    await relay.stop();
    expect(readFileSync(log, 'utf8').split('\n').filter(Boolean)).toEqual(['started', 'wake', 'wake', 'stop']);
    expect(relay.wakeIfLeading()).toBe(false);
  });

  it('refuses to start when the thread cannot (the gateway then fails its start, as with an in-process relay)', async () => {
    const relay = new RelayThread(FAKE, fake('fail'));
    await expect(relay.start()).rejects.toThrow("the outbox relay's thread could not start: no database");
    expect(relay.wakeIfLeading()).toBe(false);
    await relay.stop();
  });

  it('restarts a thread that died, and wakes the new one', async () => {
    const relay = new RelayThread(FAKE, { ...fake('die-once'), maxRestartDelayMs: 50 });
    await relay.start();
    await linesOnceSettled(log, () => relay.wakeIfLeading());
    // The first thread dies at this wake; until the second leads, commits NOTIFY (wakeIfLeading false).
    const restarted = await linesOnceSettled(log, (lines) => lines.filter((l) => l === 'started').length === 2);
    expect(restarted).toEqual(['started', 'wake', 'started']);
    await linesOnceSettled(log, () => relay.wakeIfLeading());
    await linesOnceSettled(log, (lines) => lines.length === 4);
    await relay.stop();
    expect(readFileSync(log, 'utf8').split('\n').filter(Boolean)).toEqual(['started', 'wake', 'started', 'wake', 'stop']);
  });
});
