// MyInvois bulk submission throughput (#4 item 9): a MY supplier (sandbox MyInvois) onboarded in the
// bench stack, then `clients` concurrent loops each posting `bulkSize`-document bulks to
// POST /api/einvoice/generate/invoice/bulk for `duration` s, every document with its own ID.
// Taken = accepted + pending documents of the 200/202 answers (pending: MyInvois had not answered
// within MYINVOIS_WAIT_MS; the worker still submits them). Then waits until the taken documents are
// `valid` (report_state `reported`) in documents: created_at (the gateway's requestedAt) -> authority.validatedAt (the poll that
// saw Valid).
import { distribution } from './stats.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TIN of the non-individual form (C + 9 digits + 1 digit, ending in 0), unique to this run. */
const freshTin = () => `C${String(Date.now()).slice(-9)}${Math.floor(Math.random() * 9)}0`;

export async function onboardMySupplier({ url, apiKey, fixtures, runId }) {
  const response = await fetch(`${url}/api/einvoice/onboard`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-svc-auth-key': apiKey },
    body: JSON.stringify(fixtures.onboardingBody({ tin_number: freshTin(), client_id: `bench-${runId}` })),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`MY onboarding answered ${response.status}: ${text}`);
  return JSON.parse(text).data.supplier_uuid;
}

export async function bulkLoad({ url, apiKey, supplierId, fixtures, runId, clients, bulkSize, duration, drainTimeoutS, db, say }) {
  const headers = { 'content-type': 'application/json', 'x-svc-auth-key': apiKey, supplier_uuid: supplierId, transport_mode: 'myinvois' };
  const latencies = [];
  const byStatus = {};
  let counter = 0;
  let taken = 0;
  let refused = 0;
  let errors = 0;
  let firstError;
  let largestBody = 0;
  const started = Date.now();
  const until = started + duration * 1000;

  async function client() {
    while (Date.now() < until) {
      const bulk = Array.from({ length: bulkSize }, () => fixtures.invoiceBody({ ID: `BULK-${runId}-${++counter}` }));
      const body = JSON.stringify(bulk);
      largestBody = Math.max(largestBody, Buffer.byteLength(body));
      const t0 = performance.now();
      try {
        const response = await fetch(`${url}/api/einvoice/generate/invoice/bulk`, { method: 'POST', headers, body });
        const text = await response.text();
        latencies.push(performance.now() - t0);
        byStatus[response.status] = (byStatus[response.status] ?? 0) + 1;
        if (response.status === 200 || response.status === 202) {
          const r = JSON.parse(text).data.submissionResponse;
          taken += r.acceptedDocuments.length + r.pendingDocuments.length;
          refused += r.rejectedDocuments.length;
          if (r.rejectedDocuments.length && !firstError) firstError = { status: response.status, body: JSON.stringify(r.rejectedDocuments[0]).slice(0, 500) };
        } else if (!firstError) {
          firstError = { status: response.status, body: text.slice(0, 500) };
        }
      } catch (error) {
        errors += 1;
        if (!firstError) firstError = { status: 'error', body: String(error?.message ?? error) };
      }
    }
  }
  await Promise.all(Array.from({ length: clients }, client));
  const durationS = (Date.now() - started) / 1000;
  const requests = latencies.length;

  // Until every taken document is final (valid or invalid) at MyInvois, or the drain timeout.
  say(`waiting (up to ${drainTimeoutS} s) until the ${taken} taken bulk documents are valid`);
  const deadline = Date.now() + drainTimeoutS * 1000;
  let counts;
  let lastSaid = 0;
  for (;;) {
    const { rows } = await db.query(
      `SELECT count(*) FILTER (WHERE report_state = 'reported')::int AS valid, count(*) FILTER (WHERE report_state IN ('pending', 'processing'))::int AS open, count(*)::int AS total
       FROM documents WHERE supplier_id = $1`,
      [supplierId],
    );
    counts = rows[0];
    if (counts.open === 0 || Date.now() > deadline) break;
    if (Date.now() - lastSaid > 2000) {
      lastSaid = Date.now();
      say(`  ${counts.valid}/${counts.total} valid, ${counts.open} not yet final`);
    }
    await sleep(500);
  }
  const { rows: timing } = await db.query(
    `SELECT extract(epoch FROM ((authority->>'validatedAt')::timestamptz - created_at)) * 1000 AS ms FROM documents WHERE supplier_id = $1 AND report_state = 'reported'`,
    [supplierId],
  );
  const toValid = distribution(timing.map((r) => Number(r.ms)));
  // The whole pipeline's rate: documents valid per second from the first bulk sent to the last
  // document valid (the taken rate alone hides work left for the drain after the load stops).
  const { rows: [last] } = await db.query(`SELECT max((authority->>'validatedAt')::timestamptz) AS at FROM documents WHERE supplier_id = $1 AND report_state = 'reported'`, [supplierId]);
  const untilLastValidS = last?.at ? (new Date(last.at).getTime() - started) / 1000 : Number.NaN;
  return {
    durationS, requests, byStatus, taken, refused, errors, firstError, largestBody,
    perSecond: taken / durationS,
    latency: distribution(latencies),
    valid: counts.valid, stored: counts.total, open: counts.open, complete: counts.open === 0 && counts.valid >= taken,
    toValid,
    untilLastValidS,
    validPerSecond: counts.valid / untilLastValidS,
  };
}
