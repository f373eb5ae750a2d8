// `npm run bench`: throughput, latency and CPU per document of the whole stack on this machine,
// each next to a reference run on the same machine (issue 11). Not part of `npm test`. It starts
// its own isolated stack (database einvoice_bench, recreated on every run; its own Kafka broker on
// a free port with a temp data dir; its own topic prefix and gateway port), so a developer's
// running stack is never touched, then runs these phases (BENCH_PHASES picks some, in this order):
//   reference  a bare Fastify POST doing one INSERT into PostgreSQL (no NestJS, no validation), in
//              a process of its own, same bodies, same connections: every rate is also printed as
//              a ratio to it; run again after the other phases to show the machine's drift;
//   bare       GET /health/live: the gateway's own ceiling without a database;
//   accept     POST /be/einvoice/generate/invoice with the workers paused (SIGSTOP; the gateway and
//              its outbox relay run): the accept path alone; then the workers resume and every
//              accepted document must be Delivered;
//   e2e        the same POSTs for BENCH_E2E_DURATION s (60) with every worker running: accepted/s,
//              Delivered/s during the load, the delivery backlog's maximum (sampled each second);
//   open       a fixed rate (paced, open loop: load.mjs pacedLoad) of half the e2e rate (or BENCH_OPEN_RATE) for BENCH_OPEN_DURATION s
//              (20): submitted->Delivered p50/p99 of a steady flow;
//   webhooks   account-wide webhooks (#48): 1,000 account endpoints over 10 tenants, one area each, receivers in
//              this process; documents INSERTED as rows (the trigger records their events; not through the API),
//              closed loop for BENCH_WEBHOOK_DURATION s (10; alias BENCH_WEBHOOK_SECONDS): webhooks/s; then half that
//              rate: submitted->webhook p50/p99; then the same with 10% of the endpoints never answering
//              (WEBHOOK_TIMEOUT_MS 5 s): the others' p99 as a multiple of the healthy run's; then Belgian invoices
//              POSTed through the API to 10 endpoints of the stack's tenant: submit->webhook p50/p99 (scripts/bench/account-webhooks.mjs);
//   supplier-webhooks  BE invoices to a DE supplier hosted here, subscribed (seed route) to a receiver in this process,
//              closed loop for BENCH_WEBHOOK_DURATION s (10), then half that rate: webhooks/s and
//              submitted->webhook;
//   bulk       MyInvois bulks: BENCH_BULK_CLIENTS (5) clients posting BENCH_BULK_SIZE (100)-document
//              bulks for BENCH_BULK_DURATION s (10): documents/s taken, bulk latency, ->valid;
//   uae        PINT AE invoices between two participants hosted here for BENCH_UAE_DURATION s (10),
//              and our PINT AE rules' cost per document next to the official Schematron's;
//   es         Spain: VeriFactu records for one issuer (one chain), then for BENCH_ES_ISSUERS issuers (50),
//              BENCH_ES_DURATION s (10) each, the workers paused; records/s, p50/p99; then the sandbox
//              AEAT's side: records reported per second once the workers resume
//   pl         Poland: invoices over BENCH_PL_SUPPLIERS suppliers (20) for BENCH_PL_DURATION s (10), then until
//              the sandbox KSeF accepted them (its send limits per NIP in force); accepted/s, submitted->Accepted
//   as4        Peppol over real AS4 (#46): two more installations, A and B (databases <name>_as4a_bench and
//              <name>_as4b_bench, own topic prefixes on the bench's broker, a gateway, a delivery-worker and an
//              AS4 engine each, a test PKI made for the run); a BE supplier at A invoices a receiver hosted at B
//              for BENCH_AS4_DURATION s (20) from BENCH_AS4_CONNECTIONS (8) clients, each submitting its next document
//              once its last is Delivered, after one document alone and BENCH_AS4_WARMUP_S (30) s not measured (new
//              JVMs): documents/s Delivered at A (signed, encrypted AS4 to B
//              and B's MLS back), submitted->Sent/Delivered p50/p99, CPU per document of each engine's JVM next
//              to each gateway's and delivery-worker's, and B holding exactly one copy of each (scripts/bench/peppol-as4.mjs);
//              BENCH_AS4_JAVA_TOOL_OPTIONS: JVM options for both engines (JAVA_TOOL_OPTIONS), to compare one run with another;
//   views      documents people can read (#49 "Speed"): a 20-line and a 500-line BE invoice through the API, then
//              BENCH_VIEWS_CONNECTIONS (20) clients GET the 20-line one's /pdf, then its /html, for BENCH_VIEWS_DURATION s
//              (10) each (read again: the gateway's kept views): requests/s, p50/p99 next to the targets (PDF p99 <=
//              150 ms, HTML p99 <= 30 ms); first reads, rendered: 20 other 20-line invoices' PDFs at once, and
//              BENCH_VIEWS_ROUNDS (10) other 500-line ones' one at a time (target <= 2 s); the gateway's memory while rendering
//              (resident set sampled every 100 ms, V8 heap in use before and after each load) (scripts/bench/views.mjs);
//   scale      a second gateway and a second delivery-worker (same consumer group), the load split
//              over both gateways for BENCH_DURATION s: everything delivered, each document once;
//   documents-list  (only when named: its fixture takes minutes and ~2 GB) `GET /v1/documents` (#47 "Speed"): a BULK
//              FIXTURE of 3,000,000 documents, 1,000,000 of them the bench tenant's (scripts/bench/documents-fixture.mjs,
//              written by INSERT ... SELECT, not through the normal path), then for BENCH_LIST_DURATION s (60) one client
//              GETs the list with each filter in turn (and pages deep in it) while BENCH_LIST_RATE (50) submissions a
//              second go through the gateway: p50/p99 per query, each a multiple of a bare GET by primary key measured
//              in the same loop; the plans (BENCH_LIST_EXPLAIN=1: whole), the updates' HOT share and the indexes' write
//              cost (scripts/bench/documents-list.mjs). Then the web console's page loads for the same tenant (#50: under
//              1 s with 1,000,000 documents in the account): by default with nothing else running (the issue's condition;
//              BENCH_CONSOLE_UNDER=submissions keeps the list's 50/s going until they end): Debian's Chromium
//              (puppeteer-core, as the browser tests; installed by apt-get as `npm test` does, or CHROMIUM_PATH) signs in
//              by the form with the tenant's key, then for BENCH_CONSOLE_ROUNDS (20; 0 leaves them out) rounds, each in a
//              new browser context, loads Documents, Documents searched by number and by status, a Document with its
//              timeline, Suppliers and Webhooks, each whole: navigation start -> the page's mark `console:<page>` (its
//              data on screen), p50/p99/max per page next to 1 s, and every request each page made (Resource Timing)
//              (scripts/bench/console-load.mjs). BENCH_LIST_DOCUMENTS (3,000,000) sets the fixture's size, the tenant's
//              a third of it (e.g. 30000 to try the phase in a minute; the figures then say nothing of #47's sizes).
//              The database is dropped after the run (BENCH_KEEP_DB=1 keeps it).
// Every load phase prints the CPU the whole stack used per document (the apps, the broker and the
// machine's PostgreSQL and Redis processes; not the load generator) and PostgreSQL's wait events.
// Settings (environment): BENCH_DURATION (s, 20), BENCH_CONNECTIONS (50), BENCH_DRAIN_TIMEOUT
// (s, 120), BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/einvoice_bench; the name must
// end in _bench), BENCH_KEEP_TMP=1 keeps the temp dir (app and broker logs), BENCH_CPU_PROF=
// gateway,delivery-worker|all writes .cpuprofile files, one per thread (BENCH_CPU_PROF_DIR, ./.run/profiles/<app>-<time>/; read
// them with scripts/bench/profile-summary.mjs). SANDBOX_AP_LATENCY_MS goes to the delivery-worker.
// Figures go to stdout, progress to stderr. Exit code 1 when a request failed or an accepted
// document was lost, duplicated or not delivered in time.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deliveryTimings, duplicatedDeliveries, openDatabase, waitForDelivery } from './bench/delivery.mjs';
import { acceptedLoad, bareRoute, invoiceLoad } from './bench/load.mjs';
import { startReference } from './bench/reference.mjs';
import { compilerSeconds, startProbe } from './bench/probe.mjs';
import { verifactuLoad } from './bench/verifactu.mjs';
import { ksefLoad } from './bench/ksef.mjs';
import { jofotaraLoad } from './bench/jofotara.mjs';
import { firsLoad } from './bench/firs.mjs';
import { afipLoad } from './bench/afip.mjs';
import { createStack, tailOf } from './bench/stack.mjs';
import { createPeppolAs4Pair } from './bench/peppol-as4.mjs';
import { webhookLoad } from './bench/webhooks.mjs';
import { accountWebhookLoad } from './bench/account-webhooks.mjs';
import { bulkLoad, onboardMySupplier } from './bench/bulk.mjs';
import { uaeLoad, uaeRulesCost } from './bench/uae.mjs';
import { FIXTURE_DOCUMENTS, writeFixture } from './bench/documents-fixture.mjs';
import { documentsListRun } from './bench/documents-list.mjs';
import { consoleLoadLines, ensureChromium } from './bench/console-load.mjs';
import { VIEW_TARGETS, viewsRun } from './bench/views.mjs';
import { distribution, ms, num, secs } from './bench/stats.mjs';
import { APPS, ROOT, say } from './lib/services.mjs';
import { runOnPinnedNode } from './lib/node-runtime.mjs';

// The image's Node (24 LTS) also where this machine's own is another release.
await runOnPinnedNode();

