// The views phase (#49 "Speed"): documents people can read, `GET /v1/documents/{id}/pdf` and `/html`. A 20-line and a
// 500-line Belgian invoice go through the API (their lines made from the fixture's), then for `duration` s each
// 20 clients GET the 20-line one's PDF, then its HTML (closed loop): p50/p99 of each (after its first read the gateway
// serves the view it kept: a document read again); then first reads, which it renders: 20 other 20-line invoices'
// PDFs at once, and `rounds` other 500-line ones' one at a time: each read's time. The gateway's memory while it renders: its resident
// set (/proc/<pid>/status, sampled every 100 ms: the peak over the load less the level before it) and its V8 heap
// in use (einvoice_nodejs_heap_size_used_bytes on its operator port, read before and after each load: a scrape
// counts the whole database, so never during one). Targets (#49): PDF p99 <= 150 ms and HTML p99 <= 30 ms at 20 in
// parallel, the 500-line PDF <= 2 s.
import { readFileSync } from 'node:fs';
import { getLoad } from './load.mjs';
import { distribution } from './stats.mjs';

export const VIEW_TARGETS = { pdfP99Ms: 150, htmlP99Ms: 30, longPdfMs: 2000 };

/**
 * A Belgian invoice of `count` lines made from the fixture's one (`invoiceBody(id)`): each line its own description,
 * price and quantity (whole euros: its net and the VAT at the fixture's rate are exact in cents), and the total the
 * area checks TotalIncludingVat against.
 */
export function invoiceWithLines(invoiceBody, id, count) {
  const body = invoiceBody(id);
  const [template] = body.InvoiceLines;
  const lines = Array.from({ length: count }, (_, i) => ({
    ...template,
    Description: `${template.Description} ${i + 1}: a line long enough to wrap in its column, as real descriptions do`,
    PriceAmount: 10 + (i % 90),
    InvoicedQuantity: 1 + (i % 5),
  }));
  const netCents = lines.reduce((sum, line) => sum + line.PriceAmount * line.InvoicedQuantity * 100, 0);
  const vatCents = Math.round((netCents * template.TaxType.TaxRate) / 100);
  return { ...body, InvoiceLines: lines, TotalIncludingVat: (netCents + vatCents) / 100 };
}

/** The resident set of process `pid` in bytes (VmRSS), or undefined once it is gone. */
function residentBytes(pid) {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** Samples `pid`'s resident set every 100 ms until stopped: its level at the start and its peak. */
function residentSampler(pid) {
  const before = residentBytes(pid);
  let peak = before ?? 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, residentBytes(pid) ?? 0);
  }, 100);
  return { stop: () => (clearInterval(timer), { before, peak, after: residentBytes(pid) }) };
}

/** The gateway's V8 heap in use (bytes), from its operator port's Prometheus text; undefined when unreadable. */
async function heapUsed(operatorUrl) {
  if (!operatorUrl) return undefined;
  try {
    const text = await (await fetch(`${operatorUrl}/metrics`)).text();
    const value = /^einvoice_nodejs_heap_size_used_bytes(?:\{[^}]*\})? ([\d.e+]+)$/m.exec(text)?.[1];
    return value === undefined ? undefined : Number(value);
  } catch {
    return undefined;
  }
}

/** A closed-loop GET of `path` with the memory it cost: the load's figures, RSS before/peak/after, heap before/after. */
async function measuredLoad({ url, path, apiKey, connections, duration, gatewayPid, operatorUrl }) {
  const heapBefore = await heapUsed(operatorUrl);
  const rss = residentSampler(gatewayPid);
  const load = await getLoad({ url, path, headers: { 'x-svc-auth-key': apiKey }, connections, duration });
  const resident = rss.stop();
  const heapAfter = await heapUsed(operatorUrl);
  return { load, memory: { ...resident, heapBefore, heapAfter } };
}

async function submit(url, headers, body) {
  const response = await fetch(`${url}/be/einvoice/generate/invoice`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  if (response.status !== 202) throw new Error(`views: the ${body.InvoiceLines.length}-line invoice answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text).data.DocumentID;
}

/** The phase: see the file's head. `invoiceHeaders`: the bench's BE supplier's. */
export async function viewsRun({ url, apiKey, invoiceHeaders, invoiceBody, runId, connections = 20, duration, rounds = 10, gatewayPid, operatorUrl, assertAlive }) {
  const shortId = await submit(url, invoiceHeaders, invoiceWithLines(invoiceBody, `VIEW20-${runId}`, 20));
  const longId = await submit(url, invoiceHeaders, invoiceWithLines(invoiceBody, `VIEW500-${runId}`, 500));
  // Each view once before measuring: a broken view fails here, and the fonts are parsed (once per process).
  for (const [id, view] of [[shortId, 'pdf'], [shortId, 'html'], [longId, 'pdf']]) {
    const response = await fetch(`${url}/v1/documents/${id}/${view}`, { headers: { 'x-svc-auth-key': apiKey } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`views: GET ${view} of ${id} answered ${response.status}`);
  }
  assertAlive();
  const common = { url, apiKey, connections, duration, gatewayPid, operatorUrl };
  const pdf = await measuredLoad({ ...common, path: `/v1/documents/${shortId}/pdf` });
  assertAlive();
  const html = await measuredLoad({ ...common, path: `/v1/documents/${shortId}/html` });
  assertAlive();

  // First reads, which the gateway renders (the loads above read one document again and again: after its first
  // render, the gateway's kept view). `connections` more 20-line invoices, each's PDF read once, all in parallel;
  // then `rounds` more 500-line ones, each read once, one at a time.
  const firsts = [];
  for (let i = 0; i < connections; i++) firsts.push(await submit(url, invoiceHeaders, invoiceWithLines(invoiceBody, `VIEW20-${runId}-${i}`, 20)));
  const longs = [];
  for (let i = 0; i < rounds; i++) longs.push(await submit(url, invoiceHeaders, invoiceWithLines(invoiceBody, `VIEW500-${runId}-${i}`, 500)));
  assertAlive();
  const first = await firstReads({ url, apiKey, ids: firsts, gatewayPid, operatorUrl, parallel: true });
  const long = await firstReads({ url, apiKey, ids: longs, gatewayPid, operatorUrl, parallel: false });
  assertAlive();
  return { shortId, longId, connections, pdf, html, first, long: { ...long, rounds } };
}

/** The PDF of each of `ids` read once (all at once, or one after another): each read's time, the statuses, the memory. */
async function firstReads({ url, apiKey, ids, gatewayPid, operatorUrl, parallel }) {
  const heapBefore = await heapUsed(operatorUrl);
  const rss = residentSampler(gatewayPid);
  const statuses = {};
  let bytes = 0;
  const read = async (id) => {
    const started = performance.now();
    const response = await fetch(`${url}/v1/documents/${id}/pdf`, { headers: { 'x-svc-auth-key': apiKey } });
    bytes = (await response.arrayBuffer()).byteLength;
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    return performance.now() - started;
  };
  const times = [];
  if (parallel) times.push(...(await Promise.all(ids.map(read))));
  else for (const id of ids) times.push(await read(id));
  const resident = rss.stop();
  return { latency: distribution(times), statuses, bytes, memory: { ...resident, heapBefore, heapAfter: await heapUsed(operatorUrl) } };
}
