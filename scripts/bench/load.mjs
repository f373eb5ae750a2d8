// HTTP load with autocannon (programmatic API): the bare route and the invoice submissions.
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from '../lib/services.mjs';

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
export async function bareRoute({ url, connections, duration }) {
  let firstError;
  const result = await run({
    url: `${url}/health/live`,
    connections,
    duration,
    requests: [
      {
        method: 'GET',
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
 */
export async function acceptedLoad({ url, path: route, headers, connections, duration, bodyOf, idOf, rate, expectedStatus = 202, headersOf }) {
  let counter = 0;
  let firstError;
  const accepted = [];
  const result = await run({
    url,
    connections,
    duration,
    // A fixed rate (requests/s over all connections): the open-loop phases.
    ...(rate ? { overallRate: rate } : {}),
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

/** POST /be/einvoice/generate/invoice, every request with its own invoice ID. */
export function invoiceLoad({ url, connections, duration, apiKey, supplierId, runId, invoiceBody, rate }) {
  return acceptedLoad({
    url,
    rate,
    path: '/be/einvoice/generate/invoice',
    headers: { 'x-svc-auth-key': apiKey, supplier_uuid: supplierId, transport_mode: 'peppol' },
    connections,
    duration,
    bodyOf: (n) => invoiceBody(`BENCH-${runId}-${n}`),
    idOf: (body) => /"DocumentID"\s*:\s*"([0-9a-fA-F-]{36})"/.exec(body)?.[1],
  });
}
