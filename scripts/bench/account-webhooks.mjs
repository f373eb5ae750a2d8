// Account-wide webhooks (#48 "Speed"): 1,000 account endpoints (scope 'account') over 10 tenants, each tenant's
// 100 following one area each (10 per area: every event goes to 10 endpoints), all pointing at receivers in this
// process (http://127.0.0.1, one server, a path per endpoint). The documents are ROWS INSERTED into `documents`
// (the trigger records their document.accepted events), not submissions through the API: what is measured is the
// dispatcher's path, from the commit of a document to its webhooks (tail of account_events → deliveries → signed
// POSTs); the API's own figures are the accept/e2e phases'. The submitted time is taken just before the INSERT.
//   1. closed loop for `duration` s (inserts while fewer than BACKLOG webhooks are outstanding): webhooks/s;
//   2. open loop at half that rate for `duration` s: submitted→webhook p50/p99;
//   3. the same open loop with 10% of the endpoints (one per tenant and area) never answering (the stack's
//      WEBHOOK_TIMEOUT_MS, 5 s): the other endpoints' p50/p99, as a multiple of step 2's;
//   4. submit -> webhook through the API (`api`): the stack's own tenant gets 10 endpoints following Belgium's
//      document.accepted, and Belgian invoices are POSTed to the seed route, open loop, at API_DOCS_PER_S: from just
//      before each POST to its webhooks' arrival, the whole path (the gateway's accept and its transaction, which
//      writes the document row and so its event, the tail, the signed POSTs), while each invoice also travels the
//      delivery pipeline (Kafka, the delivery worker, the sandbox access point).
// The endpoints are deleted after the phase.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import http from 'node:http';
import path from 'node:path';
import { distribution } from './stats.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const AREAS = ['be', 'de', 'sg', 'pl', 'es', 'my', 'ae', 'ar', 'jo', 'ng'];
const TENANTS = 10;
const PER_TENANT = 100;
/** Webhooks outstanding at most in the closed loop (enough to keep the dispatcher busy, not a queue of minutes). */
const BACKLOG = 2_000;
/**
 * Step 4's endpoints (the stack's tenant, Belgium) and its submission rate: #48's "submit -> webhook p99 <= 1 s at half
 * that rate", half of its 500 webhooks/s over 10 endpoints. Steps 2-3's half of the closed loop (1,000-1,300 webhooks/s,
 * 100+ invoices/s) through the API is the whole pipeline's load besides: the machine saturated (POST->202 p99 0.7-6 s).
 */
const API_ENDPOINTS = 10;
const API_DOCS_PER_S = 25;

/** The healthy receiver: 200 at once; the first arrival of each (document, endpoint), and repeats. */
async function startReceiver() {
  const arrivals = new Map();
  let repeated = 0;
  let requests = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      requests += 1;
      const at = Date.now();
      try {
        const key = `${JSON.parse(Buffer.concat(chunks).toString('utf8')).document_id}|${req.url}`;
        if (arrivals.has(key)) repeated += 1;
        else arrivals.set(key, at);
      } catch {
        // not ours
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    arrivals,
    repeated: () => repeated,
    requests: () => requests,
    close: () => (server.closeAllConnections(), new Promise((resolve) => server.close(() => resolve()))),
  };
}

/** The dead receiver: takes the request and never answers (each attempt waits for the dispatcher's timeout). */
async function startDeadReceiver() {
  let requests = 0;
  const server = http.createServer((req) => {
    requests += 1;
    req.resume();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    requests: () => requests,
    close: () => (server.closeAllConnections(), new Promise((resolve) => server.close(() => resolve()))),
  };
}

/**
 * What holds the commit-ordered feed back (the tail shows an event once every transaction older than its own
 * ended, server-wide): every 100 ms, the oldest transaction holding an id, its age and who runs it. `stop()`
 * answers the age's distribution and the holders seen oldest most often.
 */
function sampleHorizon(db) {
  const ages = [];
  const holders = new Map();
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await db.query(
        `SELECT application_name AS app, extract(epoch FROM now() - xact_start) * 1000 AS age_ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query
         FROM pg_stat_activity WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid() ORDER BY xact_start LIMIT 1`,
      );
      if (rows[0]) {
        ages.push(Number(rows[0].age_ms));
        const key = `${rows[0].app}: ${rows[0].query}`;
        holders.set(key, (holders.get(key) ?? 0) + 1);
      } else ages.push(0);
      await sleep(100);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { age: distribution(ages), top: [...holders.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3) };
    },
  };
}

