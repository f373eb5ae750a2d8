// The as4 phase (#46): two installations of the service on this machine, A and B, each with its own
// database (<bench database>_as4a/_as4b, recreated), topic prefix (on the bench's broker), gateway,
// delivery worker and AS4 engine (engines/as4, phase4) holding an AP certificate of a test PKI made for
// the run (scripts/lib/peppol-test-pki.mjs). A BE supplier at A invoices a receiver hosted at B: each
// document is found through B's signed SMP, crosses real Peppol AS4 (signed, encrypted) to B, and B's
// Message Level Status comes back the same way (found through A's SMP) and makes it Delivered at A.
// No SML: engine A's PEPPOL_SMP_URL is B's SMP and engine B's is A's (what the e2e's test router does
// for its two, test/support/peppol-test-sml.ts). Measured: documents/s delivered (the AS4 exchange and
// the MLS round trip), submitted->Sent (B's AS4 receipt) and ->Delivered (B's MLS), CPU per document
// of each engine's JVM next to each gateway's and delivery worker's; and exactly once: B holds one
// incoming document per number A sent.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureAs4Engine, startAs4Engine } from '../lib/as4-engine.mjs';
import { freePort } from '../lib/kafka.mjs';
import { createPeppolTestPki } from '../lib/peppol-test-pki.mjs';
import { deliveryTimings, duplicatedDeliveries, openDatabase, waitForDelivery } from './delivery.mjs';
import { roundTripLoad } from './load.mjs';
import { jvmThreadSeconds, startProbe } from './probe.mjs';
import { createStack, tailOf } from './stack.mjs';
import { distribution } from './stats.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const APPS = ['gateway', 'delivery-worker'];
/** Seconds each process's idle CPU is measured for, before the measured load. */
const IDLE_S = 5;
/** The buyer of the fixtures' BE invoice, onboarded at B by its VAT number alone (as the e2e's receiver). */
const RECEIVER = { registered_name: 'Antwerp Buyer BV', vat: 'BE0202239951', street: 'Meir 1', city: 'Antwerpen', postal_code: '2000', country: 'BE' };

/** `.../einvoice_bench` -> `.../einvoice_as4a_bench`: the name still ends in _bench (stack.mjs drops only those). */
const databaseUrlOf = (benchUrl, name) => {
  const url = new URL(benchUrl);
  url.pathname = url.pathname.replace(/_bench$/, `_${name}_bench`);
  return url.toString();
};

async function post(url, headers, body) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, text };
}

/**
 * A handle over both installations; `stop()` is idempotent and safe at any point (a failed start too),
 * so bench.mjs calls it from its clean-up and signal handlers.
 */
