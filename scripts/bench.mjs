// `npm run bench`: throughput and delivery latency of the whole stack on this machine.
// Not part of `npm test`. It starts its own isolated stack (database einvoice_bench, recreated on
// every run; its own Kafka broker on a free port with a temp data dir; its own topic prefix and
// gateway port), so a developer's running stack is never touched, then:
//   1. GET /health/live under load: the bare-route ceiling of this gateway on this machine;
//   2. POST /be/einvoice/generate/invoice under load, each request with its own invoice ID;
//   3. waits until every accepted document is Delivered and reports submission-to-Delivered;
//   4. webhooks: BE invoices to a DE supplier hosted here with a subscription to a receiver in
//      this process (127.0.0.1) for BENCH_WEBHOOK_DURATION s (10): webhooks/s, submit->webhook.
//   5. MyInvois bulks: a MY supplier (sandbox MyInvois), BENCH_BULK_CLIENTS (5) concurrent clients
//      posting BENCH_BULK_SIZE (100)-document bulks for BENCH_BULK_DURATION s (10): documents/s
//      taken, bulk latency, submission -> valid. The bench gateway runs with BODY_LIMIT_BYTES 8 MB.
//   6. UAE: PINT AE invoices between two participants hosted here for BENCH_UAE_DURATION s (10):
//      accepted/s, p50/p99, submitted->delivered and ->reported (sandbox FTA), and our PINT AE rules'
//      cost per document next to the official Schematron's on the 32 official examples.
// Settings (environment): BENCH_DURATION (s, 20), BENCH_CONNECTIONS (50), BENCH_DRAIN_TIMEOUT
// (s, 120), BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/einvoice_bench; the name must
// end in _bench), BENCH_KEEP_TMP=1 keeps the temp dir (app and broker logs). SANDBOX_AP_LATENCY_MS
// is passed on to the delivery-worker (default 0).
// Figures go to stdout, progress to stderr. Exit code 1 when a request failed or not every
// accepted document was delivered in time.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deliveryTimings, openDatabase, uncountedDocuments, waitForDelivery } from './bench/delivery.mjs';
import { bareRoute, invoiceLoad } from './bench/load.mjs';
import { startProbe } from './bench/probe.mjs';
import { createStack, tailOf } from './bench/stack.mjs';
import { webhookLoad } from './bench/webhooks.mjs';
import { bulkLoad, onboardMySupplier } from './bench/bulk.mjs';
import { uaeLoad, uaeRulesCost } from './bench/uae.mjs';
import { distribution, ms, num, secs } from './bench/stats.mjs';
import { APPS, ROOT, say } from './lib/services.mjs';

function positiveInt(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

const settings = {
  duration: positiveInt('BENCH_DURATION', 20),
  connections: positiveInt('BENCH_CONNECTIONS', 50),
  drainTimeoutS: positiveInt('BENCH_DRAIN_TIMEOUT', 120),
  databaseUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/einvoice_bench',
  apLatencyMs: Number(process.env.SANDBOX_AP_LATENCY_MS ?? 0),
  webhookDuration: positiveInt('BENCH_WEBHOOK_DURATION', 10),
  bulkDuration: positiveInt('BENCH_BULK_DURATION', 10),
  uaeDuration: positiveInt('BENCH_UAE_DURATION', 10),
  bulkClients: positiveInt('BENCH_BULK_CLIENTS', 5),
  bulkSize: positiveInt('BENCH_BULK_SIZE', 100),
};
const runId = Date.now().toString(36);
const stack = createStack({ databaseUrl: settings.databaseUrl, runId });
let db;
let exiting = false;
// After Ctrl-C the figures of a cut-short phase mean nothing: print none.
const out = (line = '') => {
  if (!exiting) process.stdout.write(`${line}\n`);
};

async function cleanUp() {
  await db?.end().catch(() => undefined);
  db = undefined;
  await stack.stop();
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (exiting) return;
    exiting = true;
    say(`${signal}: stopping what the bench started`);
    void cleanUp().finally(() => process.exit(130));
  });
}

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
  const cores = Object.entries(p.cores).map(([name, c]) => `${name} ${num(c, 2)}`).join(', ');
  const busy = p.machineBusy === undefined ? '' : `; whole machine ${num(p.machineBusy * 100, 0)}% busy (all processes, ${os.cpus().length} cores)`;
  const waits = p.topWaits.map((w) => `${w.wait} ${num(w.avgBackends, 1)}`).join(', ') || 'none';
  return [`  cpu (cores used)      ${cores}${busy}`, `  postgres active      avg backends by wait: ${waits}`];
}

