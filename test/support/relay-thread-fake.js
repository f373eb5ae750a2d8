// A stand-in for an app's relay thread (libs/domain/src/infrastructure/outbox-publishing/relay-thread-main.ts) that
// speaks its messages and writes what it was told, one line each, to RELAY_FAKE_LOG:
// relay-on-thread.unit.spec.ts drives RelayThread against it. RELAY_FAKE_MODE: `ok` (starts and
// leads), `fail` (cannot start), `die-once` (its first thread dies at its first wake). The name it
// was started with (`workerData.textsHolder`) goes to RELAY_FAKE_LOG.holder.
const { appendFileSync, readFileSync, writeFileSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');

const file = process.env.RELAY_FAKE_LOG;
const mode = process.env.RELAY_FAKE_MODE ?? 'ok';
const write = (line) => appendFileSync(file, `${line}\n`);
const threadsBefore = readFileSync(file, 'utf8').split('\n').filter((l) => l === 'started').length;

if (mode === 'fail') {
  parentPort.postMessage({ type: 'failed', error: 'no database' });
} else {
  parentPort.on('message', (message) => {
    // Texts with the events they are of: `texts e1,e2`.
    write(message.type === 'texts' ? `texts ${message.texts.map((t) => t.eventId).join(',')}` : message.type);
    if (message.type === 'wake' && mode === 'die-once' && threadsBefore === 0) throw new Error('the relay thread broke');
    if (message.type === 'stop') parentPort.postMessage({ type: 'stopped' });
  });
  writeFileSync(`${file}.holder`, String(workerData?.textsHolder));
  write('started');
  parentPort.postMessage({ type: 'started' });
  parentPort.postMessage({ type: 'leads', leads: true });
}