export function createPeppolAs4Pair({ databaseUrl, runId, brokers, say }) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'einvoice-bench-as4-'));
  const engines = {};
  const stacks = {};
  const dbs = {};
  let pki;
  let stopped;

  /** One installation: its engine first (its gateway's port is known before it starts), then its apps. */
  async function install(name, ap, country, ports, peerPort) {
    const secret = randomBytes(18).toString('base64url');
    const as4Url = `http://127.0.0.1:${ports.inbound}/as4`;
    const engineUrl = `http://127.0.0.1:${ports.control}`;
    const engine = await startAs4Engine({
      dataDir: path.join(tmp, `engine-${name}`),
      logFile: path.join(tmp, `engine-${name}.log`),
      env: {
        AS4_ENGINE_URL: engineUrl,
        AS4_ENGINE_SECRET: secret,
        AS4_PUBLIC_URL: as4Url,
        AS4_ENGINE_INBOUND_PORT: String(ports.inbound),
        AS4_INBOUND_CALLBACK_URL: `http://127.0.0.1:${ports.gateway}/internal/peppol/inbound`,
        PEPPOL_AP_KEYSTORE: ap.keystore,
        PEPPOL_AP_KEYSTORE_PASSWORD: pki.password,
        PEPPOL_TRUSTSTORE: pki.apTruststore,
        PEPPOL_TRUSTSTORE_PASSWORD: pki.password,
        PEPPOL_SMP_TRUSTSTORE: pki.smpTruststore,
        PEPPOL_SMP_TRUSTSTORE_PASSWORD: pki.password,
        // The other installation's SMP stands for the SML's answer: documents go A -> B, MLS B -> A.
        PEPPOL_SMP_URL: `http://127.0.0.1:${peerPort}/smp/`,
        // The test PKI publishes no CRL or OCSP responder.
        PEPPOL_REVOCATION_CHECK: 'off',
        // JVM options to try on both engines (a system property, a GC), one run against another.
        ...(process.env.BENCH_AS4_JAVA_TOOL_OPTIONS ? { JAVA_TOOL_OPTIONS: process.env.BENCH_AS4_JAVA_TOOL_OPTIONS } : {}),
      },
    });
    engines[name] = engine;
    say(`as4: engine ${name} (pid ${engine.pid}) up in ${engine.startMs} ms`);
    const stack = createStack({
      databaseUrl: databaseUrlOf(databaseUrl, name),
      runId,
      brokers,
      apps: APPS,
      port: ports.gateway,
      topicPrefix: `bench${runId}${name}`,
      env: {
        PEPPOL_MODE: 'live',
        AS4_ENGINE_URL: engineUrl,
        AS4_ENGINE_SECRET: secret,
        AS4_PUBLIC_URL: as4Url,
        // The AP certificate's seat id (CN PBE000001) gives the service provider id 0242:000001.
        PEPPOL_SERVICE_PROVIDER_ID: `0242:${ap.commonName.slice(3)}`,
        PEPPOL_SERVICE_PROVIDER_COUNTRY: country,
        PEPPOL_AP_KEYSTORE: ap.keystore,
        PEPPOL_AP_KEYSTORE_PASSWORD: pki.password,
        PEPPOL_SMP_KEYSTORE: pki.smp.keystore,
        PEPPOL_SMP_KEYSTORE_PASSWORD: pki.password,
      },
    });
    stacks[name] = stack;
    await stack.start();
    dbs[name] = await openDatabase(databaseUrlOf(databaseUrl, name));
    return stack;
  }

  const pair = {
    tmp,
    engines,
    stacks,

    async start() {
      say('as4: building the AS4 engine (Maven, cached) and making the test PKI');
      const build = ensureAs4Engine();
      if (build.built) say(`as4: engine built in ${build.buildMs} ms`);
      pki = await createPeppolTestPki();
      const ports = {};
      for (const name of ['as4a', 'as4b']) ports[name] = { gateway: await freePort(), control: await freePort(), inbound: await freePort() };
      // One after the other: each start builds (tsc, incremental) and migrates; two JVMs starting at once on a small machine only slow both.
      await install('as4a', pki.apA, 'BE', ports.as4a, ports.as4b.gateway);
      await install('as4b', pki.apB, 'DE', ports.as4b, ports.as4a.gateway);
    },

    assertAlive() {
      for (const stack of Object.values(stacks)) stack.assertAlive();
      for (const [name, engine] of Object.entries(engines)) {
        try {
          process.kill(engine.pid, 0);
        } catch {
          throw new Error(`AS4 engine ${name} (pid ${engine.pid}) is gone; last lines of its log:\n${tailOf(engine.logFile)}`);
        }
      }
    },

    /** What to print when the phase failed: the last lines of every log of the pair. */
    tails(lines = 15) {
      const files = [...Object.entries(engines).map(([name, e]) => [`engine ${name}`, e.logFile]),
        ...Object.entries(stacks).flatMap(([name, s]) => Object.entries(s.logs).map(([app, file]) => [`${name} ${app}`, file]))];
      return files.filter(([, file]) => existsSync(file)).map(([label, file]) => `--- last lines of ${label} ---\n${tailOf(file, lines)}`).join('\n');
    },

    /** Warn/error lines each app and engine logged (LOG_LEVEL=warn for the apps). */
    logCounts() {
      const count = (file) => {
        try {
          return readFileSync(file, 'utf8').split('\n').filter((l) => /WARN|ERROR|"level":(40|50)/.test(l)).length;
        } catch {
          return 0;
        }
      };
      return Object.fromEntries([...Object.entries(stacks).flatMap(([name, s]) => Object.entries(s.logs).map(([app, file]) => [`${name} ${app}`, count(file)])),
        ...Object.entries(engines).map(([name, e]) => [`engine ${name}`, count(e.logFile)])]);
    },

    /**
     * Onboards B's receiver (until B's SMP serves it) and A's supplier; one document first, then
     * `warmupS` s of load not measured (the two engines are new JVMs), then `duration` s measured.
     */
    async run({ fixtures, connections, duration, warmupS, drainTimeoutS, kafkaPid }) {
      const [a, b] = [stacks.as4a, stacks.as4b];
      const onboardedB = await post(`${b.url}/be/einvoice/onboard`, { 'x-svc-auth-key': b.apiKey }, {
        registered_name: RECEIVER.registered_name, identifiers: [{ scheme: 'BE:VAT', id: RECEIVER.vat }],
        street: RECEIVER.street, city: RECEIVER.city, postal_code: RECEIVER.postal_code, country: RECEIVER.country,
      });
      if (onboardedB.status !== 201) throw new Error(`B's onboarding answered ${onboardedB.status}: ${onboardedB.text}`);
      const receiverId = JSON.parse(onboardedB.text).data.supplier_uuid;
      const { rows: [participant] } = await dbs.as4b.query(`SELECT participant_id FROM supplier_participants WHERE supplier_id = $1`, [receiverId]);
      say(`as4: receiver ${participant.participant_id} onboarded at B; waiting until B's SMP serves it`);
      const smpDeadline = Date.now() + 60_000;
      while ((await fetch(`${b.url}/smp/${encodeURIComponent(participant.participant_id)}`).then((r) => r.status, () => 0)) !== 200) {
        pair.assertAlive();
        if (Date.now() > smpDeadline) throw new Error(`B's SMP did not serve ${participant.participant_id} within 60 s`);
        await sleep(250);
      }
      const s = fixtures.suppliers.be;
      const onboardedA = await post(`${a.url}/be/einvoice/onboard`, { 'x-svc-auth-key': a.apiKey }, {
        registered_name: s.registeredName, identifiers: s.identifiers, street: s.street, city: s.city, postal_code: s.postalCode, country: s.country, contact_number: s.contactNumber,
      });
      if (onboardedA.status !== 201) throw new Error(`A's onboarding answered ${onboardedA.status}: ${onboardedA.text}`);
      const supplierId = JSON.parse(onboardedA.text).data.supplier_uuid;
      const customer = { ...fixtures.customers.be, Identifiers: [{ Scheme: 'BE:VAT', ID: RECEIVER.vat }] };
      const invoiceBody = (id) => fixtures.beInvoice({ ID: id, CustomerParty: customer });
      const headers = { 'x-svc-auth-key': a.apiKey, supplier_uuid: supplierId, transport_mode: 'peppol' };
      const load = (label, seconds) => roundTripLoad({
        submit: (n) => post(`${a.url}/be/einvoice/generate/invoice`, headers, invoiceBody(`BENCH-${runId}${label}-${n}`)),
        db: dbs.as4a, connections, duration: seconds, timeoutMs: drainTimeoutS * 1000, assertAlive: () => pair.assertAlive(),
      });
      const drain = (ids, onProgress) => waitForDelivery(dbs.as4a, ids, { timeoutMs: drainTimeoutS * 1000, since: Date.now(), assertAlive: () => pair.assertAlive(), onProgress });
      const sent = [];

      // One document alone: a broken exchange fails here, in seconds, not after the load.
      const firstAt = Date.now();
      const first = await post(`${a.url}/be/einvoice/generate/invoice`, headers, invoiceBody(`AS4-FIRST-${runId}`));
      if (first.status !== 202) throw new Error(`A's first submission answered ${first.status}: ${first.text}`);
      const firstId = JSON.parse(first.text).data.DocumentID;
      sent.push(firstId);
      const firstWait = await drain([firstId]);
      if (!firstWait.complete) {
        const { rows } = await dbs.as4a.query(`SELECT type, data FROM events WHERE stream_id = $1 ORDER BY stream_position`, [`document-${firstId}`]);
        throw new Error(`the first document was not Delivered at A within ${drainTimeoutS} s; its events: ${JSON.stringify(rows).slice(0, 1500)}`);
      }
      const firstMs = Date.now() - firstAt;
      say(`as4: the first document Delivered at A ${firstMs} ms after its POST`);

      let warmup;
      if (warmupS > 0) {
        say(`as4: warm-up, ${connections} connections for ${warmupS} s, not measured`);
        warmup = await load('as4w', warmupS);
        sent.push(...warmup.accepted);
      }

      say(`as4: POST /be/einvoice/generate/invoice at A, ${connections} connections, ${duration} s`);
      const pids = { 'engine A': engines.as4a.pid, 'engine B': engines.as4b.pid };
      for (const [label, stack] of [['A', a], ['B', b]]) for (const [app, pid] of Object.entries(stack.pids())) pids[`${app} ${label}`] = pid;
      if (kafkaPid) pids.kafka = kafkaPid;
      // What each process uses with nothing to do (outbox polls, consumer heartbeats): at a few documents a
      // second that is a fair part of an app's CPU per document, and it is printed next to it.
      const engineThreads = () => ({ 'engine A': jvmThreadSeconds(engines.as4a.pid), 'engine B': jvmThreadSeconds(engines.as4b.pid) });
      const idleProbe = startProbe({ pids });
      const idleThreadsBefore = engineThreads();
      await sleep(IDLE_S * 1000);
      const idle = idleProbe.stop();
      const idleThreads = threadsSince(idleThreadsBefore, engineThreads(), 1000 / idle.seconds);
      const threadsBefore = engineThreads();
      const probe = startProbe({ pids });
      // Closed over the whole round trip: the last documents end at most one round trip after `duration`.
      const measured = await load('as4', duration);
      const p = probe.stop();
      const ids = measured.accepted;
      sent.push(...ids);
      // Whatever the loop gave up on (a document not final within the drain timeout) is counted here.
      const wait = await drain(ids);
      pair.assertAlive();
      const engineMsPerDocument = threadsSince(threadsBefore, engineThreads(), 1000 / Math.max(1, wait.delivered));

      const timings = await deliveryTimings(dbs.as4a, ids);
      const toSent = await submittedToSent(dbs.as4a, ids);
      const twiceAtA = await duplicatedDeliveries(dbs.as4a, ids);
      const atB = await receivedAtB(dbs.as4a, dbs.as4b, sent);
      const spanS = (timings.lastDeliveredAt - timings.firstSubmittedAt) / 1000;
      const cpuMsPerDocument = Object.fromEntries(Object.entries(p.cores).map(([name, cores]) => [name, (cores * p.seconds * 1000) / Math.max(1, wait.delivered)]));
      return {
        first: { ms: firstMs },
        warmup: warmup && { accepted: warmup.accepted.length, failed: warmup.otherStatus + warmup.errors },
        load: measured,
        wait,
        twiceAtA,
        atB,
        deliveredPerSecond: timings.count / spanS,
        spanS,
        toSent: distribution(toSent),
        toDelivered: distribution(timings.submittedToDelivered),
        probe: p,
        cpuMsPerDocument,
        engineMsPerDocument,
        idleEngineCores: Object.fromEntries(Object.entries(idleThreads).map(([name, t]) => [name, t && { jit: t.jit / 1000, gc: t.gc / 1000, other: t.other / 1000 }])),
        idleCores: idle.cores,
        idleS: IDLE_S,
      };
    },

    stop() {
      stopped ??= (async () => {
        // A first (its delivery worker stops sending), then B: nothing is sent to a gateway or SMP already gone.
        for (const name of ['as4a', 'as4b']) {
          await stacks[name]?.stop();
          await engines[name]?.stop().catch((error) => say(`as4: engine ${name} stop failed: ${error.message}`));
        }
        await Promise.all(Object.values(dbs).map((db) => db.end().catch(() => undefined)));
        await pki?.destroy();
        if (process.env.BENCH_KEEP_TMP === '1') say(`kept ${tmp} (BENCH_KEEP_TMP=1)`);
        else rmSync(tmp, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
  return pair;
}

/** Each engine's thread CPU (jvmThreadSeconds) between two readings, in seconds × `scale`. */
function threadsSince(before, after, scale) {
  return Object.fromEntries(Object.entries(after).map(([name, a]) => {
    const b = before[name];
    return [name, a && b ? { jit: (a.jit - b.jit) * scale, gc: (a.gc - b.gc) * scale, other: (a.other - b.other) * scale } : undefined];
  }));
}

/** submitted -> DocumentSent (B's AS4 receipt came back to A's engine), ms per document. */
async function submittedToSent(db, ids) {
  const { rows } = await db.query(
    `SELECT extract(epoch FROM t.recorded_at - s.recorded_at) * 1000 AS ms
     FROM unnest($1::uuid[]) AS x(id)
     JOIN events s ON s.stream_id = 'document-' || x.id AND s.type = 'DocumentSubmitted'
     JOIN events t ON t.stream_id = 'document-' || x.id AND t.type = 'DocumentSent'`,
    [ids],
  );
  return rows.map((r) => Number(r.ms));
}

/**
 * Exactly once across the two: B's incoming documents by number (B's copy has an id of its own),
 * for every document A accepted in the phase (the first one and the warm-up's too).
 */
async function receivedAtB(dbA, dbB, ids) {
  const { rows: numbers } = await dbA.query(`SELECT document_number FROM documents WHERE id = ANY($1::uuid[])`, [ids]);
  const wanted = numbers.map((r) => r.document_number);
  const { rows } = await dbB.query(
    `SELECT document_number, count(*)::int AS n FROM documents WHERE direction = 'incoming' AND document_number = ANY($1) GROUP BY 1`,
    [wanted],
  );
  const held = new Map(rows.map((r) => [r.document_number, r.n]));
  return {
    documents: wanted.length,
    once: wanted.filter((n) => held.get(n) === 1).length,
    missing: wanted.filter((n) => !held.has(n)).length,
    twice: wanted.filter((n) => (held.get(n) ?? 0) > 1).length,
  };
}