async function main() {
  const figures = { settings, loadavgBefore: os.loadavg() };

  await stack.start();
  const { url, apiKey } = stack;
  const databaseName = decodeURIComponent(new URL(settings.databaseUrl).pathname.slice(1));
  db = await openDatabase(settings.databaseUrl);
  const fixtures = createRequire(path.join(ROOT, 'package.json'))(path.join(ROOT, 'dist', 'libs', 'areas', 'src', 'peppol', 'fixtures', 'bodies.js'));

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

  // 1. The ceiling, before the invoice load so that the two never overlap.
  say(`bare route: GET /health/live, ${settings.connections} connections, ${settings.duration} s`);
  let probe = startProbe({ pids: stack.pids(), db, database: databaseName });
  const bare = await bareRoute({ url, connections: settings.connections, duration: settings.duration });
  const bareProbe = probe.stop();
  stack.assertAlive();
  figures.bare = bare;
  out(`GET /health/live (bare route)`);
  out(`  requests/s            ${num(bare.perSecond)}  (${bare.expected} answers 200 in ${num(bare.durationS)} s)`);
  out(`  latency               p50 ${ms(bare.latency.p50)}  p99 ${ms(bare.latency.p99)}  max ${ms(bare.latency.max)}`);
  out(`  other answers         ${bare.otherStatus} non-200, ${bare.errors} errors, ${bare.timeouts} timeouts`);
  if (bare.firstError) out(`  first failure         ${bare.firstError.status}: ${bare.firstError.body}`);
  for (const line of probeLines(bareProbe)) out(line);
  out();

  // 2. Submissions.
  say(`invoices: POST /be/einvoice/generate/invoice, ${settings.connections} connections, ${settings.duration} s`);
  probe = startProbe({ pids: stack.pids(), db, database: databaseName });
  const load = await invoiceLoad({ url, connections: settings.connections, duration: settings.duration, apiKey, supplierId, runId, invoiceBody });
  const loadStoppedAt = Date.now();
  const loadProbe = probe.stop();
  stack.assertAlive();
  figures.load = load;
  const nonAccepted = load.otherStatus + load.errors;
  out(`POST /be/einvoice/generate/invoice`);
  out(`  accepted/s            ${num(load.perSecond)}  (${load.expected} answers 202 in ${num(load.durationS)} s)`);
  out(`  latency               p50 ${ms(load.latency.p50)}  p99 ${ms(load.latency.p99)}  max ${ms(load.latency.max)}`);
  out(`  non-202               ${load.otherStatus}  (by status: ${JSON.stringify(load.byStatus)}; ${load.errors} connection errors, ${load.timeouts} timeouts)`);
  if (load.firstError) out(`  first error body      ${load.firstError.status}: ${load.firstError.body}`);
  if (load.accepted.length !== load.expected) out(`  note                  ${load.accepted.length} DocumentIDs collected for ${load.expected} answers 202`);
  for (const line of probeLines(loadProbe)) out(line);
  out();

  // 3. Submission to Delivered.
  const ids = load.accepted;
  say(`waiting (up to ${settings.drainTimeoutS} s) until the ${ids.length} accepted documents are Delivered`);
  let lastReport = 0;
  probe = startProbe({ pids: stack.pids(), db, database: databaseName });
  const wait = await waitForDelivery(db, ids, {
    timeoutMs: settings.drainTimeoutS * 1000,
    since: loadStoppedAt,
    assertAlive: () => stack.assertAlive(),
    onProgress: (delivered, total) => {
      if (Date.now() - lastReport < 2000 && delivered !== total) return;
      lastReport = Date.now();
      say(`  ${delivered}/${total} Delivered`);
    },
  });
  const drainProbe = probe.stop();
  const timings = await deliveryTimings(db, ids);
  const uncounted = await uncountedDocuments(db, runId, ids);
  const e2e = distribution(timings.submittedToDelivered);
  const relay = distribution(timings.submittedToRelayed);
  const consume = distribution(timings.relayedToDelivered);
  // From the DB clock (same host): the last DocumentDelivered against the moment the load stopped.
  const drainMs = Math.max(0, timings.lastDeliveredAt - loadStoppedAt);
  const deliveryRate = timings.count / ((timings.lastDeliveredAt - timings.firstSubmittedAt) / 1000);
  figures.delivery = { wait, timings, e2e, drainMs, deliveryRate, uncounted };
  out(`Submission -> Delivered (events.recorded_at, DocumentSubmitted -> DocumentDelivered)`);
  out(`  delivered             ${wait.delivered}/${ids.length}${wait.complete ? '' : `  NOT COMPLETE after ${settings.drainTimeoutS} s`}${wait.missing ? ` (${wait.missing} accepted ids missing from documents!)` : ''}`);
  out(`  submitted->Delivered  p50 ${ms(e2e.p50)}  p99 ${ms(e2e.p99)}  max ${ms(e2e.max)}`);
  out(`    ->relay picked up   p50 ${ms(relay.p50)}  p99 ${ms(relay.p99)}  max ${ms(relay.max)}   (outbox.processed_at)`);
  out(`    relay->Delivered    p50 ${ms(consume.p50)}  p99 ${ms(consume.p99)}  max ${ms(consume.max)}   (Kafka + delivery-worker)`);
  out(`  backlog drained       ${secs(drainMs)} after the load stopped (last Delivered; polling saw it at ${secs(wait.observedMs)})`);
  out(`  delivery throughput   ${num(deliveryRate)} documents/s (first submission to last Delivered)`);
  if (uncounted) out(`  note                  ${uncounted} more documents were committed by requests in flight when the load stopped (not counted)`);
  out(`  while draining (${num(drainProbe.seconds)} s after the load):`);
  for (const line of probeLines(drainProbe)) out(line);
  out();

  // 4. Webhooks, after the delivery phase so that the figures above are unchanged.
  say(`webhooks: BE -> DE (hosted here, subscribed to 127.0.0.1), ${settings.connections} connections, ${settings.webhookDuration} s`);
  probe = startProbe({ pids: stack.pids(), db, database: databaseName });
  const hooks = await webhookLoad({
    url, apiKey, db, fixtures, sellerId: supplierId, runId, connections: settings.connections,
    duration: settings.webhookDuration, drainTimeoutS: settings.drainTimeoutS, say,
  });
  const hooksProbe = probe.stop();
  stack.assertAlive();
  figures.webhooks = hooks;
  out(`Webhooks (BE -> DE hosted here -> DocumentReceived -> signed POST to 127.0.0.1)`);
  out(`  submissions           ${hooks.expected} accepted (${num(hooks.load.perSecond)} 202/s, ${hooks.load.otherStatus + hooks.load.errors} failed)`);
  out(`  webhooks received     ${hooks.received}/${hooks.expected}${hooks.complete ? '' : `  NOT COMPLETE after ${settings.drainTimeoutS} s`} (${hooks.requests} POSTs for ${hooks.distinct} documents: ${hooks.requests - hooks.distinct} repeated; documents whose 202 came after the load stopped are not counted)`);
  out(`  webhooks/s            ${num(hooks.perSecond)} (first submission to last webhook)`);
  out(`  submitted->webhook    p50 ${ms(hooks.latency.p50)}  p99 ${ms(hooks.latency.p99)}  max ${ms(hooks.latency.max)}`);
  for (const line of probeLines(hooksProbe)) out(line);
  out();

  // 5. MyInvois bulks, last, so that every figure above is unchanged.
  const myFixtures = createRequire(path.join(ROOT, 'package.json'))(path.join(ROOT, 'dist', 'libs', 'areas', 'src', 'myinvois', 'fixtures', 'bodies.js'));
  const mySupplierId = await onboardMySupplier({ url, apiKey, fixtures: myFixtures, runId });
  say(`MyInvois bulks: ${settings.bulkClients} clients × ${settings.bulkSize}-document bulks, ${settings.bulkDuration} s (supplier ${mySupplierId})`);
  probe = startProbe({ pids: stack.pids(), db, database: databaseName });
  const bulk = await bulkLoad({
    url, apiKey, supplierId: mySupplierId, fixtures: myFixtures, runId, clients: settings.bulkClients, bulkSize: settings.bulkSize,
    duration: settings.bulkDuration, drainTimeoutS: settings.drainTimeoutS, db, say,
  });
  const bulkProbe = probe.stop();
  stack.assertAlive();
  figures.bulk = bulk;
  const bulkFailed = bulk.requests - (bulk.byStatus[200] ?? 0) - (bulk.byStatus[202] ?? 0) + bulk.errors;
  out(`POST /api/einvoice/generate/invoice/bulk (MyInvois sandbox; BODY_LIMIT_BYTES ${stack.bodyLimitBytes} for the bench gateway, largest bulk ${num(bulk.largestBody / 1024, 0)} KiB)`);
  out(`  documents/s taken     ${num(bulk.perSecond)}  (${bulk.taken} accepted or pending in ${bulk.requests} bulks of ${settings.bulkSize} in ${num(bulk.durationS)} s; ${bulk.refused} refused per document)`);
  out(`  bulk latency          p50 ${ms(bulk.latency.p50)}  p99 ${ms(bulk.latency.p99)}  max ${ms(bulk.latency.max)}   (by status: ${JSON.stringify(bulk.byStatus)}; ${bulk.errors} connection errors)`);
  if (bulk.firstError) out(`  first failure         ${bulk.firstError.status}: ${bulk.firstError.body}`);
  out(`  valid                 ${bulk.valid}/${bulk.taken}${bulk.complete ? '' : `  NOT COMPLETE after ${settings.drainTimeoutS} s (${bulk.open} still pending/submitted)`}`);
  out(`  submitted->valid      p50 ${ms(bulk.toValid.p50)}  p99 ${ms(bulk.toValid.p99)}  max ${ms(bulk.toValid.max)}   (myinvois_documents created_at -> updated_at; worker polls every MYINVOIS_POLL_MS, sandbox validates after 2 s)`);
  for (const line of probeLines(bulkProbe)) out(line);
  out();

  // 6. UAE, last, so that every figure above is unchanged.
  say(`UAE: PINT AE invoices between two participants hosted here, ${settings.connections} connections, ${settings.uaeDuration} s`);
  probe = startProbe({ pids: stack.pids(), db, database: databaseName });
  const uae = await uaeLoad({ url, apiKey, db, runId, connections: settings.connections, duration: settings.uaeDuration, drainTimeoutS: settings.drainTimeoutS, say });
  const uaeProbe = probe.stop();
  stack.assertAlive();
  say('UAE: our PINT AE rules and the official Schematron on the 32 official examples');
  const rules = await uaeRulesCost();
  figures.uae = { ...uae, rules };
  out(`POST /v1/participants/{participant_id}/documents (UAE, hosted receiver, sandbox FTA)`);
  out(`  accepted/s            ${num(uae.load.perSecond)}  (${uae.load.expected} answers 202 in ${num(uae.load.durationS)} s; ${uae.load.otherStatus} other, ${uae.load.errors} errors)`);
  out(`  latency               p50 ${ms(uae.load.latency.p50)}  p99 ${ms(uae.load.latency.p99)}  max ${ms(uae.load.latency.max)}`);
  if (uae.load.firstError) out(`  first failure         ${uae.load.firstError.status}: ${uae.load.firstError.body.slice(0, 300)}`);
  out(`  completed             ${uae.completed}/${uae.load.accepted.length}${uae.complete ? '' : `  NOT COMPLETE after ${settings.drainTimeoutS} s (${uae.attention} attention)`}`);
  out(`  submitted->delivered  p50 ${ms(uae.toDelivered.p50)}  p99 ${ms(uae.toDelivered.p99)}  max ${ms(uae.toDelivered.max)}`);
  out(`  submitted->reported   p50 ${ms(uae.toReported.p50)}  p99 ${ms(uae.toReported.p99)}  max ${ms(uae.toReported.max)}   (includes the sandbox FTA's MLS delay, UAE_SANDBOX_FTA_MLS_MS)`);
  out(`  rules per document    ours ${num(rules.oursMs, 3)} ms, official Schematron ${num(rules.officialMs, 1)} ms (${rules.documents} official examples; ${rules.ourIssues} and ${rules.officialFailures} fatal findings)`);
  for (const line of probeLines(uaeProbe)) out(line);
  out();

  const logs = appLogSummary();
  const cpus = os.cpus();
  const ratio = load.perSecond / bare.perSecond;
  out('=== einvoice bench summary ===');
  out(`machine      ${cpus.length} cores × ${cpus[0]?.model?.trim() ?? 'unknown CPU'}, ${num(os.totalmem() / 2 ** 30)} GiB RAM, ${os.platform()} ${os.release()}`);
  out(`load avg     ${figures.loadavgBefore.map((v) => num(v, 2)).join(' ')} before the bench, ${os.loadavg().map((v) => num(v, 2)).join(' ')} after (1/5/15 min; the machine is shared)`);
  out(`runtime      node ${process.version}, autocannon ${createRequire(path.join(ROOT, 'package.json'))('autocannon/package.json').version}, load generator on the same machine`);
  out(`setup        ${settings.connections} connections × ${settings.duration} s per route; 1 BE supplier; sandbox access point (latency ${settings.apLatencyMs} ms); LOG_LEVEL=warn; 4 apps + Kafka + PostgreSQL on this host`);
  out(`bare route   GET /health/live                  ${num(bare.perSecond)} req/s   p50 ${ms(bare.latency.p50)}  p99 ${ms(bare.latency.p99)}`);
  out(`invoices     POST /be/einvoice/generate/invoice ${num(load.perSecond)} 202/s   p50 ${ms(load.latency.p50)}  p99 ${ms(load.latency.p99)}   (${load.expected} accepted, ${nonAccepted} failed)`);
  out(`ratio        invoice submissions/s ÷ bare route req/s = ${num(ratio, 3)}`);
  out(`delivery     submitted->Delivered p50 ${ms(e2e.p50)}  p99 ${ms(e2e.p99)}  max ${ms(e2e.max)}   (${wait.delivered}/${ids.length} Delivered)`);
  out(`backlog      drained ${secs(drainMs)} after the load stopped; ${num(deliveryRate)} deliveries/s overall`);
  out(`webhooks     ${num(hooks.perSecond)} delivered/s   submitted->webhook p50 ${ms(hooks.latency.p50)}  p99 ${ms(hooks.latency.p99)}   (${hooks.received}/${hooks.expected} received)`);
  out(`myinvois     bulk ${num(bulk.perSecond)} documents/s taken   bulk p50 ${ms(bulk.latency.p50)}  p99 ${ms(bulk.latency.p99)}   submitted->valid p50 ${ms(bulk.toValid.p50)}  p99 ${ms(bulk.toValid.p99)}   (${bulk.valid}/${bulk.taken} valid; ${settings.bulkClients} clients × ${settings.bulkSize} docs × ${settings.bulkDuration} s)`);
  out(`uae          ${num(uae.load.perSecond)} 202/s   p50 ${ms(uae.load.latency.p50)}  p99 ${ms(uae.load.latency.p99)}   ->delivered p50 ${ms(uae.toDelivered.p50)} p99 ${ms(uae.toDelivered.p99)}   ->reported p50 ${ms(uae.toReported.p50)} p99 ${ms(uae.toReported.p99)}   rules ${num(rules.oursMs, 3)} ms/doc vs official ${num(rules.officialMs, 1)} ms/doc`);
  out(`app logs     ${Object.entries(logs).map(([app, l]) => `${app} ${l.count}`).join(', ')} lines at warn/error`);
  for (const [app, l] of Object.entries(logs)) for (const line of l.first) out(`  ${app}: ${line.slice(0, 300)}`);

  return nonAccepted === 0 && !load.firstError && wait.complete && wait.missing === 0 && hooks.complete && bulkFailed === 0 && bulk.complete && uae.complete && uae.load.otherStatus + uae.load.errors === 0 ? 0 : 1;
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