/**
 * Runs the phase on the bench database `databaseUrl` with the stack's SECRETS_KEY (`secretsKey`); `say` logs
 * progress. Returns { endpoints, closed, open, dead }.
 */
export async function accountWebhookLoad({ root, databaseUrl, secretsKey, runId, duration, drainTimeoutS, say, api }) {
  const { default: pg } = await import('pg');
  const db = new pg.Pool({ connectionString: databaseUrl, max: 8, application_name: 'einvoice-bench-webhooks' });
  const { SecretBox, newWebhookSecret } = createRequire(path.join(root, 'package.json'))(path.join(root, 'dist', 'libs', 'domain', 'src', 'webhook', 'index.js'));
  const receiver = await startReceiver();
  const dead = await startDeadReceiver();
  const tenants = Array.from({ length: TENANTS }, () => randomUUID());
  /** endpoint index → { id, tenant, area, dead? } */
  const endpoints = [];
  try {
    say(`account webhooks: ${TENANTS * PER_TENANT} endpoints over ${TENANTS} tenants, one area each`);
    const sealed = SecretBox.fromKey(Buffer.from(secretsKey, 'base64')).seal(newWebhookSecret());
    for (const [t, tenant] of tenants.entries()) {
      for (let i = 0; i < PER_TENANT; i += 1) endpoints.push({ id: randomUUID(), tenant, area: AREAS[i % AREAS.length], index: t * PER_TENANT + i, dead: i >= PER_TENANT - AREAS.length });
    }
    await db.query(
      `INSERT INTO webhook_subscriptions (id, tenant_id, scope, url, events, areas, secret_sealed, description, created_at)
       SELECT id, tenant, 'account', $4 || '/e/' || n, '{}', ARRAY[area], $5, 'bench', now() - interval '1 second'
       FROM unnest($1::uuid[], $2::uuid[], $3::text[]) WITH ORDINALITY AS e (id, tenant, area, n)`,
      [endpoints.map((e) => e.id), endpoints.map((e) => e.tenant), endpoints.map((e) => e.area), receiver.base, sealed],
    );
    for (const tenant of tenants) await db.query(`SELECT pg_notify('webhook_endpoints', $1)`, [tenant]);
    /** The webhooks a document makes: its tenant's endpoints of its area (1-based index as in the URL path). */
    const targetsOf = new Map();
    for (const [i, e] of endpoints.entries()) {
      const key = `${e.tenant}|${e.area}`;
      targetsOf.set(key, [...(targetsOf.get(key) ?? []), { path: `/e/${i + 1}`, dead: e.dead }]);
    }

    let sequence = 0;
    /** Inserts `count` documents spread over the tenants and areas; returns them with their submitted time. */
    const insert = async (count) => {
      const docs = Array.from({ length: count }, () => {
        sequence += 1;
        return { id: randomUUID(), tenant: tenants[sequence % TENANTS], area: AREAS[Math.floor(sequence / TENANTS) % AREAS.length], number: `WH-${runId}-${sequence}` };
      });
      const at = Date.now();
      await db.query(
        `INSERT INTO documents (id, tenant_id, supplier_id, area, direction, document_number, document_type, delivery_status, state, fields, created_at, updated_at, version)
         SELECT id, tenant, $5, area, 'outgoing', number, 'Invoice', 'Scheduled', 'scheduled', '{}', now(), now(), 1
         FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[]) AS d (id, tenant, area, number)`,
        [docs.map((d) => d.id), docs.map((d) => d.tenant), docs.map((d) => d.area), docs.map((d) => d.number), randomUUID()],
      );
      // After the commit, as the projections announce their writes (migration 1732200002010: not inside the transaction).
      await db.query(`SELECT pg_notify('account_events', '')`);
      return docs.map((d) => ({ ...d, at }));
    };
    /** Set once step 3's endpoints are dead: their webhooks are no longer expected. */
    let deadOn = false;
    /** Each expected webhook (document × answering endpoint): key, submitted time. */
    const expectedOf = (docs) => docs.flatMap((d) => targetsOf.get(`${d.tenant}|${d.area}`).filter((t) => !t.dead || !deadOn).map((t) => ({ key: `${d.id}|${t.path}`, at: d.at })));

    const drain = async (expected, label) => {
      const deadline = Date.now() + drainTimeoutS * 1000;
      let lastReport = 0;
      const missing = () => expected.filter((e) => !receiver.arrivals.has(e.key)).length;
      for (let left = missing(); left > 0 && Date.now() < deadline; left = missing()) {
        if (Date.now() - lastReport > 2_000) {
          lastReport = Date.now();
          say(`  ${label}: ${expected.length - left}/${expected.length} webhooks received`);
        }
        await sleep(100);
      }
      const latencies = expected.filter((e) => receiver.arrivals.has(e.key)).map((e) => receiver.arrivals.get(e.key) - e.at);
      return { expected: expected.length, received: latencies.length, complete: latencies.length === expected.length, latency: distribution(latencies) };
    };

    /** Step 4: invoices POSTed to the seed route at `docsPerSecond`, each awaited for its DocumentID; its webhooks expected at the API endpoints. */
    const apiLoop = async (docsPerSecond) => {
      const { rows: [{ tenant_id: tenant }] } = await db.query(`SELECT tenant_id FROM documents WHERE supplier_id = $1 LIMIT 1`, [api.supplierId]);
      const ids = Array.from({ length: API_ENDPOINTS }, () => randomUUID());
      await db.query(
        `INSERT INTO webhook_subscriptions (id, tenant_id, scope, url, events, areas, secret_sealed, description, created_at)
         SELECT id, $2, 'account', $3 || '/api/' || id, '{document.accepted}', '{be}', $4, 'bench api', now() - interval '1 second' FROM unnest($1::uuid[]) AS id`,
        [ids, tenant, receiver.base, sealed],
      );
      endpoints.push(...ids.map((id) => ({ id })));
      tenants.push(tenant);
      await db.query(`SELECT pg_notify('webhook_endpoints', $1)`, [tenant]);
      // The endpoint cache learns them from the NOTIFY: a moment before the first document.
      await sleep(500);
      say(`  through the API: ${docsPerSecond.toFixed(1)} Belgian invoices/s to POST /be/einvoice/generate/invoice, ${API_ENDPOINTS} endpoints each, for ${duration} s`);
      const headers = { 'content-type': 'application/json', 'x-svc-auth-key': api.apiKey, supplier_uuid: api.supplierId, transport_mode: 'peppol' };
      const expected = [];
      /** Each POST's time to its answer (202), and the webhooks' time from that answer. */
      const accepts = [];
      let refused = 0;
      const inFlight = new Set();
      const submit = async (n) => {
        const at = Date.now();
        const response = await fetch(`${api.url}/be/einvoice/generate/invoice`, { method: 'POST', headers, body: JSON.stringify(api.invoiceBody(`WHAPI-${runId}-${n}`)) });
        const text = await response.text();
        const answered = Date.now();
        accepts.push(answered - at);
        const id = response.status === 202 ? /"DocumentID"\s*:\s*"([0-9a-fA-F-]{36})"/.exec(text)?.[1] : undefined;
        if (!id) refused += 1;
        else for (const endpoint of ids) expected.push({ key: `${id}|/api/${endpoint}`, at, answered });
      };
      const horizon = sampleHorizon(db);
      const start = Date.now();
      let sent = 0;
      while (Date.now() - start < duration * 1000) {
        const due = Math.floor(((Date.now() - start) / 1000) * docsPerSecond) - sent;
        for (let i = 0; i < due; i += 1) {
          sent += 1;
          const p = submit(sent).catch(() => (refused += 1)).finally(() => inFlight.delete(p));
          inFlight.add(p);
        }
        await sleep(10);
      }
      await Promise.all(inFlight);
      const holders = await horizon.stop();
      const result = await drain(expected, 'through the API');
      const afterAnswer = expected.filter((e) => receiver.arrivals.has(e.key)).map((e) => receiver.arrivals.get(e.key) - e.answered);
      // Where the time after the answer went: the event recorded (its transaction's start) -> its delivery recorded
      // by the tail -> the POST's arrival.
      const { rows: steps } = await db.query(
        `SELECT extract(epoch FROM d.created_at - e.created_at) * 1000 AS tail_ms, d.subscription_id || '|' || e.document_id AS key,
                extract(epoch FROM d.created_at) * 1000 AS recorded_at
         FROM account_events e JOIN webhook_deliveries d ON d.event_id = e.id
         WHERE d.subscription_id = ANY($1::uuid[]) AND e.type = 'document.accepted'`,
        [ids],
      );
      const tailLag = distribution(steps.map((r) => Number(r.tail_ms)));
      const sendLag = distribution(
        steps.map((r) => {
          const [endpoint, document] = r.key.split('|');
          return receiver.arrivals.get(`${document}|/api/${endpoint}`) - Number(r.recorded_at);
        }).filter((v) => Number.isFinite(v)),
      );
      return { ...result, accept: distribution(accepts), afterAnswer: distribution(afterAnswer), horizon: holders, tailLag, sendLag, submitted: sent, refused, docsPerSecond, endpoints: API_ENDPOINTS };
    };

    // 1. Closed loop: as many as the dispatcher delivers, BACKLOG outstanding at most.
    say(`  closed loop for ${duration} s`);
    const closedExpected = [];
    const closedStart = Date.now();
    const receivedBefore = receiver.arrivals.size;
    while (Date.now() - closedStart < duration * 1000) {
      const outstanding = closedExpected.length - (receiver.arrivals.size - receivedBefore);
      if (outstanding < BACKLOG) closedExpected.push(...expectedOf(await insert(20)));
      else await sleep(5);
    }
    const inWindow = receiver.arrivals.size - receivedBefore;
    const closedS = (Date.now() - closedStart) / 1000;
    const closed = { ...(await drain(closedExpected, 'closed loop')), perSecond: inWindow / closedS, durationS: closedS };

    // 2 and 3. Open loop at half that rate: documents paced every 20 ms.
    const openLoop = async (label) => {
      const webhooksPerSecond = Math.max(10, Math.round(closed.perSecond / 2));
      const docsPerSecond = webhooksPerSecond / AREAS.length;
      say(`  ${label}: ${webhooksPerSecond} webhooks/s (${docsPerSecond.toFixed(1)} documents/s) for ${duration} s`);
      const expected = [];
      const start = Date.now();
      let sent = 0;
      while (Date.now() - start < duration * 1000) {
        const due = Math.floor(((Date.now() - start) / 1000) * docsPerSecond) - sent;
        if (due > 0) {
          sent += due;
          expected.push(...expectedOf(await insert(due)));
        }
        await sleep(20);
      }
      return { ...(await drain(expected, label)), rate: webhooksPerSecond };
    };
    const open = await openLoop('open loop');
    await db.query(`UPDATE webhook_subscriptions SET url = $2 || '/e/' || id WHERE id = ANY($1::uuid[])`, [endpoints.filter((e) => e.dead).map((e) => e.id), dead.base]);
    deadOn = true;
    const withDead = await openLoop('open loop, 10% of endpoints dead');
    // The dead endpoints go (their backlog would be step 4's load), then the API step.
    await db.query(`UPDATE webhook_subscriptions SET deleted_at = now() WHERE id = ANY($1::uuid[])`, [endpoints.filter((e) => e.dead).map((e) => e.id)]);
    for (const tenant of tenants) await db.query(`SELECT pg_notify('webhook_endpoints', $1)`, [tenant]);
    const throughApi = api ? await apiLoop(API_DOCS_PER_S) : undefined;
    return {
      endpoints: endpoints.length,
      closed,
      open,
      dead: { ...withDead, deadEndpoints: endpoints.filter((e) => e.dead).length, deadRequests: dead.requests(), p99Ratio: withDead.latency.p99 / open.latency.p99 },
      api: throughApi,
      repeated: receiver.repeated(),
      requests: receiver.requests(),
    };
  } finally {
    // The endpoints go: their pending deliveries fail at their next attempt, later phases send none.
    await db.query(`UPDATE webhook_subscriptions SET deleted_at = now() WHERE id = ANY($1::uuid[])`, [endpoints.map((e) => e.id)]).catch(() => undefined);
    for (const tenant of tenants) await db.query(`SELECT pg_notify('webhook_endpoints', $1)`, [tenant]).catch(() => undefined);
    await db.end();
    await receiver.close();
    await dead.close();
  }
}
