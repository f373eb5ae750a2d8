// Webhook throughput (issue #3): a BE supplier invoices a DE supplier hosted here whose
// subscription points at a receiver in this process (http://127.0.0.1, WEBHOOK_ALLOW_LOOPBACK).
// Measures webhooks delivered per second and submission -> webhook received latency.
import http from 'node:http';
import { invoiceLoad } from './load.mjs';
import { distribution } from './stats.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A receiver on 127.0.0.1 that answers 200 and notes when each DocumentId first arrived. */
async function startReceiver() {
  const arrivals = new Map();
  const counts = new Map();
  let requests = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      requests += 1;
      try {
        const id = JSON.parse(body).DocumentId;
        if (!arrivals.has(id)) arrivals.set(id, Date.now());
        counts.set(id, (counts.get(id) ?? 0) + 1);
      } catch {
        // not ours
      }
      res.statusCode = 200;
      res.end();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/webhooks`,
    arrivals,
    counts,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function post(url, headers, body) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

/**
 * Onboards the DE receiver, subscribes it, drives BE -> DE invoices for `duration` s and waits
 * until every accepted document's webhook arrived (or `drainTimeoutS`).
 */
export async function webhookLoad({ url, apiKey, db, fixtures, sellerId, runId, connections, duration, drainTimeoutS, say }) {
  const receiver = await startReceiver();
  try {
    const d = fixtures.suppliers.de;
    const onboarded = await post(`${url}/de/einvoice/onboard`, { 'x-svc-auth-key': apiKey }, {
      registered_name: d.registeredName, identifiers: d.identifiers, street: d.street, city: d.city,
      postal_code: d.postalCode, country: d.country, contact_number: d.contactNumber,
    });
    if (onboarded.status !== 201) throw new Error(`DE onboarding answered ${onboarded.status}: ${onboarded.text}`);
    const receiverId = JSON.parse(onboarded.text).data.supplier_uuid;
    const subscribed = await post(`${url}/de/einvoice/webhooks`, { 'x-svc-auth-key': apiKey, supplier_uuid: receiverId }, { url: receiver.url, events: ['DocumentReceived'] });
    if (subscribed.status !== 201) throw new Error(`webhook registration answered ${subscribed.status}: ${subscribed.text}`);
    const vat = d.identifiers.find((i) => i.scheme === 'DE:VAT');
    const buyer = { RegisteredName: d.registeredName, address: { Street: d.street, ZipCode: d.postalCode, City: d.city, Country: 'DE' }, Identifiers: [{ Scheme: 'DE:VAT', ID: vat.id }] };
    const invoiceBody = (id) => fixtures.beInvoice({ ID: id, CustomerParty: buyer });

    const measure = async (label, options) => {
      const before = receiver.requests();
      const load = await invoiceLoad({ url, connections, apiKey, supplierId: sellerId, runId: `${runId}${label}`, invoiceBody, ...options });
      return { ...(await arrivalsOf({ db, receiver, load, drainTimeoutS, say })), requests: receiver.requests() - before };
    };
    // Closed loop: how many per second; then a fixed rate of half that: the latency of a steady flow.
    const closed = await measure('w', { duration });
    const rate = Math.max(1, Math.round(Math.min(closed.perSecond, closed.load.perSecond) / 2));
    const open = { ...(await measure('v', { duration, rate })), rate };
    return { closed, open };
  } finally {
    await receiver.close();
  }
}

/** Waits until the webhook of every document `load` accepted arrived; the figures. */
async function arrivalsOf({ db, receiver, load, drainTimeoutS, say }) {
  const expected = load.accepted.length;
  // Submission times from the store (the same host's clock), keyed by document number.
  const { rows } = await db.query(
    `SELECT data->>'documentId' AS id, data->>'documentNumber' AS number, extract(epoch FROM recorded_at) * 1000 AS at
     FROM events WHERE type = 'DocumentSubmitted' AND data->>'documentId' = ANY($1)`,
    [load.accepted],
  );
  // Wait for the accepted documents themselves: documents whose 202 came after the load
  // stopped also arrive, and must not stand in for missing ones.
  const missing = () => rows.filter((row) => !receiver.arrivals.has(row.number)).length;
  say(`waiting (up to ${drainTimeoutS} s) for the webhooks of ${expected} accepted documents`);
  const deadline = Date.now() + drainTimeoutS * 1000;
  let lastReport = 0;
  while (missing() > 0 && Date.now() < deadline) {
    if (Date.now() - lastReport > 2000) {
      lastReport = Date.now();
      say(`  ${expected - missing()}/${expected} webhooks received`);
    }
    await sleep(100);
  }
  const latencies = [];
  let firstSubmitted = Infinity;
  let lastArrival = 0;
  for (const row of rows) {
    const arrived = receiver.arrivals.get(row.number);
    firstSubmitted = Math.min(firstSubmitted, Number(row.at));
    if (arrived === undefined) continue;
    latencies.push(arrived - Number(row.at));
    lastArrival = Math.max(lastArrival, arrived);
  }
  return {
    load,
    expected,
    received: latencies.length,
    distinct: rows.filter((row) => receiver.arrivals.has(row.number)).length,
    /** POSTs beyond the first for the same document (a webhook sent twice). */
    repeated: rows.reduce((n, row) => n + Math.max(0, (receiver.counts.get(row.number) ?? 0) - 1), 0),
    complete: latencies.length === expected,
    perSecond: latencies.length / ((lastArrival - firstSubmitted) / 1000),
    latency: distribution(latencies),
  };
}
