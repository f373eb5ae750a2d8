// HTTP load: autocannon (programmatic API) for the closed loops, a paced sender for the fixed rates.
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from '../lib/services.mjs';
import { largest, percentile } from './stats.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const require = createRequire(path.join(ROOT, 'package.json'));

function run(options) {
  const autocannon = require('autocannon');
  return new Promise((resolve, reject) => {
    // Ctrl-C during a run: the caller's handler cleans up; stop autocannon so it ends at once.
    const onSignal = () => instance.stop();
    const instance = autocannon(options, (error, result) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      if (error) reject(error);
      else resolve(result);
    });
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
}

/** Figures every run reports, whatever the route. */
function summarise(result, expectedStatus) {
  const byStatus = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
  const expected = byStatus[expectedStatus] ?? 0;
  const otherStatus = Object.entries(byStatus).reduce((n, [code, count]) => (code === String(expectedStatus) ? n : n + count), 0);
  return {
    durationS: result.duration,
    byStatus,
    expected,
    otherStatus,
    errors: result.errors ?? 0,
    timeouts: result.timeouts ?? 0,
    perSecond: expected / result.duration,
    latency: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max, mean: result.latency.average },
  };
}

/** GET /health/live: no auth, no database, the ceiling of this gateway on this machine. */
export function bareRoute({ url, connections, duration }) {
  return getLoad({ url, path: '/health/live', connections, duration });
}

/** GETs `path` (with `headers`) from `connections` clients for `duration` s: the figures of the 200s. */
export async function getLoad({ url, path: route, headers = {}, connections, duration }) {
  let firstError;
  const result = await run({
    url: `${url}${route}`,
    connections,
    duration,
    requests: [
      {
        method: 'GET',
        headers,
        onResponse: (status, body) => {
          if (status !== 200 && !firstError) firstError = { status, body };
        },
      },
    ],
  });
  return { ...summarise(result, 200), firstError };
}

/**
 * POSTs to `path` for `duration` s, every body made by `bodyOf(n)` (its own number), and collects
 * the id `idOf(body)` of each 202 so that later phases measure exactly the accepted documents.
 * `accepted`: the array they are pushed to as they come (a caller that watches them during the load
 * passes its own). `signal` (a fixed rate only): the load stops sending when it is aborted, `duration` then
 * optional (a load that lasts as long as another measurement does).
 */
export async function acceptedLoad({ url, path: route, headers, connections, duration, bodyOf, idOf, rate, expectedStatus = 202, headersOf, accepted = [], signal }) {
  if (rate) return pacedLoad({ url, path: route, headers, connections, duration, bodyOf, idOf, rate, expectedStatus, headersOf, accepted, signal });
  if (signal) throw new Error('acceptedLoad: a signal stops a fixed-rate load only (give a rate)');
  let counter = 0;
  let firstError;
  const result = await run({
    url,
    connections,
    duration,
    requests: [
      {
        method: 'POST',
        path: route,
        headers: { 'content-type': 'application/json', ...headers },
        setupRequest: (request) => {
          counter += 1;
          // `headersOf(n)`: headers of the n-th request (Spain's bench spreads requests over issuers).
          return { ...request, ...(headersOf ? { headers: { ...request.headers, ...headersOf(counter) } } : {}), body: JSON.stringify(bodyOf(counter)) };
        },
        onResponse: (status, body) => {
          if (status === expectedStatus) {
            const id = idOf(body);
            if (id) accepted.push(id);
            else if (!firstError) firstError = { status, body: `${expectedStatus} without a document id: ${body}` };
          } else if (!firstError) {
            firstError = { status, body };
          }
        },
      },
    ],
  });
  return { ...summarise(result, expectedStatus), firstError, accepted, built: counter };
}

/**
 * A fixed rate, open loop: request n leaves at start + n / rate seconds whether or not earlier ones
 * were answered (over at most `connections` keep-alive sockets; one waiting for a socket is late,
 * and its latency counts from when it was due). autocannon's `overallRate` is not this: it gives
 * each connection a quota per second and sends it at once when the second starts, so at 78/s over
 * 50 connections ~50 requests arrived together every second and the latencies measured the burst.
 */