function positiveInt(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** Setting `name`, one of `allowed` (`fallback` when unset): a typo stops the run, not a phase later. */
function oneOf(name, allowed, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!allowed.includes(raw)) throw new Error(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw;
}

const settings = {
  duration: positiveInt('BENCH_DURATION', 20),
  connections: positiveInt('BENCH_CONNECTIONS', 50),
  drainTimeoutS: positiveInt('BENCH_DRAIN_TIMEOUT', 120),
  databaseUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/einvoice_bench',
  apLatencyMs: Number(process.env.SANDBOX_AP_LATENCY_MS ?? 0),
  webhookDuration: positiveInt('BENCH_WEBHOOK_DURATION', positiveInt('BENCH_WEBHOOK_SECONDS', 10)),
  bulkDuration: positiveInt('BENCH_BULK_DURATION', 10),
  uaeDuration: positiveInt('BENCH_UAE_DURATION', 10),
  esDuration: positiveInt('BENCH_ES_DURATION', 10),
  esIssuers: positiveInt('BENCH_ES_ISSUERS', 50),
  plDuration: positiveInt('BENCH_PL_DURATION', 10),
  plSuppliers: positiveInt('BENCH_PL_SUPPLIERS', 20),
  joDuration: positiveInt('BENCH_JO_DURATION', 10),
  joClients: positiveInt('BENCH_JO_CLIENTS', 20),
  ngDuration: positiveInt('BENCH_NG_DURATION', 10),
  ngClients: positiveInt('BENCH_NG_CLIENTS', 20),
  arDuration: positiveInt('BENCH_AR_DURATION', 10),
  arClients: positiveInt('BENCH_AR_CLIENTS', 20),
  as4Duration: positiveInt('BENCH_AS4_DURATION', 20),
  as4Connections: positiveInt('BENCH_AS4_CONNECTIONS', 8),
  as4WarmupS: process.env.BENCH_AS4_WARMUP_S === '0' ? 0 : positiveInt('BENCH_AS4_WARMUP_S', 30),
  bulkClients: positiveInt('BENCH_BULK_CLIENTS', 5),
  bulkSize: positiveInt('BENCH_BULK_SIZE', 100),
  e2eDuration: positiveInt('BENCH_E2E_DURATION', 60),
  warmupS: process.env.BENCH_WARMUP_S === '0' ? 0 : positiveInt('BENCH_WARMUP_S', 20),
  warmupMaxS: positiveInt('BENCH_WARMUP_MAX_S', 120),
  openDuration: positiveInt('BENCH_OPEN_DURATION', 20),
  openRate: process.env.BENCH_OPEN_RATE ? positiveInt('BENCH_OPEN_RATE', 1) : undefined,
  listDuration: positiveInt('BENCH_LIST_DURATION', 60),
  listRate: positiveInt('BENCH_LIST_RATE', 50),
  listDocuments: positiveInt('BENCH_LIST_DOCUMENTS', FIXTURE_DOCUMENTS),
  consoleRounds: process.env.BENCH_CONSOLE_ROUNDS === '0' ? 0 : positiveInt('BENCH_CONSOLE_ROUNDS', 20),
  consoleUnder: oneOf('BENCH_CONSOLE_UNDER', ['quiet', 'submissions'], 'quiet'),
  viewsDuration: positiveInt('BENCH_VIEWS_DURATION', 10),
  viewsConnections: positiveInt('BENCH_VIEWS_CONNECTIONS', 20),
  viewsRounds: positiveInt('BENCH_VIEWS_ROUNDS', 10),
  phases: phasesOf(process.env.BENCH_PHASES),
};

/** BENCH_PHASES=reference,accept,... (default: all but documents-list, in this order). */
function phasesOf(raw) {
  const all = ['reference', 'bare', 'accept', 'e2e', 'open', 'webhooks', 'supplier-webhooks', 'bulk', 'uae', 'es', 'pl', 'jo', 'ng', 'ar', 'views', 'as4', 'scale'];
  if (!raw) return new Set(all);
  const known = [...all, 'documents-list'];
  const wanted = raw.split(',').map((p) => p.trim()).filter(Boolean);
  const unknown = wanted.filter((p) => !known.includes(p));
  if (unknown.length) throw new Error(`BENCH_PHASES: unknown phase(s) ${unknown.join(', ')}; known: ${known.join(', ')}`);
  return new Set(wanted);
}
const runId = Date.now().toString(36);
/** The stack's warm-up goes on while the broker's JIT compilers use this much of a core or more. */
const WARMUP_JIT_CORES = 0.03;
const stack = createStack({ databaseUrl: settings.databaseUrl, runId });
let db;
/** The as4 phase's two installations while it runs. */
let as4Pair;
/** Set once the documents-list phase began its fixture: the database is then dropped after the run. */
let fixtureWritten = false;
let exiting = false;
// After Ctrl-C the figures of a cut-short phase mean nothing: print none.
const out = (line = '') => {
  if (!exiting) process.stdout.write(`${line}\n`);
};

async function cleanUp() {
  await db?.end().catch(() => undefined);
  db = undefined;
  await as4Pair?.stop();
  await stack.stop();
  if (fixtureWritten && process.env.BENCH_KEEP_DB !== '1') {
    say('dropping the bench database (the documents-list fixture; BENCH_KEEP_DB=1 keeps it)');
    await stack.dropDatabase().catch((error) => say(`dropping the bench database failed: ${error.message}`));
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (exiting) return;
    exiting = true;
    say(`${signal}: stopping what the bench started`);
    void cleanUp().finally(() => process.exit(130));
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function post(url, headers, body) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

/** Warn/error lines the apps logged (LOG_LEVEL=warn: everything they logged). */
function appLogSummary() {
  const result = {};
  for (const app of APPS) {
    const file = stack.logs[app];
    if (!file) continue;
    let lines = [];
    try {
      lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim());
    } catch {
      // no log
    }
    result[app] = { count: lines.length, first: lines.slice(0, 3) };
  }
  return result;
}

/** One line: CPU per process (share of one core), machine busy share, top PostgreSQL waits. */
function probeLines(p) {
  const jit = (name) => (name === 'kafka' && p.kafkaJit !== undefined ? ` (JIT compiling ${num(p.kafkaJit, 2)})` : '');
  const cores = Object.entries(p.cores).map(([name, c]) => `${name} ${num(c, 2)}${jit(name)}`).join(', ');
  const busy = p.machineBusy === undefined ? '' : `; whole machine ${num(p.machineBusy * 100, 0)}% busy (all processes, ${os.cpus().length} cores)`;
  const waits = p.topWaits.map((w) => `${w.wait} ${num(w.avgBackends, 1)}`).join(', ') || 'none';
  const statements = (p.statements ?? []).map(
    (q) => `    ${num(q.totalMs, 0).padStart(7)} ms  ${String(q.calls).padStart(7)} calls  ${num(q.totalMs / Math.max(q.calls, 1), 3)} ms each  ${q.query}`,
  );
  const handlers = (p.handlers ?? []).map((h) => `${h.app} ${h.type} ${h.count}× ${num(h.meanMs, 1)} ms${h.waitMs === undefined ? '' : ` (waited ${num(h.waitMs, 1)} ms since its publish)`}`).join('; ');
  return [
    `  cpu (cores used)      ${cores}${busy}`,
    `  postgres active      avg backends by wait: ${waits}`,
    ...(handlers ? [`  handlers (mean)      ${handlers}`] : []),
    ...(statements.length ? ['  postgres statements  (pg_stat_statements, most server time first)', ...statements] : []),
  ];
}

/** Stack CPU (apps, broker, PostgreSQL, Redis) per document of a phase, in ms. */
const cpuPerDocument = (p, documents) => (documents > 0 ? (p.cpuSeconds * 1000) / documents : Number.NaN);

/**
 * Samples the delivery backlog every second: the phase's accepted documents (`accepted`, filled by
 * the load as answers come) not yet Delivered. Only those still waiting are read, by primary key: a
 * count over `documents` read every earlier phase's rows too (a sequential scan, 36-40 ms of
 * PostgreSQL each second, charged to the stack's CPU).
 */
function backlogSampler(db, accepted) {
  const waiting = new Set();
  let seen = 0;
  let max = 0;
  let last = 0;
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      for (; seen < accepted.length; seen++) waiting.add(accepted[seen]);
      const { rows } = await db.query(`SELECT id FROM documents WHERE id = ANY($1::uuid[]) AND delivery_status = 'Delivered'`, [[...waiting]]);
      for (const { id } of rows) waiting.delete(id);
      last = waiting.size;
      max = Math.max(max, last);
    } catch {
      // a lost sample is fine
    } finally {
      busy = false;
    }
  }, 1000);
  return { stop: () => (clearInterval(timer), { max, last }) };
}