async function pacedLoad({ url, path: route, headers, connections, duration, bodyOf, idOf, rate, expectedStatus, headersOf, accepted, signal }) {
  if (duration === undefined && !signal) throw new Error('pacedLoad: a duration or a signal ends the load');
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(route, url);
  const total = duration === undefined ? Infinity : Math.max(1, Math.round(rate * duration));
  const byStatus = {};
  const latencies = [];
  let firstError;
  let errors = 0;
  let timeouts = 0;
  const send = (n, dueAt) => new Promise((resolve) => {
    const body = JSON.stringify(bodyOf(n));
    const request = http.request(target, {
      method: 'POST',
      agent,
      timeout: 10_000,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers, ...(headersOf ? headersOf(n) : {}) },
    }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        latencies.push(performance.now() - dueAt);
        const status = response.statusCode;
        byStatus[status] = (byStatus[status] ?? 0) + 1;
        const text = Buffer.concat(chunks).toString('utf8');
        if (status === expectedStatus) {
          const id = idOf(text);
          if (id) accepted.push(id);
          else firstError ??= { status, body: `${expectedStatus} without a document id: ${text}` };
        } else {
          firstError ??= { status, body: text };
        }
        resolve();
      });
    });
    let timedOut = false;
    request.on('timeout', () => {
      timedOut = true;
      timeouts += 1;
      request.destroy(new Error('no answer within 10 s'));
    });
    request.on('error', (error) => {
      if (!timedOut) errors += 1;
      firstError ??= { status: 0, body: String(error?.message ?? error) };
      resolve();
    });
    request.end(body);
  });
  const startedAt = performance.now();
  const inFlight = [];
  for (let n = 1; n <= total; n++) {
    const dueAt = startedAt + ((n - 1) * 1000) / rate;
    const wait = dueAt - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (signal?.aborted) break;
    inFlight.push(send(n, dueAt));
  }
  await Promise.all(inFlight);
  const durationS = (performance.now() - startedAt) / 1000;
  agent.destroy();
  const expected = byStatus[expectedStatus] ?? 0;
  const mean = latencies.reduce((sum, v) => sum + v, 0) / Math.max(1, latencies.length);
  return {
    durationS,
    byStatus,
    expected,
    otherStatus: latencies.length - expected,
    errors,
    timeouts,
    perSecond: expected / durationS,
    latency: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: largest(latencies), mean },
    firstError,
    accepted,
    built: inFlight.length,
  };
}

/** POST /be/einvoice/generate/invoice, every request with its own invoice ID (`signal`: acceptedLoad's). */
export function invoiceLoad({ url, connections, duration, apiKey, supplierId, runId, invoiceBody, rate, accepted, signal }) {
  return acceptedLoad({
    url,
    rate,
    accepted,
    signal,
    path: '/be/einvoice/generate/invoice',
    headers: { 'x-svc-auth-key': apiKey, supplier_uuid: supplierId, transport_mode: 'peppol' },
    connections,
    duration,
    bodyOf: (n) => invoiceBody(`BENCH-${runId}-${n}`),
    idOf: (body) => /"DocumentID"\s*:\s*"([0-9a-fA-F-]{36})"/.exec(body)?.[1],
  });
}

/**
 * `connections` clients, each calling `submit(n)` (an answer 202 with a DocumentID) and waiting until that
 * document is final in `db` (Delivered or Failed) before its next, for `duration` s: the rate of a slow
 * delivery path (the as4 phase's AS4 exchange and MLS) rather than of the accept path, which an open
 * loop measures while the backlog only grows (137 202/s against ~1 Delivered/s, 2026-12-02). One query
 * polls every document in flight, by primary key. A document not final within `timeoutMs` counts as a timeout.
 */
export async function roundTripLoad({ submit, db, connections, duration, timeoutMs, assertAlive }) {
  const waiting = new Map();
  let polling = false;
  const poller = setInterval(async () => {
    if (polling || waiting.size === 0) return;
    polling = true;
    try {
      const { rows } = await db.query(`SELECT id, delivery_status FROM documents WHERE id = ANY($1::uuid[]) AND delivery_status IN ('Delivered', 'Failed')`, [[...waiting.keys()]]);
      for (const { id, delivery_status: status } of rows) {
        waiting.get(id)?.(status);
      }
    } catch {
      // a lost poll is fine
    } finally {
      polling = false;
    }
  }, 100);
  const final = (id) => new Promise((resolve) => {
    const done = (status) => {
      clearTimeout(timer);
      waiting.delete(id);
      resolve(status);
    };
    const timer = setTimeout(() => done('timeout'), timeoutMs);
    waiting.set(id, done);
  });
  const accepted = [];
  const answers = [];
  const byStatus = {};
  const outcomes = { Delivered: 0, Failed: 0, timeout: 0 };
  let counter = 0;
  let errors = 0;
  let firstError;
  const startedAt = performance.now();
  const endAt = startedAt + duration * 1000;
  const client = async () => {
    while (performance.now() < endAt) {
      assertAlive();
      const sentAt = performance.now();
      const answer = await submit(++counter).catch((error) => ({ status: 0, text: String(error?.message ?? error) }));
      answers.push(performance.now() - sentAt);
      byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
      const id = answer.status === 202 ? /"DocumentID"\s*:\s*"([0-9a-fA-F-]{36})"/.exec(answer.text)?.[1] : undefined;
      if (!id) {
        if (answer.status === 0) errors += 1;
        firstError ??= { status: answer.status, body: answer.text };
        await sleep(100);
        continue;
      }
      accepted.push(id);
      outcomes[await final(id)] += 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, client));
  } finally {
    clearInterval(poller);
  }
  const durationS = (performance.now() - startedAt) / 1000;
  const expected = byStatus[202] ?? 0;
  return {
    durationS, byStatus, expected, otherStatus: answers.length - expected - errors, errors, timeouts: outcomes.timeout, firstError, accepted, outcomes,
    perSecond: expected / durationS,
    latency: { p50: percentile(answers, 50), p99: percentile(answers, 99) },
  };
}