async function main() {
  const figures = { settings, loadavgBefore: os.loadavg() };
  const run = (phase) => settings.phases.has(phase);
  const summary = [];

  await stack.start();
  const { url, apiKey } = stack;
  const databaseName = decodeURIComponent(new URL(settings.databaseUrl).pathname.slice(1));
  db = await openDatabase(settings.databaseUrl);
  const fixtures = createRequire(path.join(ROOT, 'package.json'))(path.join(ROOT, 'dist', 'libs', 'areas', 'src', 'peppol-ubl', 'fixtures', 'bodies.js'));
  const probeStack = (extra = {}) => startProbe({ pids: { ...stack.pids(), ...extra }, db, database: databaseName, metricsUrls: stack.metricsUrls });

  // One Belgian supplier, identifiers (with their mod-97 check digits) from the test fixtures.
  const s = fixtures.suppliers.be;
  const onboarding = await post(`${url}/be/einvoice/onboard`, { 'x-svc-auth-key': apiKey }, {
    registered_name: s.registeredName,
    identifiers: s.identifiers,
    street: s.street,
    city: s.city,
    postal_code: s.postalCode,
    country: s.country,
    contact_number: s.contactNumber,
  });
  if (onboarding.status !== 201) throw new Error(`onboarding answered ${onboarding.status}: ${onboarding.text}`);
  const supplierId = JSON.parse(onboarding.text).data.supplier_uuid;
  say(`supplier onboarded: ${supplierId}`);

  const invoiceBody = (id) => fixtures.beInvoice({ ID: id });
  const invoiceHeaders = { 'x-svc-auth-key': apiKey, supplier_uuid: supplierId, transport_mode: 'peppol' };
  // One submission first: a broken request shape fails here, not 20 s × N times.
  const first = await post(`${url}/be/einvoice/generate/invoice`, invoiceHeaders, invoiceBody(`PROBE-${runId}`));
  if (first.status !== 202) throw new Error(`the probe submission answered ${first.status}: ${first.text}`);
  let failed = false;
  let phaseNumber = 0;
  const invoices = (label, options) => invoiceLoad({ url, apiKey, supplierId, runId: `${runId}${label}`, invoiceBody, connections: settings.connections, ...options });

  // The stack's warm-up, measured by nothing: a new JVM and new node processes compile their hot paths in
  // their first minute of real traffic (the broker's C2 compiler threads were 8.6% of the machine's samples
  // in an end-to-end phase after the broker's own warm-up, `perf record -a`), which a stack in service did long ago.
  // It goes on, 10 s at a time, while the broker's compiler threads still used WARMUP_JIT_CORES or more
  // (BENCH_WARMUP_MAX_S in all): after 20 s they were still 0.11-0.13 of a core through the end-to-end
  // phase, 40% of the broker's CPU, charged to its documents (2026-11-28), and idle in the phases after it.
  if (settings.warmupS > 0) {
    const kafkaPid = stack.pids().kafka;
    let slice = settings.warmupS;
    for (let spent = slice, round = 1; ; round += 1) {
      say(`warm-up: submissions through the whole stack for ${slice} s, not measured`);
      const started = Date.now();
      const jitBefore = kafkaPid ? compilerSeconds(kafkaPid) : undefined;
      // Its own labels: the phases' document IDs (webhooks.mjs's 'w' among them) never meet its.
      const warmup = await invoices(round === 1 ? 'warmup' : `warmup${round}`, { duration: slice });
      const wait = await waitForDelivery(db, warmup.accepted, { timeoutMs: settings.drainTimeoutS * 1000, since: Date.now(), assertAlive: () => stack.assertAlive() });
      if (!wait.complete || wait.missing || warmup.otherStatus + warmup.errors > 0) failed = true;
      const jitAfter = kafkaPid ? compilerSeconds(kafkaPid) : undefined;
      const jit = jitBefore === undefined || jitAfter === undefined ? undefined : (jitAfter - jitBefore) / ((Date.now() - started) / 1000);
      say(`warm-up: ${warmup.accepted.length} accepted (${warmup.otherStatus + warmup.errors} failed), ${wait.delivered} delivered` + (jit === undefined ? '' : `; the broker's JIT compilers ${num(jit, 2)} cores`));
      if (failed || jit === undefined || jit < WARMUP_JIT_CORES || spent >= settings.warmupMaxS) break;
      slice = Math.min(10, settings.warmupMaxS - spent);
      spent += slice;
    }
  }

  /** Waits until `ids` are Delivered and reads their timings; prints the common lines. */
  async function delivered(ids, loadStoppedAt) {
    say(`waiting (up to ${settings.drainTimeoutS} s) until the ${ids.length} accepted documents are Delivered`);
    let lastReport = 0;
    const wait = await waitForDelivery(db, ids, {
      timeoutMs: settings.drainTimeoutS * 1000,
      since: loadStoppedAt,
      assertAlive: () => stack.assertAlive(),
      onProgress: (n, total) => {
        if (Date.now() - lastReport < 2000 && n !== total) return;
        lastReport = Date.now();
        say(`  ${n}/${total} Delivered`);
      },
    });
    const timings = await deliveryTimings(db, ids);
    const e2e = distribution(timings.submittedToDelivered);
    const drainMs = Math.max(0, timings.lastDeliveredAt - loadStoppedAt);
    const twice = await duplicatedDeliveries(db, ids);
    if (!wait.complete || wait.missing || twice) failed = true;
    out(`  delivered             ${wait.delivered}/${ids.length}${wait.complete ? '' : `  NOT COMPLETE after ${settings.drainTimeoutS} s`}${wait.missing ? ` (${wait.missing} accepted ids missing from documents!)` : ''}; ${twice} delivered twice`);
    out(`  submitted->Delivered  p50 ${ms(e2e.p50)}  p99 ${ms(e2e.p99)}  max ${ms(e2e.max)}   (events.recorded_at, DocumentSubmitted -> DocumentDelivered)`);
    const relay = distribution(timings.submittedToRelayed);
    const consume = distribution(timings.relayedToDelivered);
    out(`    ->relay picked up   p50 ${ms(relay.p50)}  p99 ${ms(relay.p99)}  max ${ms(relay.max)}   (outbox.processed_at)`);
    out(`    relay->Delivered    p50 ${ms(consume.p50)}  p99 ${ms(consume.p99)}  max ${ms(consume.max)}   (Kafka + delivery-worker)`);
    out(`  backlog drained       ${secs(drainMs)} after the load stopped`);
    return { wait, timings, e2e, drainMs };
  }

  /**
   * CPU per document as a multiple of the reference's CPU per INSERT: this shared machine's speed moves
   * between runs (the reference's own CPU per INSERT went from 0.67 to 1.04 ms within one session), the
   * multiple much less. Nothing for the reference itself.
   */
  function cpuRatio(msPerDocument) {
    return reference ? ` (${num(msPerDocument / cpuPerDocument(reference.probe, reference.load.expected), 2)}× the reference's)` : '';
  }

  function loadLines(title, load, p, documents = load.expected) {
    if (load.otherStatus + load.errors > 0 || load.firstError) failed = true;
    out(title);
    out(`  accepted/s            ${num(load.perSecond)}  (${load.expected} answers 202 in ${num(load.durationS)} s)`);
    out(`  latency               p50 ${ms(load.latency.p50)}  p99 ${ms(load.latency.p99)}  max ${ms(load.latency.max)}`);
    out(`  non-202               ${load.otherStatus}  (by status: ${JSON.stringify(load.byStatus)}; ${load.errors} connection errors, ${load.timeouts} timeouts)`);
    if (load.firstError) out(`  first error body      ${load.firstError.status}: ${String(load.firstError.body).slice(0, 300)}`);
    out(`  cpu per document      ${num(cpuPerDocument(p, documents), 2)} ms${cpuRatio(cpuPerDocument(p, documents))} (apps, broker, PostgreSQL, Redis; ${num(p.cpuSeconds, 1)} CPU s for ${documents} documents)`);
    if (p.walBytes !== undefined) out(`  WAL per document      ${num(p.walBytes / documents / 1024, 1)} KiB (PostgreSQL's write-ahead log over the phase)`);
    for (const line of probeLines(p)) out(line);
  }

  // 0. The reference: a bare POST doing one INSERT, same bodies, same connections.
  const measureReference = async (label) => {
    say(`reference${label}: bare Fastify POST + one INSERT, ${settings.connections} connections, ${settings.duration} s`);
    const server = await startReference(settings.databaseUrl);
    const probe = probeStack({ reference: server.pid });
    const load = await acceptedLoad({
      url: server.url, path: '/reference', headers: {}, connections: settings.connections, duration: settings.duration,
      bodyOf: (n) => invoiceBody(`REF-${runId}${label ? 'z' : ''}-${n}`), idOf: (body) => /"DocumentID":"([^"]+)"/.exec(body)?.[1],
    });
    const p = await probe.stopWithWal();
    await server.stop();
    loadLines(`${++phaseNumber}. reference${label}: bare POST, one INSERT (Fastify + pg, 20 pooled connections, no NestJS, no validation)`, load, p);
    out();
    return { load, probe: p };
  };
  let reference;
  if (run('reference')) {
    reference = await measureReference('');
    figures.reference = reference;
  }
  // Significant digits for a ratio under 0.01 (the as4 phase's documents/s is ~1/3,000 of the reference's).
  const times = (r) => (Number.isFinite(r) && r > 0 && r < 0.01 ? r.toPrecision(2) : num(r, 3));
  const ratio = (value) => (reference ? ` (${times(value / reference.load.perSecond)}× the reference)` : '');

  if (run('bare')) {
    say(`bare route: GET /health/live, ${settings.connections} connections, ${settings.duration} s`);
    const probe = probeStack();
    const bare = await bareRoute({ url, connections: settings.connections, duration: settings.duration });
    const p = await probe.stopWithWal();
    stack.assertAlive();
    figures.bare = bare;
    out(`${++phaseNumber}. GET /health/live (the gateway's bare route, no database)`);
    out(`  requests/s            ${num(bare.perSecond)}  (${bare.expected} answers 200 in ${num(bare.durationS)} s)`);
    out(`  latency               p50 ${ms(bare.latency.p50)}  p99 ${ms(bare.latency.p99)}  max ${ms(bare.latency.max)}`);
    for (const line of probeLines(p)) out(line);
    out();
    summary.push(`bare route   GET /health/live ${num(bare.perSecond)} req/s   p50 ${ms(bare.latency.p50)}  p99 ${ms(bare.latency.p99)}`);
  }

  // 1. The accept path alone: the workers paused (SIGSTOP), the gateway and its outbox relay running.
  if (run('accept')) {
    say(`accept path: POST /be/einvoice/generate/invoice, workers paused, ${settings.connections} connections, ${settings.duration} s`);
    stack.pauseWorkers(true);
    const probe = probeStack();
    let load;
    try {
      load = await invoices('a', { duration: settings.duration });
    } finally {
      stack.pauseWorkers(false);
    }
    const stoppedAt = Date.now();
    const p = await probe.stopWithWal();
    stack.assertAlive();
    loadLines(`${++phaseNumber}. accept path: POST /be/einvoice/generate/invoice, workers paused (SIGSTOP), gateway + relay running`, load, p);
    out('  then the workers resumed:');
    const d = await delivered(load.accepted, stoppedAt);
    figures.accept = { load, probe: p, delivery: d };
    out();
    summary.push(`accept       ${num(load.perSecond)} 202/s${ratio(load.perSecond)}   p50 ${ms(load.latency.p50)}  p99 ${ms(load.latency.p99)}   cpu ${num(cpuPerDocument(p, load.expected), 2)} ms/doc${cpuRatio(cpuPerDocument(p, load.expected))}   (workers paused)`);
  }

  // 2. End to end, sustained, every worker running (closed loop).
  let e2eRate;
  if (run('e2e')) {
    say(`end to end: POST /be/einvoice/generate/invoice, every worker running, ${settings.connections} connections, ${settings.e2eDuration} s`);
    const probe = probeStack();
    const accepted = [];
    const backlog = backlogSampler(db, accepted);
    const startedAt = Date.now();
    const load = await invoices('e', { duration: settings.e2eDuration, accepted });
    const stoppedAt = Date.now();
    const b = backlog.stop();
    const p = await probe.stopWithWal();
    stack.assertAlive();
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM events WHERE type = 'DocumentDelivered' AND recorded_at BETWEEN to_timestamp($1 / 1000.0) AND to_timestamp($2 / 1000.0)`,
      [startedAt, stoppedAt],
    );
    const deliveredPerSecond = rows[0].n / ((stoppedAt - startedAt) / 1000);
    loadLines(`${++phaseNumber}. end to end: POST /be/einvoice/generate/invoice for ${settings.e2eDuration} s, every worker running (closed loop)`, load, p);
    out(`  delivered/s           ${num(deliveredPerSecond)} during the load${ratio(deliveredPerSecond)}; backlog (accepted documents not yet Delivered, sampled each second) max ${b.max}, ${b.last} at the end`);
    const d = await delivered(load.accepted, stoppedAt);
    figures.e2e = { load, probe: p, backlog: b, deliveredPerSecond, delivery: d };
    e2eRate = load.perSecond;
    out();
    summary.push(`end to end   ${num(load.perSecond)} 202/s${ratio(load.perSecond)}, ${num(deliveredPerSecond)} Delivered/s${ratio(deliveredPerSecond)}, backlog max ${b.max}   p99 ${ms(load.latency.p99)}   cpu ${num(cpuPerDocument(p, load.expected), 2)} ms/doc${cpuRatio(cpuPerDocument(p, load.expected))}   ->Delivered p50 ${ms(d.e2e.p50)} p99 ${ms(d.e2e.p99)} (${d.wait.delivered}/${load.accepted.length})`);
  }

  // 3. Open loop at half the sustained rate: the latency a steady flow of documents sees.
  if (run('open')) {
    // BENCH_OPEN_RATE: a rate of one's choosing, the same for two builds compared (CPU per document at one load).
    const rate = settings.openRate ?? Math.max(1, Math.round((e2eRate ?? 100) / 2));
    say(`open loop: ${rate} invoices/s for ${settings.openDuration} s`);
    const probe = probeStack();
    const load = await invoices('o', { duration: settings.openDuration, rate });
    const stoppedAt = Date.now();
    const p = await probe.stopWithWal();
    stack.assertAlive();
    loadLines(`${++phaseNumber}. open loop: ${rate} invoices/s (${settings.openRate ? "BENCH_OPEN_RATE" : "half the sustained rate"}) for ${settings.openDuration} s`, load, p);
    const d = await delivered(load.accepted, stoppedAt);
    figures.open = { rate, load, probe: p, delivery: d };
    out();
    summary.push(`open loop    ${rate}/s: 202 p50 ${ms(load.latency.p50)} p99 ${ms(load.latency.p99)}   submitted->Delivered p50 ${ms(d.e2e.p50)}  p99 ${ms(d.e2e.p99)}  (${d.wait.delivered}/${load.accepted.length})`);
  }

  // 4. Account-wide webhooks (#48): the rate, the latency at half of it, and with 10% of the endpoints dead.
  if (run('webhooks')) {
    say(`webhooks: 1,000 account endpoints, documents inserted as rows, ${settings.webhookDuration} s per step`);
    const probe = probeStack();
    const hooks = await accountWebhookLoad({
      root: ROOT, databaseUrl: settings.databaseUrl, secretsKey: stack.env.SECRETS_KEY, runId, duration: settings.webhookDuration,
      drainTimeoutS: settings.drainTimeoutS, say, api: { url, apiKey, supplierId, invoiceBody },
    });
    const p = await probe.stopWithWal();
    stack.assertAlive();
    figures.accountWebhooks = hooks;
    const { closed, open, dead } = hooks;
    const { api } = hooks;
    if (!closed.complete || !open.complete || !dead.complete || !api.complete || api.refused > 0 || hooks.repeated > 0) failed = true;
    const within = dead.p99Ratio <= 1.2;
    out(`${++phaseNumber}. webhooks (account-wide, #48: ${hooks.endpoints} endpoints over 10 tenants, one area each; documents INSERTED as rows -> trigger -> account_events -> dispatcher's tail -> signed POSTs to 127.0.0.1; the last step through the API)`);
    out(`  closed loop: webhooks/s ${num(closed.perSecond)}${ratio(closed.perSecond)} (target >= 500)   received ${closed.received}/${closed.expected}${closed.complete ? '' : `  NOT COMPLETE after ${settings.drainTimeoutS} s`}   submitted->webhook p50 ${ms(closed.latency.p50)}  p99 ${ms(closed.latency.p99)} (a backlog of up to 2,000 kept)`);
    out(`  open loop ${open.rate}/s: submitted->webhook p50 ${ms(open.latency.p50)}  p99 ${ms(open.latency.p99)} (target p99 <= 1 s)  max ${ms(open.latency.max)}   received ${open.received}/${open.expected}`);
    out(`  open loop ${dead.rate}/s, ${dead.deadEndpoints} endpoints never answering (${dead.deadRequests} POSTs to them): the others' p50 ${ms(dead.latency.p50)}  p99 ${ms(dead.latency.p99)}  = ${num(dead.p99Ratio, 2)}× the healthy p99 (target <= 1.2: ${within ? 'met' : 'NOT met'})   received ${dead.received}/${dead.expected}`);
    out(`  through the API, ${num(api.docsPerSecond, 1)} invoices/s POSTed to /be/einvoice/generate/invoice, ${api.endpoints} endpoints each: submit->webhook p50 ${ms(api.latency.p50)}  p99 ${ms(api.latency.p99)} (target p99 <= 1 s)  max ${ms(api.latency.max)}   received ${api.received}/${api.expected}${api.refused ? `  ${api.refused} submissions NOT accepted` : ''}`);
    out(`    of which POST->202 p50 ${ms(api.accept.p50)}  p99 ${ms(api.accept.p99)}; 202->webhook p50 ${ms(api.afterAnswer.p50)}  p99 ${ms(api.afterAnswer.p99)}`);
    out(`    event recorded->its delivery recorded by the tail p50 ${ms(api.tailLag.p50)}  p99 ${ms(api.tailLag.p99)}; delivery recorded->POST received p50 ${ms(api.sendLag.p50)}  p99 ${ms(api.sendLag.p99)}`);
    out(`    the oldest transaction holding an id (the feed's horizon), sampled every 100 ms: age p50 ${ms(api.horizon.age.p50)}  p99 ${ms(api.horizon.age.p99)}; oldest most often: ${api.horizon.top.map(([who, n]) => `${who} (${n}×)`).join('; ') || 'none'}`);
    out(`  ${hooks.repeated} webhooks received twice (${hooks.requests} POSTs to the answering receiver)`);
    for (const line of probeLines(p)) out(line);
    out();
    summary.push(`webhooks     ${num(closed.perSecond)}/s${ratio(closed.perSecond)} (account, closed loop); at ${open.rate}/s ->webhook p50 ${ms(open.latency.p50)}  p99 ${ms(open.latency.p99)}; 10% dead: others' p99 ${ms(dead.latency.p99)} (${num(dead.p99Ratio, 2)}×); through the API p99 ${ms(api.latency.p99)}`);
  }

  // 4b. The seed's supplier webhooks: closed loop for the rate, then open loop at half of it for the latency.
  if (run('supplier-webhooks')) {
    say(`webhooks: BE -> DE (hosted here, subscribed to 127.0.0.1), ${settings.connections} connections, ${settings.webhookDuration} s, then half that rate`);
    const probe = probeStack();
    const hooks = await webhookLoad({
      url, apiKey, db, fixtures, sellerId: supplierId, runId, connections: settings.connections,
      duration: settings.webhookDuration, drainTimeoutS: settings.drainTimeoutS, say,
    });
    const p = await probe.stopWithWal();
    stack.assertAlive();
    figures.webhooks = hooks;
    out(`${++phaseNumber}. supplier-webhooks (BE -> DE hosted here -> DocumentReceived -> signed POST to 127.0.0.1)`);
    for (const [label, h] of [['closed loop', hooks.closed], [`open loop ${hooks.open.rate}/s`, hooks.open]]) {
      if (!h.complete || h.repeated > 0 || h.load.otherStatus + h.load.errors > 0) failed = true;
      out(`  ${label}: ${h.expected} accepted (${num(h.load.perSecond)} 202/s, ${h.load.otherStatus + h.load.errors} failed); webhooks received ${h.received}/${h.expected}${h.complete ? '' : `  NOT COMPLETE after ${settings.drainTimeoutS} s`}, ${h.repeated} sent twice (${h.requests} POSTs in all, with those of documents whose 202 came after the load stopped)`);
      out(`    webhooks/s ${num(h.perSecond)}${ratio(h.perSecond)}   submitted->webhook p50 ${ms(h.latency.p50)}  p99 ${ms(h.latency.p99)}  max ${ms(h.latency.max)}`);
    }
    for (const line of probeLines(p)) out(line);
    out();
    summary.push(`supplier webhooks ${num(hooks.closed.perSecond)}/s${ratio(hooks.closed.perSecond)} (closed loop, ->webhook p99 ${ms(hooks.closed.latency.p99)}); at ${hooks.open.rate}/s ->webhook p50 ${ms(hooks.open.latency.p50)}  p99 ${ms(hooks.open.latency.p99)}`);
  }

  // 5. MyInvois bulks.
  if (run('bulk')) {
    const myFixtures = createRequire(path.join(ROOT, 'package.json'))(path.join(ROOT, 'dist', 'libs', 'areas', 'src', 'myinvois', 'fixtures', 'bodies.js'));
    const mySupplierId = await onboardMySupplier({ url, apiKey, fixtures: myFixtures, runId });
    say(`MyInvois bulks: ${settings.bulkClients} clients × ${settings.bulkSize}-document bulks, ${settings.bulkDuration} s (supplier ${mySupplierId})`);
    const probe = probeStack();
    const bulk = await bulkLoad({
      url, apiKey, supplierId: mySupplierId, fixtures: myFixtures, runId, clients: settings.bulkClients, bulkSize: settings.bulkSize,
      duration: settings.bulkDuration, drainTimeoutS: settings.drainTimeoutS, db, say,
    });
    const p = await probe.stopWithWal();
    stack.assertAlive();
    figures.bulk = bulk;
    const bulkFailed = bulk.requests - (bulk.byStatus[200] ?? 0) - (bulk.byStatus[202] ?? 0) + bulk.errors;
    if (bulkFailed > 0 || !bulk.complete) failed = true;
    out(`${++phaseNumber}. POST /api/einvoice/generate/invoice/bulk (MyInvois sandbox; BODY_LIMIT_BYTES ${stack.bodyLimitBytes} for the bench gateway, largest bulk ${num(bulk.largestBody / 1024, 0)} KiB)`);
    out(`  documents/s taken     ${num(bulk.perSecond)}  (${bulk.taken} accepted or pending in ${bulk.requests} bulks of ${settings.bulkSize} in ${num(bulk.durationS)} s; ${bulk.refused} refused per document)`);
    out(`  bulk latency          p50 ${ms(bulk.latency.p50)}  p99 ${ms(bulk.latency.p99)}  max ${ms(bulk.latency.max)}   (by status: ${JSON.stringify(bulk.byStatus)}; ${bulk.errors} connection errors)`);
    if (bulk.firstError) out(`  first failure         ${bulk.firstError.status}: ${bulk.firstError.body}`);
    out(`  valid                 ${bulk.valid}/${bulk.taken}${bulk.complete ? '' : `  NOT COMPLETE after ${settings.drainTimeoutS} s (${bulk.open} still pending/submitted)`}`);
    out(`  submitted->valid      p50 ${ms(bulk.toValid.p50)}  p99 ${ms(bulk.toValid.p99)}  max ${ms(bulk.toValid.max)}   (documents created_at -> authority.validatedAt; poll interval MYINVOIS_POLL_MS, sandbox validates after 2 s)`);
    out(`  valid/s to the last   ${num(bulk.validPerSecond)}  (${bulk.valid} valid ${num(bulk.untilLastValidS)} s after the first bulk was sent)`);
    out(`  cpu per document      ${num(cpuPerDocument(p, bulk.taken), 2)} ms${cpuRatio(cpuPerDocument(p, bulk.taken))} (load and drain; apps, broker, PostgreSQL, Redis; ${num(p.cpuSeconds, 1)} CPU s)`);
    for (const line of probeLines(p)) out(line);
    out();
    summary.push(`myinvois     bulk ${num(bulk.perSecond)} documents/s taken   bulk p50 ${ms(bulk.latency.p50)}  p99 ${ms(bulk.latency.p99)}   submitted->valid p50 ${ms(bulk.toValid.p50)}  p99 ${ms(bulk.toValid.p99)}   ${num(bulk.validPerSecond)} valid/s to the last   cpu ${num(cpuPerDocument(p, bulk.taken), 2)} ms/doc   (${bulk.valid}/${bulk.taken} valid)`);
  }

  // 6. UAE.
  if (run('uae')) {
    say(`UAE: PINT AE invoices between two participants hosted here, ${settings.connections} connections, ${settings.uaeDuration} s`);
    const probe = probeStack();
    const uae = await uaeLoad({ url, apiKey, db, runId, connections: settings.connections, duration: settings.uaeDuration, drainTimeoutS: settings.drainTimeoutS, say });
    const p = await probe.stopWithWal();
    stack.assertAlive();
    say('UAE: our PINT AE rules and the official Schematron on the 32 official examples');
    const rules = await uaeRulesCost();
    figures.uae = { ...uae, rules };
    if (!uae.complete || uae.load.otherStatus + uae.load.errors > 0) failed = true;
    out(`${++phaseNumber}. POST /v1/participants/{participant_id}/documents (UAE, hosted receiver, sandbox FTA)`);
    out(`  accepted/s            ${num(uae.load.perSecond)}${ratio(uae.load.perSecond)}  (${uae.load.expected} answers 202 in ${num(uae.load.durationS)} s; ${uae.load.otherStatus} other, ${uae.load.errors} errors)`);
    out(`  latency               p50 ${ms(uae.load.latency.p50)}  p99 ${ms(uae.load.latency.p99)}  max ${ms(uae.load.latency.max)}`);
    if (uae.load.firstError) out(`  first failure         ${uae.load.firstError.status}: ${uae.load.firstError.body.slice(0, 300)}`);
    out(`  completed             ${uae.completed}/${uae.load.accepted.length}${uae.complete ? '' : `  NOT COMPLETE after ${settings.drainTimeoutS} s (${uae.attention} attention)`}`);
    out(`  submitted->delivered  p50 ${ms(uae.toDelivered.p50)}  p99 ${ms(uae.toDelivered.p99)}  max ${ms(uae.toDelivered.max)}`);
    out(`  submitted->reported   p50 ${ms(uae.toReported.p50)}  p99 ${ms(uae.toReported.p99)}  max ${ms(uae.toReported.max)}   (includes the sandbox FTA's MLS delay, UAE_SANDBOX_FTA_MLS_MS)`);
    out(`  rules per document    ours ${num(rules.oursMs, 3)} ms, official Schematron ${num(rules.officialMs, 1)} ms (${rules.documents} official examples; ${rules.ourIssues} and ${rules.officialFailures} fatal findings)`);
    out(`  cpu per document      ${num(cpuPerDocument(p, uae.load.expected), 2)} ms${cpuRatio(cpuPerDocument(p, uae.load.expected))}`);
    for (const line of probeLines(p)) out(line);
    out();
    summary.push(`uae          ${num(uae.load.perSecond)} 202/s${ratio(uae.load.perSecond)}   p50 ${ms(uae.load.latency.p50)}  p99 ${ms(uae.load.latency.p99)}   ->delivered p50 ${ms(uae.toDelivered.p50)} p99 ${ms(uae.toDelivered.p99)}   ->reported p50 ${ms(uae.toReported.p50)} p99 ${ms(uae.toReported.p99)}   rules ${num(rules.oursMs, 3)} ms/doc vs official ${num(rules.officialMs, 1)} ms/doc`);
  }

  if (run('es')) {
    const probe = probeStack();
    const es = await verifactuLoad({ url, apiKey, db, runId, connections: settings.connections, duration: settings.esDuration, manyIssuers: settings.esIssuers, drainTimeoutS: settings.drainTimeoutS, say, pauseWorkers: (paused) => stack.pauseWorkers(paused) });
    const p = await probe.stopWithWal();
    stack.assertAlive();
    figures.es = es;
    out(`${++phaseNumber}. POST /es/verifactu/generate (Spain: records chained per issuer; workers paused during the load, then the sandbox AEAT, TiempoEsperaEnvio ${stack.env.VERIFACTU_SANDBOX_WAIT_S} s)`);
    for (const [name, r] of [['one issuer', es.one], [`${es.many.issuers} issuers`, es.many]]) {
      if (!r.complete || r.load.otherStatus + r.load.errors > 0 || r.links !== r.load.accepted.length || r.chains !== r.issuers) failed = true;
      out(`  ${name.padEnd(20)}  ${num(r.load.perSecond)} records/s${ratio(r.load.perSecond)}  p50 ${ms(r.load.latency.p50)}  p99 ${ms(r.load.latency.p99)}  (${r.load.expected} answers 200, ${r.load.otherStatus} other, ${r.load.errors} errors; ${r.links} links in ${r.chains} chain(s))`);
      if (r.load.firstError) out(`    first failure       ${r.load.firstError.status}: ${String(r.load.firstError.body).slice(0, 300)}`);
      out(`    then the AEAT        ${r.answered}/${r.load.accepted.length} answered (${r.reported} Correcto) in ${num(r.drainS)} s after the workers resumed: ${num(r.answered / r.drainS)} records/s reported`);
    }
    out(`  cpu per record        ${num(cpuPerDocument(p, es.one.load.expected + es.many.load.expected), 2)} ms`);
    for (const line of probeLines(p)) out(line);
    out();
    summary.push(`spain        one issuer ${num(es.one.load.perSecond)} records/s (p50 ${ms(es.one.load.latency.p50)} p99 ${ms(es.one.load.latency.p99)}); ${es.many.issuers} issuers ${num(es.many.load.perSecond)} records/s (p50 ${ms(es.many.load.latency.p50)} p99 ${ms(es.many.load.latency.p99)}); AEAT answered ${es.one.answered + es.many.answered}/${es.one.load.accepted.length + es.many.load.accepted.length} (${num(es.one.answered / es.one.drainS)} and ${num(es.many.answered / es.many.drainS)} records/s reported)`);
  }

  if (run('pl')) {
    say(`Poland: KSeF invoices over ${settings.plSuppliers} suppliers, ${settings.connections} connections, ${settings.plDuration} s`);
    const probe = probeStack();
    const pl = await ksefLoad({ url, apiKey, db, runId, suppliers: settings.plSuppliers, connections: settings.connections, duration: settings.plDuration, drainTimeoutS: settings.drainTimeoutS });
    const p = await probe.stopWithWal();
    stack.assertAlive();
    figures.pl = pl;
    if (!pl.complete || pl.load.otherStatus + pl.load.errors > 0 || pl.accepted !== pl.load.accepted.length) failed = true;
    out(`${++phaseNumber}. POST /pl/einvoice/generate/invoice (Poland: FA(3), sandbox KSeF, send limits ${stack.env.KSEF_SANDBOX_LIMITS} per NIP and s/min/h)`);
    out(`  accepted/s            ${num(pl.load.perSecond)}${ratio(pl.load.perSecond)}  p50 ${ms(pl.load.latency.p50)}  p99 ${ms(pl.load.latency.p99)}  (${pl.load.expected} answers 202 over ${pl.suppliers} suppliers, ${pl.load.otherStatus} other, ${pl.load.errors} errors)`);
    if (pl.load.firstError) out(`  first failure         ${pl.load.firstError.status}: ${String(pl.load.firstError.body).slice(0, 300)}`);
    out(`  KSeF                  ${pl.accepted}/${pl.load.accepted.length} Accepted, ${pl.settled - pl.accepted} Rejected; all settled ${num(pl.drainS)} s after the load`);
    out(`  submitted->Accepted   p50 ${ms(pl.toAccepted.p50)}  p99 ${ms(pl.toAccepted.p99)}  max ${ms(pl.toAccepted.max)}`);
    for (const line of probeLines(p)) out(line);
    out();
    summary.push(`poland       ${num(pl.load.perSecond)} 202/s${ratio(pl.load.perSecond)}   p50 ${ms(pl.load.latency.p50)}  p99 ${ms(pl.load.latency.p99)}   ->Accepted p50 ${ms(pl.toAccepted.p50)} p99 ${ms(pl.toAccepted.p99)} (${pl.accepted}/${pl.load.accepted.length}; limits ${stack.env.KSEF_SANDBOX_LIMITS} per NIP)`);
  }

  if (run('jo')) {
    say(`Jordan: JoFotara invoices from ${settings.joClients} devices, each in sequence, ${settings.joDuration} s`);
    const probe = probeStack();
    const jo = await jofotaraLoad({ url, apiKey, db, runId, clients: settings.joClients, duration: settings.joDuration });
    const p = await probe.stopWithWal();
    stack.assertAlive();
    figures.jo = jo;
    const others = Object.entries(jo.statuses).filter(([status]) => status !== '200');
    if (others.length || !jo.heldOnce) failed = true;
    out(`${++phaseNumber}. POST /jo/einvoice/generate (Jordan: answered with the sandbox JoFotara's verdict, its latency JOFOTARA_SANDBOX_DELAY_MS ${stack.env.JOFOTARA_SANDBOX_DELAY_MS} ms)`);
    out(`  generate/s            ${num(jo.perSecond)}${ratio(jo.perSecond)}  p50 ${ms(jo.latency.p50)}  p99 ${ms(jo.latency.p99)}  max ${ms(jo.latency.max)}  (${jo.answered} answers 200 from ${jo.clients} devices; other: ${others.map(([s, n]) => `${n}×${s}`).join(', ') || 'none'})`);
    if (jo.firstError) out(`  first failure         ${jo.firstError.status}: ${String(jo.firstError.body).slice(0, 300)}`);
    out(`  JoFotara holds        ${jo.held}/${jo.answered} answered invoices, each once: ${jo.heldOnce ? 'yes' : 'NO'}`);
    out(`  cpu per invoice       ${num(cpuPerDocument(p, jo.answered), 2)} ms`);
    for (const line of probeLines(p)) out(line);
    out();
    summary.push(`jordan       ${num(jo.perSecond)} 200/s${ratio(jo.perSecond)}   p50 ${ms(jo.latency.p50)}  p99 ${ms(jo.latency.p99)} (${jo.clients} devices, sandbox latency ${stack.env.JOFOTARA_SANDBOX_DELAY_MS} ms; ${jo.answered} cleared, each once: ${jo.heldOnce ? 'yes' : 'NO'})`);
  }

  if (run('ng')) {
    say(`Nigeria: FIRS invoices from ${settings.ngClients} taxpayers, ${settings.ngDuration} s`);
    const probe = probeStack();
    const ng = await firsLoad({ url, apiKey, db, runId, clients: settings.ngClients, duration: settings.ngDuration });
    const p = await probe.stopWithWal();
    stack.assertAlive();
    figures.ng = ng;
    const others = Object.entries(ng.statuses).filter(([status]) => status !== '200');
    if (others.length || !ng.signedOnce) failed = true;
    out(`${++phaseNumber}. POST /api/invoice/generate (Nigeria: answered once the sandbox FIRS validated and signed, its signing latency FIRS_SANDBOX_DELAY_MS ${stack.env.FIRS_SANDBOX_DELAY_MS} ms)`);
    out(`  generate/s            ${num(ng.perSecond)}${ratio(ng.perSecond)}  p50 ${ms(ng.latency.p50)}  p99 ${ms(ng.latency.p99)}  max ${ms(ng.latency.max)}  (${ng.answered} answers 200 from ${ng.clients} taxpayers; other: ${others.map(([s, n]) => `${n}×${s}`).join(', ') || 'none'})`);
    if (ng.firstError) out(`  first failure         ${ng.firstError.status}: ${String(ng.firstError.body).slice(0, 300)}`);
    out(`  FIRS signed           ${ng.signed}/${ng.answered} answered IRNs, each once: ${ng.signedOnce ? 'yes' : 'NO'}`);
    out(`  cpu per invoice       ${num(cpuPerDocument(p, ng.answered), 2)} ms`);
    for (const line of probeLines(p)) out(line);
    out();
    summary.push(`nigeria      ${num(ng.perSecond)} 200/s${ratio(ng.perSecond)}   p50 ${ms(ng.latency.p50)}  p99 ${ms(ng.latency.p99)} (${ng.clients} taxpayers, sandbox signing latency ${stack.env.FIRS_SANDBOX_DELAY_MS} ms; ${ng.answered} signed, each once: ${ng.signedOnce ? 'yes' : 'NO'})`);
  }

  if (run('ar')) {
    say(`Argentina: AFIP vouchers from ${settings.arClients} clients, on one sequence then on one each, ${settings.arDuration} s each`);
    const probe = probeStack();
    const ar = await afipLoad({ url, apiKey, db, runId, clients: settings.arClients, duration: settings.arDuration });
    const p = await probe.stopWithWal();
    stack.assertAlive();
    figures.ar = ar;
    out(`${++phaseNumber}. POST /ar/einvoice/create-voucher (Argentina: answered with the sandbox AFIP's CAE; numbers strictly in sequence)`);
    for (const r of [ar.one, ar.many]) {
      const others = Object.entries(r.statuses).filter(([status]) => status !== '200');
      if (others.length || r.authorised !== r.answered || !r.noGaps || r.stored !== r.authorised) failed = true;
      out(`  ${r.name.padEnd(20)}  ${num(r.perSecond)} vouchers/s${ratio(r.perSecond)}  p50 ${ms(r.latency.p50)}  p99 ${ms(r.latency.p99)}  (${r.authorised}/${r.answered} authorised, stored ${r.stored}, no gaps: ${r.noGaps ? 'yes' : 'NO'}; other: ${others.map(([s, n]) => `${n}×${s}`).join(', ') || 'none'})`);
      if (r.firstError) out(`    first failure       ${r.firstError.status}: ${String(r.firstError.body).slice(0, 300)}`);
    }
    for (const line of probeLines(p)) out(line);
    out();
    summary.push(`argentina    one sequence ${num(ar.one.perSecond)} vouchers/s (p50 ${ms(ar.one.latency.p50)} p99 ${ms(ar.one.latency.p99)}); ${settings.arClients} sequences ${num(ar.many.perSecond)} vouchers/s (p50 ${ms(ar.many.latency.p50)} p99 ${ms(ar.many.latency.p99)}); no gaps: ${ar.one.noGaps && ar.many.noGaps ? 'yes' : 'NO'}`);
  }

  if (run('as4')) {
    say(`as4: two installations with an AS4 engine each, ${settings.as4Connections} connections, ${settings.as4Duration} s`);
    as4Pair = createPeppolAs4Pair({ databaseUrl: settings.databaseUrl, runId, brokers: stack.env.KAFKA_BROKERS, say });
    let r;
    let logs;
    try {
      await as4Pair.start();
      r = await as4Pair.run({ fixtures, connections: settings.as4Connections, duration: settings.as4Duration, warmupS: settings.as4WarmupS, drainTimeoutS: settings.drainTimeoutS, kafkaPid: stack.pids().kafka });
      logs = as4Pair.logCounts();
    } catch (error) {
      failed = true;
      say(`as4 failed: ${error?.stack ?? error}\n${as4Pair.tails()}`);
      out(`${++phaseNumber}. Peppol AS4 between two installations: FAILED (${String(error?.message ?? error).split('\n')[0].slice(0, 300)})`);
      out();
    } finally {
      await as4Pair.stop();
      as4Pair = undefined;
    }
    if (r) {
      figures.as4 = r;
      const { load, wait, atB, probe: p } = r;
      if (load.otherStatus + load.errors + load.outcomes.Failed > 0 || !wait.complete || wait.missing || r.twiceAtA || atB.once !== atB.documents) failed = true;
      const total = cpuPerDocument(p, wait.delivered);
      const perProcess = (suffix) => Object.entries(r.cpuMsPerDocument).filter(([name]) => name.endsWith(suffix)).map(([name, v]) => `${name.replace(suffix, '')} ${num(v, 2)}`).join(', ');
      const shared = Object.entries(r.cpuMsPerDocument).filter(([name]) => !/ [AB]$/.test(name)).map(([name, v]) => `${name} ${num(v, 2)}`).join(', ');
      out(`${++phaseNumber}. Peppol AS4 between two installations here: BE supplier at A -> receiver hosted at B (signed, encrypted AS4), B's MLS back -> Delivered at A; ${settings.as4Connections} clients for ${settings.as4Duration} s, each submitting its next document once its last is Delivered (closed over the round trip)`);
      out(`  delivered/s           ${num(r.deliveredPerSecond)}${ratio(r.deliveredPerSecond)}  (${wait.delivered} Delivered at A in ${num(r.spanS)} s, from the first submission to the last MLS)`);
      out(`  POST at A             ${load.expected} answers 202, ${load.otherStatus} other, ${load.errors} errors; p50 ${ms(load.latency.p50)}  p99 ${ms(load.latency.p99)}; then ${load.outcomes.Delivered} Delivered, ${load.outcomes.Failed} Failed, ${load.outcomes.timeout} not final within ${settings.drainTimeoutS} s`);
      if (load.firstError) out(`  first failure         ${load.firstError.status}: ${String(load.firstError.body).slice(0, 300)}`);
      out(`  delivered             ${wait.delivered}/${load.accepted.length}${wait.complete ? '' : `  NOT COMPLETE after ${settings.drainTimeoutS} s`}; ${r.twiceAtA} Delivered twice at A`);
      out(`  exactly once at B     ${atB.once}/${atB.documents} numbers held once as incoming at B, ${atB.missing} missing, ${atB.twice} more than once (the first document and the warm-up's included)`);
      out(`  submitted->Sent       p50 ${ms(r.toSent.p50)}  p99 ${ms(r.toSent.p99)}  max ${ms(r.toSent.max)}   (B's AS4 receipt back at A)`);
      out(`  submitted->Delivered  p50 ${ms(r.toDelivered.p50)}  p99 ${ms(r.toDelivered.p99)}  max ${ms(r.toDelivered.max)}   (B's MLS received at A)`);
      out(`  cpu ms per document   A: ${perProcess(' A')};  B: ${perProcess(' B')};  shared: ${shared}`);
      out(`    idle (cores)        ${Object.entries(r.idleCores).map(([name, c]) => `${name} ${num(c, 3)}`).join(', ')}   (${r.idleS} s with nothing sent, before the load: at this rate part of each figure above)`);
      const split = (t, digits) => (t ? `JIT ${num(t.jit, digits)}, GC ${num(t.gc, digits)}, the rest ${num(t.other, digits)}` : 'n/a');
      out(`    engines' threads    A: ${split(r.engineMsPerDocument['engine A'], 1)} ms;  B: ${split(r.engineMsPerDocument['engine B'], 1)} ms   (JIT: C1/C2 compiler threads, new JVMs still compiling; GC: G1 and VM threads)`);
      out(`    engines idle        A: ${split(r.idleEngineCores['engine A'], 3)};  B: ${split(r.idleEngineCores['engine B'], 3)} cores`);
      out(`  cpu per document      ${num(total, 2)} ms${cpuRatio(total)} (both installations' apps and engines, the broker, PostgreSQL, Redis; ${num(p.cpuSeconds, 1)} CPU s for ${wait.delivered} documents)`);
      out(`  first document        Delivered ${ms(r.first.ms)} after its POST (new JVMs)${r.warmup ? `; then a warm-up of ${r.warmup.accepted} documents (${r.warmup.failed} failed), not measured` : ''}`);
      out(`  logs                  warn/error lines: ${Object.entries(logs).map(([name, n]) => `${name} ${n}`).join(', ')}`);
      for (const line of probeLines(p)) out(line);
      out();
      const engines = ['engine A', 'engine B'].map((name) => `${name} ${num(r.cpuMsPerDocument[name], 2)}`).join(', ');
      const apps = ['gateway A', 'delivery-worker A', 'gateway B', 'delivery-worker B'].map((name) => `${name} ${num(r.cpuMsPerDocument[name], 2)}`).join(', ');
      summary.push(`peppol as4   ${num(r.deliveredPerSecond)} Delivered/s${ratio(r.deliveredPerSecond)} (AS4 A->B + MLS B->A)   ->Delivered p50 ${ms(r.toDelivered.p50)} p99 ${ms(r.toDelivered.p99)}   cpu ms/doc ${engines}; ${apps}   (${wait.delivered}/${load.accepted.length}; B holds ${atB.once}/${atB.documents} once)`);
    }
  }

  // #49 "Speed": the printed views of a document.
  if (run('views')) {
    say(`views: a 20-line and a 500-line BE invoice; GET /pdf then /html, ${settings.viewsConnections} clients, ${settings.viewsDuration} s each; the 500-line PDF ${settings.viewsRounds} times one at a time`);
    const probe = probeStack();
    const r = await viewsRun({
      url, apiKey, invoiceHeaders, invoiceBody, runId, connections: settings.viewsConnections, duration: settings.viewsDuration, rounds: settings.viewsRounds,
      gatewayPid: stack.pids().gateway, operatorUrl: stack.operatorUrl, assertAlive: () => stack.assertAlive(),
    });
    const p = await probe.stop();
    figures.views = { ...r, probe: p };
    const mib = (bytes) => (Number.isFinite(bytes) ? `${num(bytes / 2 ** 20, 1)} MiB` : 'n/a');
    const grew = (from, to) => (Number.isFinite(from) && Number.isFinite(to) ? `${to >= from ? '+' : ''}${mib(to - from)}` : 'n/a');
    const met = (value, target) => (value <= target ? 'met' : 'MISSED');
    const memoryLine = (m, inFlight) =>
      `resident ${mib(m.before)} before, peak ${mib(m.peak)} (${grew(m.before, m.peak)}; ${mib((m.peak - m.before) / inFlight)} per render in flight), ${mib(m.after)} after; V8 heap in use ${mib(m.heapBefore)} -> ${mib(m.heapAfter)}`;
    out(`${++phaseNumber}. documents people can read (#49): GET /v1/documents/{id}/pdf and /html, the gateway rendering (pdfkit, DejaVu Sans subset; PDF/A-3 with the UBL attached)`);
    for (const [name, m, target] of [['pdf, 20 lines, again', r.pdf, VIEW_TARGETS.pdfP99Ms], ['html, 20 lines, again', r.html, VIEW_TARGETS.htmlP99Ms]]) {
      const { load } = m;
      if (load.otherStatus + load.errors > 0) failed = true;
      out(`  ${name.padEnd(21)} ${num(load.perSecond)} req/s${ratio(load.perSecond)}   p50 ${ms(load.latency.p50)}  p99 ${ms(load.latency.p99)}  max ${ms(load.latency.max)}   target p99 <= ${target} ms: ${met(load.latency.p99, target)}   (${load.expected} answers 200 from ${r.connections} clients in ${num(load.durationS)} s; ${load.otherStatus} other, ${load.errors} errors)`);
      out(`    memory              ${memoryLine(m.memory, r.connections)}`);
    }
    const { first, long } = r;
    if ([first, long].some((f) => Object.keys(f.statuses).some((status) => status !== '200'))) failed = true;
    out(`  pdf, 20 lines, first reads (rendered): ${r.connections} other invoices at once: p50 ${ms(first.latency.p50)}  p99 ${ms(first.latency.p99)}  max ${ms(first.latency.max)}${ratio(1000 / first.latency.p50)} (as renders/s)   (statuses ${JSON.stringify(first.statuses)})`);
    out(`    memory              ${memoryLine(first.memory, r.connections)}`);
    out(`  pdf, 500 lines        first reads (rendered), one at a time, ${long.rounds} invoices: p50 ${ms(long.latency.p50)}  max ${ms(long.latency.max)}${ratio(1000 / long.latency.p50)} (as renders/s)   target <= ${VIEW_TARGETS.longPdfMs} ms: ${met(long.latency.max, VIEW_TARGETS.longPdfMs)}   (${num(long.bytes / 1024, 0)} KiB; statuses ${JSON.stringify(long.statuses)})`);
    out(`    memory              ${memoryLine(long.memory, 1)}`);
    for (const line of probeLines(p)) out(line);
    out();
    summary.push(`views        pdf ${num(r.pdf.load.perSecond)} req/s${ratio(r.pdf.load.perSecond)} p99 ${ms(r.pdf.load.latency.p99)} (<= ${VIEW_TARGETS.pdfP99Ms}: ${met(r.pdf.load.latency.p99, VIEW_TARGETS.pdfP99Ms)}); html ${num(r.html.load.perSecond)} req/s${ratio(r.html.load.perSecond)} p99 ${ms(r.html.load.latency.p99)} (<= ${VIEW_TARGETS.htmlP99Ms}: ${met(r.html.load.latency.p99, VIEW_TARGETS.htmlP99Ms)}); first reads of 20 at once p99 ${ms(first.latency.p99)}; 500-line pdf max ${ms(long.latency.max)} (<= ${VIEW_TARGETS.longPdfMs}: ${met(long.latency.max, VIEW_TARGETS.longPdfMs)}); peak resident +${mib(r.pdf.memory.peak - r.pdf.memory.before)} at ${r.connections} PDFs in flight`);
  }

  // 7. Scale-out, last (it adds processes): a second gateway and a second delivery-worker (same
  // consumer group: the partitions are split between the two), the load split over both gateways.
  if (run('scale')) {
    say('scale-out: a second gateway and a second delivery-worker');
    const secondUrl = await stack.startAnother('gateway');
    await stack.startAnother('delivery-worker');
    await sleep(5000); // the delivery group rebalances over its two members
    const half = Math.max(1, Math.floor(settings.connections / 2));
    const probe = probeStack();
    const [a, b] = await Promise.all([
      invoiceLoad({ url, apiKey, supplierId, runId: `${runId}s1`, invoiceBody, connections: half, duration: settings.duration }),
      invoiceLoad({ url: secondUrl, apiKey, supplierId, runId: `${runId}s2`, invoiceBody, connections: half, duration: settings.duration }),
    ]);
    const stoppedAt = Date.now();
    const p = await probe.stopWithWal();
    stack.assertAlive();
    const accepted = a.expected + b.expected;
    const perSecond = a.perSecond + b.perSecond;
    if (a.otherStatus + a.errors + b.otherStatus + b.errors > 0) failed = true;
    out(`${++phaseNumber}. scale-out: two gateways (${half} connections each) and two delivery-workers, ${settings.duration} s`);
    out(`  accepted/s            ${num(perSecond)}${ratio(perSecond)}  (${a.expected} + ${b.expected}; ${a.otherStatus + a.errors + b.otherStatus + b.errors} failed)`);
    out(`  cpu per document      ${num(cpuPerDocument(p, accepted), 2)} ms${cpuRatio(cpuPerDocument(p, accepted))}`);
    for (const line of probeLines(p)) out(line);
    const d = await delivered([...a.accepted, ...b.accepted], stoppedAt);
    figures.scale = { a, b, probe: p, delivery: d };
    out();
    summary.push(`scale-out    2 gateways + 2 delivery-workers: ${num(perSecond)} 202/s${ratio(perSecond)}   ->Delivered p50 ${ms(d.e2e.p50)} p99 ${ms(d.e2e.p99)} (${d.wait.delivered}/${accepted}, each once)`);
    await stack.stopOthers();
  }

  // #47 "Speed": the account-wide list at 1,000,000 documents in the tenant and 3,000,000 in the database.
  if (run('documents-list')) {
    const { rows: [{ tenant_id: tenantId }] } = await db.query(`SELECT tenant_id FROM documents ORDER BY created_at DESC LIMIT 1`);
    // Before the fixture's minutes: a run that cannot open the console stops now, not after them.
    if (settings.consoleRounds > 0) ensureChromium();
    const fixtureTotal = settings.listDocuments;
    // writeFixture gives the tenant every third row (g % 3 = 0).
    const tenantDocuments = Math.floor(fixtureTotal / 3);
    const count = (n) => n.toLocaleString('en-US');
    say(`documents-list: the bulk fixture, ${fixtureTotal} documents by INSERT ... SELECT (not the normal path), a third of them tenant ${tenantId}'s`);
    fixtureWritten = true;
    const fixtureStarted = Date.now();
    await writeFixture(db, tenantId, { total: fixtureTotal, progress: (done, total) => say(`  fixture ${done}/${total} (${secs(Date.now() - fixtureStarted)})`) });
    const fixtureMs = Date.now() - fixtureStarted;
    const server = await startReference(settings.databaseUrl);
    const loadavgBefore = os.loadavg();
    // Where the machine's time goes while the list is read: each app's cores and PostgreSQL's waits (the list's
    // figures are only as good as the machine is quiet; the reference GET's own p99 says how quiet it was).
    let r;
    let p;
    try {
      const seed = await post(`${server.url}/reference`, {}, invoiceBody(`REF-${runId}-list`));
      const referenceUrl = `${server.url}/reference/${Number(JSON.parse(seed.text).data.DocumentID.slice(-12))}`;
      say(`documents-list: GET /v1/documents, each filter in turn, for ${settings.listDuration} s under ${settings.listRate} submissions/s`);
      r = await documentsListRun({
        db, url, apiKey, tenantId, tenantDocuments, referenceUrl, duration: settings.listDuration, fullPlans: process.env.BENCH_LIST_EXPLAIN === '1',
        assertAlive: () => stack.assertAlive(),
        consoleRounds: settings.consoleRounds,
        consoleUnder: settings.consoleUnder,
        // The list's load lasts its duration; the console's (a label and a signal) until its rounds end.
        submit: ({ label = 'l', signal } = {}) => invoices(label, signal ? { rate: settings.listRate, signal } : { duration: settings.listDuration, rate: settings.listRate }),
        during: async (work) => {
          const probe = probeStack({ reference: server.pid });
          try {
            return await work();
          } finally {
            p = await probe.stopWithWal();
          }
        },
      });
    } finally {
      await server.stop();
    }
    const loadavgAfter = os.loadavg();
    stack.assertAlive();
    figures.documentsList = { ...r, fixtureMs, loadavgBefore, loadavgAfter, probe: p };
    const { load, reference: ref } = r;
    if (load.otherStatus + load.errors > 0) failed = true;
    const lms = (v) => (Number.isFinite(v) ? `${num(v, 1)} ms` : 'n/a');
    out(`${++phaseNumber}. GET /v1/documents (#47): one client, every query below in turn for ${num(settings.listDuration, 0)} s, while ${settings.listRate} submissions/s go through the gateway`);
    out(`  fixture               BULK FIXTURE, not the normal path: ${fixtureTotal} documents by INSERT ... SELECT in ${secs(fixtureMs)}, ${count(tenantDocuments)} of them this tenant's (scripts/bench/documents-fixture.mjs)${fixtureTotal === FIXTURE_DOCUMENTS ? '' : ' (BENCH_LIST_DOCUMENTS: not #47\'s size)'}`);
    out(`  submissions           ${num(load.perSecond)} 202/s (target ${settings.listRate}; ${load.expected} accepted, ${load.otherStatus + load.errors} failed)  POST p50 ${ms(load.latency.p50)}  p99 ${ms(load.latency.p99)}`);
    out(`  reference             bare GET, one SELECT by primary key (Fastify + pg), same client, same loop: p50 ${lms(ref.latency.p50)}  p99 ${lms(ref.latency.p99)}  (${ref.n} requests)`);
    out(`  ${'query'.padEnd(36)}   p50 (× the reference's)   p99 (× the reference's)   requests; rows on page 1; plan of one request (EXPLAIN ANALYZE: scans, time, buffers)`);
    const over = [];
    for (const [name, c] of Object.entries(r.cases)) {
      const others = Object.entries(c.statuses).filter(([status]) => status !== '200');
      if (others.length) failed = true;
      if (!(c.latency.p99 <= 50)) over.push(name);
      const plan = r.plans[name];
      out(`  ${name.padEnd(36)} ${lms(c.latency.p50).padStart(9)} (${num(c.latency.p50 / ref.latency.p50, 1)}×)  ${lms(c.latency.p99).padStart(9)} (${num(c.latency.p99 / ref.latency.p99, 1)}×)  ${c.n}; ${c.rows ?? '-'}; ${plan.scans.join(' + ')} ${num(plan.executionMs, 2)} ms, ${plan.buffers}`
        + (others.length ? `  NON-200: ${others.map(([st, n]) => `${n}×${st}`).join(', ')} ${c.firstError ?? ''}` : ''));
    }
    out(`  p99 over 50 ms        ${over.join(', ') || 'none'}`);
    const share = (part, whole) => (whole > 0 ? `${num((100 * part) / whole, 0)}%` : 'n/a');
    out(`  updates during load   ${r.duringLoad.updated} rows of documents updated, ${r.duringLoad.hot} of them HOT (${share(r.duringLoad.hot, r.duringLoad.updated)}; pg_stat_user_tables: the delivery path's state changes)`);
    out(`  write cost            ${r.write.rows} BE documents at ${count(fixtureTotal)}: INSERT ${num(r.write.insertPerSecond, 0)} rows/s, UPDATE Scheduled->Sent->Delivered ${num(r.write.updatePerSecond, 0)} rows/s, ${r.write.hot}/${r.write.updated} HOT (${share(r.write.hot, r.write.updated)}); set-based, one transaction rolled back`);
    const mb = (bytes) => `${num(bytes / 2 ** 20, 0)} MB`;
    out(`  indexes (${r.table.indexes.length})          ${r.table.indexes.map((i) => `${i.name} ${mb(i.bytes)}`).join(', ')}; heap ${mb(r.table.heapBytes)}`);
    out(`  load average          ${loadavgBefore.map((v) => num(v, 2)).join(' ')} before the queries, ${loadavgAfter.map((v) => num(v, 2)).join(' ')} after (1/5/15 min; the machine is shared: the figures are noisy)`);
    for (const line of probeLines(p)) out(line);
    const pages = r.console && consoleLoadLines(r.console, { rate: settings.listRate });
    if (pages) {
      if (pages.failed) failed = true;
      for (const line of pages.lines) out(line);
    }
    if (process.env.BENCH_LIST_EXPLAIN === '1') {
      for (const [name, plan] of Object.entries(r.plans)) {
        out(`  --- ${name}: GET /v1/documents?${plan.query}`);
        for (const line of plan.lines) out(`    ${line}`);
      }
    }
    out();
    const worst = Object.entries(r.cases).sort(([, a], [, b]) => b.latency.p99 - a.latency.p99)[0];
    const size = (n) => (n % 1_000_000 === 0 ? `${n / 1_000_000}M` : count(n));
    summary.push(`documents    GET /v1/documents at ${size(tenantDocuments)}/${size(fixtureTotal)} (bulk fixture) under ${num(load.perSecond)} submissions/s: worst p99 ${lms(worst[1].latency.p99)} (${worst[0]}), ${Object.keys(r.cases).length - over.length}/${Object.keys(r.cases).length} queries p99 <= 50 ms; updates ${share(r.duringLoad.hot, r.duringLoad.updated)} HOT; ${r.table.indexes.length} indexes`);
    if (pages) summary.push(`console      page loads at ${size(tenantDocuments)} documents in the account, ${r.console.rounds} rounds, ${r.console.load ? `under ${settings.listRate} submissions/s` : 'nothing else running'}: ${pages.pages - pages.missed}/${pages.pages} with p99 <= 1 s; worst p99 ${ms(pages.worst.p99)} (${pages.worst.name})`);
  }

  // The reference once more after the phases: a shared VM's speed drifts within a run (this one's reference ran at
  // 1,080–2,131 202/s within an hour), and every ratio above is to the first; the second says how far to trust them.
  let referenceAfter;
  if (reference && summary.length > 0) {
    referenceAfter = await measureReference(' again');
    figures.referenceAfter = referenceAfter;
  }

  const logs = appLogSummary();
  const cpus = os.cpus();
  out('=== einvoice bench summary ===');
  out(`machine      ${cpus.length} cores × ${cpus[0]?.model?.trim() ?? 'unknown CPU'}, ${num(os.totalmem() / 2 ** 30)} GiB RAM, ${os.platform()} ${os.release()}`);
  out(`load avg     ${figures.loadavgBefore.map((v) => num(v, 2)).join(' ')} before the bench, ${os.loadavg().map((v) => num(v, 2)).join(' ')} after (1/5/15 min; the machine is shared)`);
  out(`runtime      node ${process.version}, autocannon ${createRequire(path.join(ROOT, 'package.json'))('autocannon/package.json').version} (closed loops; fixed rates paced by node:http), load generator on the same machine`);
  out(`setup        ${settings.connections} connections; ${settings.duration} s per closed-loop phase, ${settings.e2eDuration} s end to end, ${settings.openDuration} s open loop; 1 BE supplier; sandbox access point (latency ${settings.apLatencyMs} ms); LOG_LEVEL=warn; 4 apps + Kafka + PostgreSQL on this host; durable commits`);
  if (reference) out(`reference    bare POST + one INSERT ${num(reference.load.perSecond)} 202/s   p50 ${ms(reference.load.latency.p50)}  p99 ${ms(reference.load.latency.p99)}   cpu ${num(cpuPerDocument(reference.probe, reference.load.expected), 2)} ms/doc`);
  if (referenceAfter) {
    const drift = referenceAfter.load.perSecond / reference.load.perSecond - 1;
    out(`  again      after the phases ${num(referenceAfter.load.perSecond)} 202/s (${drift >= 0 ? '+' : ''}${num(drift * 100, 0)}%: this machine's drift during the run; the ratios are to the first)`);
  }
  for (const line of summary) out(line);
  out(`app logs     ${Object.entries(logs).map(([app, l]) => `${app} ${l.count}`).join(', ')} lines at warn/error`);
  for (const [app, l] of Object.entries(logs)) for (const line of l.first) out(`  ${app}: ${line.slice(0, 300)}`);
  out(failed ? 'RESULT       FAILED: a request failed, or a document was lost, duplicated or left undelivered (see above)' : 'RESULT       every accepted document delivered once, no failed request');
  return failed ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  if (exiting) await new Promise(() => undefined); // the signal handler cleans up and exits
  say(`bench failed: ${error?.stack ?? error}`);
  for (const app of APPS) {
    const file = stack.logs[app];
    const tail = file ? tailOf(file, 15) : '';
    if (tail) say(`--- last lines of ${app} ---\n${tail}`);
  }
} finally {
  if (!exiting) await cleanUp();
}
if (!exiting) process.exit(code);
